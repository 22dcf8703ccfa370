// amp-lower-to-llvm evaluates math.tanh, math.exp and math.log with
// amp-approximate-math's polynomials (vector code, where LLVM would call
// libm once per element). Against the exact values rounded to f32, they
// are within 4 f32 units in the last place (rtol = 4 * 2^-23 = 4.8e-7;
// measured: tanh 2 ulp, exp and log 1 ulp), and subnormal results within
// 2 units of the smallest subnormal (atol = 3e-45), over tanh on [-12, 12]
// (tiny arguments included), exp on [-104, 88] (subnormal results below
// -87.3) and log on [1e-45, 1e38] (subnormal arguments below 1.2e-38);
// special values keep their IEEE results.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/math_inputs.py %t
// RUN: amp-run %s --entry=math --input=%t/tanh.npy,%t/exp.npy,%t/log.npy --compare=%t/ref_tanh.npy,%t/ref_exp.npy,%t/ref_log.npy --rtol=4.8e-7 --atol=3e-45 | FileCheck %s
// CHECK: compare result 0 (8192xf32) with '{{.*}}ref_tanh.npy': {{.*}} out_of_tolerance=0/8192 {{.*}} OK
// CHECK: compare result 1 (8192xf32) with '{{.*}}ref_exp.npy': {{.*}} out_of_tolerance=0/8192 {{.*}} OK
// CHECK: compare result 2 (8192xf32) with '{{.*}}ref_log.npy': {{.*}} out_of_tolerance=0/8192 {{.*}} OK
//
// The lowered code calls no libm function and has no scalar tanh, exp or
// log left:
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm)' | FileCheck %s --check-prefix=LLVM
// LLVM-NOT: tanh
// LLVM-NOT: llvm.intr.exp
// LLVM-NOT: llvm.intr.log
// LLVM-NOT: @expf
// LLVM-NOT: @logf
//
// Special values: tanh keeps -0 and saturates at +-1; exp overflows to inf,
// gives subnormals down to exp(-103.9) = 2^-149 and then 0; log(0) = -inf,
// log(-1) = nan, log(inf) = inf.
// RUN: %python -c "import numpy as np; np.save('%t/special.npy', np.array([0, -0.0, 20, -20, 100, -100, np.inf, -1], np.float32))"
// RUN: amp-run %s --entry=special --input=%t/special.npy | FileCheck %s --check-prefix=SPECIAL
// SPECIAL: result 0: 8xf32 [0, -0, 1, -1, 1, -1, 1, -0.761594]
// SPECIAL: result 1: 8xf32 [1, 1, 4.85165e+08, 2.06115e-09, inf, 3.78351e-44, inf, 0.367879]
// SPECIAL: result 2: 8xf32 [-inf, -inf, 2.99573, nan, 4.60517, nan, inf, nan]
// RUN: %python -c "import numpy as np; np.save('%t/tiny.npy', np.array([-103.9, -104.5, -np.inf, 1e-40, 1.4e-45, -1e-40, 1.1754944e-38, 2e-38], np.float32))"
// RUN: amp-run %s --entry=special --input=%t/tiny.npy | FileCheck %s --check-prefix=TINY
// TINY: result 1: 8xf32 [1.4013e-45, 0, 0, 1, 1, 1, 1, 1]
// TINY: result 2: 8xf32 [nan, nan, nan, -92.1034, -103.279, nan, -87.3365, -86.8051]

func.func @math(%t: tensor<8192xf32>, %e: tensor<8192xf32>, %l: tensor<8192xf32>)
    -> (tensor<8192xf32>, tensor<8192xf32>, tensor<8192xf32>) {
  %0 = math.tanh %t : tensor<8192xf32>
  %1 = math.exp %e : tensor<8192xf32>
  %2 = math.log %l : tensor<8192xf32>
  return %0, %1, %2 : tensor<8192xf32>, tensor<8192xf32>, tensor<8192xf32>
}

func.func @special(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = math.tanh %x : tensor<8xf32>
  %1 = math.exp %x : tensor<8xf32>
  %2 = math.log %x : tensor<8xf32>
  return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// amp-lower-to-llvm evaluates math.erf (GELU's, in transformer MLPs) with
// upstream MLIR's rational approximation as vector code, where LLVM would
// call libm's erff once per element (the digits transformer spent half its
// time there). Against erf in f64, it is within 4.8e-7 relative (4 f32
// units in the last place; measured 2.2e-7, libm's erff 0.7e-7) over
// [-6, 6], tiny arguments down to the subnormals, and large ones (erf = +-1);
// f16 and bf16 arguments are evaluated in f32.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import math, numpy as np; x = np.concatenate([np.linspace(-6, 6, 6001), np.logspace(-44, 1.5, 1000), -np.logspace(-44, 1.5, 1000), [30, -30, 1e30]]).astype(np.float32); np.save('%t/x.npy', x); np.save('%t/ref.npy', np.array([math.erf(float(v)) for v in x], np.float32))"
// RUN: amp-run %s --entry=values --input=%t/x.npy --compare=%t/ref.npy --rtol=4.8e-7 --atol=3e-45 | FileCheck %s
// CHECK: compare result 0 (8004xf32) with '{{.*}}ref.npy': {{.*}} out_of_tolerance=0/8004 {{.*}} OK
//
// The lowered code calls no libm function:
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm)' | FileCheck %s --check-prefix=LLVM
// LLVM-NOT: @erff
// LLVM-NOT: llvm.call @erf
//
// Special values: erf(+-inf) = +-1, erf(nan) = nan, erf(0) = 0; in f16.
// RUN: %python -c "import numpy as np; np.save('%t/special.npy', np.array([0, 0.5, -0.5, 3, np.inf, -np.inf, np.nan, 1e-3], np.float32))"
// RUN: amp-run %s --entry=special --input=%t/special.npy --cast-inputs | FileCheck %s --check-prefix=SPECIAL
// SPECIAL: result 0: 8xf32 [0, 0.5205, -0.5205, 0.999978, 1, -1, nan, 0.00112838]
// SPECIAL: result 1: 8xf16 [0, 0.520508, -0.520508, 1, 1, -1, nan, 0.00112915]

func.func @values(%x: tensor<8004xf32>) -> tensor<8004xf32> {
  %0 = math.erf %x : tensor<8004xf32>
  return %0 : tensor<8004xf32>
}

func.func @special(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf16>) {
  %0 = math.erf %x : tensor<8xf32>
  %h = arith.truncf %x : tensor<8xf32> to tensor<8xf16>
  %1 = math.erf %h : tensor<8xf16>
  return %0, %1 : tensor<8xf32>, tensor<8xf16>
}

// amp-approximate-math replaces the math functions it is given (by
// default erf and erfc, which SPIR-V lacks) on f32, scalar or vector, by
// polynomial approximations (arith, math.fma, bit manipulations); f16 and
// bf16 calls are evaluated in f32 and rounded back. The values are checked
// by running them: test/Runner/vulkan-erf.mlir, test/Runner/cpu-math.mlir.
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-approximate-math))' | FileCheck %s
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-approximate-math{functions=tanh,exp}))' | FileCheck %s --check-prefix=CPU
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-approximate-math{functions=exp,log}))' | FileCheck %s --check-prefix=SUB
// RUN: not amp-opt %s -p 'builtin.module(func.func(amp-approximate-math{functions=tanh,gamma}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: amp-approximate-math: no approximation of 'gamma'; known: acos, asin, atan, atan2, cbrt, cos, erf, erfc, exp, expm1, log, log1p, log2, sin, tanh

// CHECK-LABEL: func.func @erf
// CHECK-NOT:     math.erf
// CHECK:         math.fma {{.*}} : f32
// CHECK-NOT:     math.erf
// CHECK:         return
func.func @erf(%x: f32) -> f32 {
  %y = math.erf %x : f32
  return %y : f32
}

// -----

// CHECK-LABEL: func.func @erfc_vector
// CHECK-NOT:     math.erfc
// CHECK:         math.exp {{.*}} : vector<4xf32>
// CHECK-NOT:     math.erfc
// CHECK:         return
func.func @erfc_vector(%x: vector<4xf32>) -> vector<4xf32> {
  %y = math.erfc %x : vector<4xf32>
  return %y : vector<4xf32>
}

// -----

// CHECK-LABEL: func.func @bf16
// CHECK:         %[[X:.+]] = arith.extf %{{.+}} : bf16 to f32
// CHECK-NOT:     math.erf
// CHECK:         arith.truncf %{{.+}} : f32 to bf16
func.func @bf16(%x: bf16) -> bf16 {
  %y = math.erf %x : bf16
  return %y : bf16
}

// -----

// Only the functions named are replaced.
// CHECK-LABEL: func.func @tanh_exp
// CHECK:         math.tanh
// CHECK:         math.exp
// CPU-LABEL:   func.func @tanh_exp
// CPU:           arith.extf %{{.+}} : vector<16xf16> to vector<16xf32>
// CPU-NOT:       math.tanh
// CPU-NOT:       math.exp
// CPU:           arith.truncf %{{.+}} : vector<16xf32> to vector<16xf16>
// CPU:           math.erf
func.func @tanh_exp(%x: vector<16xf16>, %z: f32) -> (vector<16xf16>, f32) {
  %t = math.tanh %x : vector<16xf16>
  %y = math.exp %t : vector<16xf16>
  %e = math.erf %z : f32
  return %y, %e : vector<16xf16>, f32
}

// -----

// The polynomials work on normal numbers; exp and log first move the
// subnormal range into the normal one by exact scalings by 2^32:
// exp(x) = exp(x + 32 ln 2) * 2^-32 for x < -87, and
// log(x) = log(x * 2^32) - 32 ln 2 for x < 2^-126.
// SUB-LABEL: func.func @exp_subnormal
// SUB-DAG:     %[[LIMIT:.+]] = arith.constant -8.700000e+01 : f32
// SUB-DAG:     %[[DOWN:.+]] = arith.constant 2.32830644E-10 : f32
// SUB:         %[[LOW:.+]] = arith.cmpf olt, %[[X:.+]], %[[LIMIT]] : f32
// SUB:         %[[MOVED:.+]] = arith.addf %[[X]], %{{.+}} : f32
// SUB:         %[[ARG:.+]] = arith.select %[[LOW]], %[[MOVED]], %[[X]] : f32
// SUB-NOT:     math.exp
// SUB:         %[[BACK:.+]] = arith.mulf %[[E:.+]], %[[DOWN]] : f32
// SUB:         arith.select %[[LOW]], %[[BACK]], %[[E]] : f32
// SUB-LABEL: func.func @log_subnormal
// SUB-DAG:     %[[UP:.+]] = arith.constant 4.2949673E+9 : f32
// SUB-DAG:     %[[MIN:.+]] = arith.constant 1.17549435E-38 : f32
// SUB:         %[[TINY:.+]] = arith.cmpf olt, %[[Y:.+]], %[[MIN]] : f32
// SUB:         %[[SCALED:.+]] = arith.mulf %[[Y]], %[[UP]] : f32
// SUB:         arith.select %[[TINY]], %[[SCALED]], %[[Y]] : f32
// SUB-NOT:     math.log
// SUB:         %[[R:.+]] = arith.select %[[TINY]], %{{.+}}, %{{.+}} : f32
// SUB-NEXT:    return %[[R]]
func.func @exp_subnormal(%x: f32) -> f32 {
  %y = math.exp %x : f32
  return %y : f32
}
func.func @log_subnormal(%x: f32) -> f32 {
  %y = math.log %x : f32
  return %y : f32
}

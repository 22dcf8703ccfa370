// RUN: amp-opt %s --split-input-file --amp-test-print-policy -o /dev/null | FileCheck %s --check-prefixes=CHECK,F16
// RUN: amp-opt %s --split-input-file --amp-test-print-policy=low=bf16 -o /dev/null | FileCheck %s --check-prefixes=CHECK,BF16

// Functions that grow fast or amplify their input's rounding stay f32; the
// reason depends on the low type (f16 overflows, bf16 is coarse).
// CHECK-LABEL: func.func @growing
// F16-NEXT:  math.exp never model acc=- data=(0)->(0) compute=yes "exp overflows f16 (max 65504) for inputs above 11"
// BF16-NEXT: math.exp never model acc=- data=(0)->(0) compute=yes "exp turns bf16's input rounding into large relative output error"
// CHECK-NEXT: math.exp2 never
// CHECK-NEXT: math.expm1 never
// F16-NEXT:  math.powf never model acc=- data=(0, 1)->(0) compute=yes "pow overflows f16 quickly"
// BF16-NEXT: math.powf never model acc=- data=(0, 1)->(0) compute=yes "pow amplifies bf16's input rounding"
// CHECK-NEXT: math.fpowi never model acc=- data=(0)->(0)
// CHECK-NEXT: math.cosh never model acc=- data=(0)->(0) compute=yes "grows exponentially like exp"
func.func @growing(%a: tensor<4xf32>, %i: tensor<4xi32>) {
  %0 = math.exp %a : tensor<4xf32>
  %1 = math.exp2 %a : tensor<4xf32>
  %2 = math.expm1 %a : tensor<4xf32>
  %3 = math.powf %a, %a : tensor<4xf32>
  %4 = math.fpowi %a, %i : tensor<4xf32>, tensor<4xi32>
  %5 = math.cosh %a : tensor<4xf32>
  return
}

// -----

// Logarithms, erf and rsqrt (normalisation statistics) stay f32.
// CHECK-LABEL: func.func @sensitive
// CHECK-NEXT: math.log never model acc=- data=(0)->(0) compute=yes "log of small values loses accuracy in low precision (log-probabilities, losses)"
// CHECK-NEXT: math.log1p never
// CHECK-NEXT: math.erf never model acc=- data=(0)->(0) compute=yes "erf's polynomial needs more than 11 bits"
// CHECK-NEXT: math.rsqrt never model acc=- data=(0)->(0) compute=yes "rsqrt of normalisation statistics needs f32 accuracy"
// CHECK-NEXT: math.tan never model acc=- data=(0)->(0) compute=yes "steep near its poles or domain edges"
func.func @sensitive(%a: f32) {
  %0 = math.log %a : f32
  %1 = math.log1p %a : f32
  %2 = math.erf %a : f32
  %3 = math.rsqrt %a : f32
  %4 = math.tan %a : f32
  return
}

// -----

// Bounded or slowly varying functions follow, in f16 and bf16.
// CHECK-LABEL: func.func @bounded
// CHECK-NEXT: math.tanh follow model acc=- data=(0)->(0) compute=yes "bounded or slowly varying: accurate in low precision"
// CHECK-NEXT: math.sqrt follow
// CHECK-NEXT: math.absf follow
// CHECK-NEXT: math.floor follow
// CHECK-NEXT: math.fma follow model acc=- data=(0, 1, 2)->(0)
// CHECK-NEXT: math.sin follow
// CHECK-NEXT: math.isnan follow model acc=- data=(0)->()
func.func @bounded(%a: vector<8xf32>) {
  %0 = math.tanh %a : vector<8xf32>
  %1 = math.sqrt %a : vector<8xf32>
  %2 = math.absf %a : vector<8xf32>
  %3 = math.floor %a : vector<8xf32>
  %4 = math.fma %a, %a, %a : vector<8xf32>
  %5 = math.sin %a : vector<8xf32>
  %6 = math.isnan %a : vector<8xf32>
  return
}

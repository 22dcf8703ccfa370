// amp-approximate-erf replaces math.erf and math.erfc on f32, scalar or
// vector, by polynomial approximations (arith, math.fma, math.exp); bf16
// calls are left for a pass that extends them to f32. The values are checked
// by running them: test/Runner/vulkan-erf.mlir.
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-approximate-erf))' | FileCheck %s

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

// CHECK-LABEL: func.func @bf16_left
// CHECK:         math.erf %{{.+}} : bf16
func.func @bf16_left(%x: bf16) -> bf16 {
  %y = math.erf %x : bf16
  return %y : bf16
}

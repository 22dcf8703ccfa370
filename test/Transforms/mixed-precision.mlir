// RUN: amp-opt %s --split-input-file --mixed-precision=placement=greedy --verify-each | FileCheck %s
// RUN: amp-opt %s --split-input-file --mixed-precision="precision=bf16 placement=greedy" --verify-each | FileCheck %s --check-prefix=BF16

// The TVM mixed-precision cases, on linalg: a contraction runs low with an f32
// accumulator; its result is rounded to the low type for low users.

// A single matmul: f32 arguments are cast once at entry, the accumulator
// stays f32, and the f32 result is returned as it is (no truncf/extf round
// trip through f16).
// CHECK-LABEL: func.func @single_matmul
// CHECK-SAME: (%[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8x16xf32>, %[[C:.+]]: tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-DAG: %[[A16:.+]] = arith.truncf %[[A]] : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK-DAG: %[[B16:.+]] = arith.truncf %[[B]] : tensor<8x16xf32> to tensor<8x16xf16>
// CHECK: %[[R:.+]] = linalg.matmul ins(%[[A16]], %[[B16]] : tensor<4x8xf16>, tensor<8x16xf16>) outs(%[[C]] : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.extf
// CHECK: return %[[R]] : tensor<4x16xf32>
// BF16-LABEL: func.func @single_matmul
// BF16: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xbf16>, tensor<8x16xbf16>) outs(%{{.+}} : tensor<4x16xf32>)
func.func @single_matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// green -> gray -> green: the follow op between two contractions runs low;
// no f16 -> f32 -> f16 round trip appears, and the value is cast back only
// at exit.
// CHECK-LABEL: func.func @green_gray_green
// CHECK: %[[M1:.+]] = linalg.matmul
// CHECK-NEXT: %[[M1L:.+]] = arith.truncf %[[M1]] : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK-NEXT: %[[T:.+]] = math.tanh %[[M1L]] : tensor<4x8xf16>
// CHECK-NEXT: %[[M2:.+]] = linalg.matmul ins(%[[T]], %{{.+}} : tensor<4x8xf16>, tensor<8x8xf16>)
// CHECK-NEXT: return %[[M2]]
// BF16-LABEL: func.func @green_gray_green
// BF16: math.tanh %{{.+}} : tensor<4x8xbf16>
func.func @green_gray_green(%a: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = linalg.matmul ins(%a, %w1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = math.tanh %0 : tensor<4x8xf32>
  %2 = linalg.matmul ins(%1, %w2 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// green -> red: exp and log stay f32 and read the contraction's f32
// accumulator directly; nothing is rounded to f16 in between.
// CHECK-LABEL: func.func @green_red
// CHECK: %[[M:.+]] = linalg.matmul {{.*}} -> tensor<4x8xf32>
// CHECK-NOT: arith.truncf
// CHECK-DAG: math.exp %[[M]] : tensor<4x8xf32>
// CHECK-DAG: math.log %[[M]] : tensor<4x8xf32>
func.func @green_red(%a: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %c: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = linalg.matmul ins(%a, %w1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = math.exp %0 : tensor<4x8xf32>
  %2 = math.log %0 : tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// red -> gray: a follow op after a never op stays f32; nothing is cast.
// CHECK-LABEL: func.func @red_gray
// CHECK-NOT: f16
// CHECK: %[[E:.+]] = math.exp %{{.+}} : tensor<4x8xf32>
// CHECK-NEXT: arith.addf %[[E]], %[[E]] : tensor<4x8xf32>
func.func @red_gray(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = math.exp %a : tensor<4x8xf32>
  %1 = arith.addf %0, %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// Let-style reuse: one weight used by two contractions is cast once.
// CHECK-LABEL: func.func @shared_weight
// CHECK-SAME: %[[W:[^:]+]]: tensor<8x8xf32>
// CHECK-COUNT-1: arith.truncf %[[W]]
// CHECK-NOT: arith.truncf %[[W]]
// CHECK: return
func.func @shared_weight(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %w: tensor<8x8xf32>, %c: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.matmul ins(%b, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// where/select: the i1 condition is untouched; both branches share one cast
// each, and the select runs low.
// CHECK-LABEL: func.func @select
// CHECK: %[[CMP:.+]] = arith.cmpf olt, %{{.+}}, %{{.+}} : tensor<4x8xf16>
// CHECK: arith.select %[[CMP]], %{{.+}}, %{{.+}} : tensor<4x8xi1>, tensor<4x8xf16>
func.func @select(%a: tensor<4x8xf32>, %w: tensor<8x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = math.tanh %0 : tensor<4x8xf32>
  %2 = arith.cmpf olt, %0, %1 : tensor<4x8xf32>
  %3 = arith.select %2, %0, %1 : tensor<4x8xi1>, tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// Batch matmul is a contraction like matmul.
// CHECK-LABEL: func.func @batch_matmul
// CHECK: linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<2x4x8xf16>, tensor<2x8x4xf16>) outs(%{{.+}} : tensor<2x4x4xf32>)
func.func @batch_matmul(%a: tensor<2x4x8xf32>, %b: tensor<2x8x4xf32>, %c: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%c : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %0 : tensor<2x4x4xf32>
}

// -----

// Integer arguments and integer arithmetic are never touched. Nothing low
// reaches the conversion and the product, so they stay f32: rounding an f32
// argument only to widen the result at exit would lose accuracy for nothing.
// CHECK-LABEL: func.func @integers
// CHECK-NOT: f16
// CHECK: arith.addi %{{.+}}, %{{.+}} : tensor<4xi32>
// CHECK: arith.sitofp %{{.+}} : tensor<4xi32> to tensor<4xf32>
// CHECK: arith.mulf %{{.+}}, %{{.+}} : tensor<4xf32>
// An integer conversion whose user is low follows it.
// CHECK-LABEL: func.func @integers_into_low
// CHECK: %[[F:.+]] = arith.sitofp %{{.+}} : tensor<4x4xi32> to tensor<4x4xf16>
// CHECK: arith.addf %{{.+}}, %[[F]] : tensor<4x4xf16>
func.func @integers(%i: tensor<4xi32>, %a: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>) {
  %0 = arith.addi %i, %i : tensor<4xi32>
  %1 = arith.sitofp %i : tensor<4xi32> to tensor<4xf32>
  %2 = arith.mulf %1, %a : tensor<4xf32>
  return %0, %2 : tensor<4xi32>, tensor<4xf32>
}
func.func @integers_into_low(%i: tensor<4x4xi32>, %a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %t = math.tanh %m : tensor<4x4xf32>
  %f = arith.sitofp %i : tensor<4x4xi32> to tensor<4x4xf32>
  %s = arith.addf %t, %f : tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// -----

// Softmax is never converted, even after a contraction.
// CHECK-LABEL: func.func @softmax
// CHECK: linalg.softmax dimension(1) ins(%{{.+}} : tensor<4x16xf32>) outs(%{{.+}} : tensor<4x16xf32>)
func.func @softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// f64 and already-low values are left alone.
// CHECK-LABEL: func.func @other_types
// CHECK: arith.addf %{{.+}}, %{{.+}} : f64
// CHECK: arith.mulf %{{.+}}, %{{.+}} : vector<4xf16>
func.func @other_types(%d: f64, %h: vector<4xf16>) -> (f64, vector<4xf16>) {
  %0 = arith.addf %d, %d : f64
  %1 = arith.mulf %h, %h : vector<4xf16>
  return %0, %1 : f64, vector<4xf16>
}

// -----

// Ops whose only inputs are f32 arguments stay f32: rounding the arguments
// would lose accuracy and cost casts for nothing. A sum of an argument keeps
// reading f32.
// CHECK-LABEL: func.func @arguments_only
// CHECK-NOT: f16
// CHECK: arith.addf %{{.+}}, %{{.+}} : tensor<16xf32>
// CHECK: linalg.reduce { arith.addf } ins(%{{.+}} : tensor<4x16xf32>)
func.func @arguments_only(%a: tensor<16xf32>, %b: tensor<16xf32>, %x: tensor<4x16xf32>, %r: tensor<4xf32>) -> (tensor<16xf32>, tensor<4xf32>) {
  %0 = arith.addf %a, %b : tensor<16xf32>
  %1 = linalg.reduce { arith.addf } ins(%x : tensor<4x16xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
  return %0, %1 : tensor<16xf32>, tensor<4xf32>
}

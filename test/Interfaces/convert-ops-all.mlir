// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --amp-test-convert-ops=all=true --verify-diagnostics | FileCheck %s
// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --amp-test-convert-ops="all=true accumulate=f16" 2>/dev/null | FileCheck %s --check-prefix=LOWACC

// A sum reduction reads f16 and keeps its accumulator in the accumulate
// type: f32 by default, f16 when asked.
// CHECK-LABEL: func.func @reduce_sum
// CHECK: linalg.reduce ins(%{{.+}} : tensor<4x256xf16>) outs(%{{.+}} : tensor<4xf32>)
// CHECK-NEXT: (%[[IN:.+]]: f16, %[[ACC:.+]]: f32) {
// CHECK-NEXT: %[[X:.+]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// LOWACC-LABEL: func.func @reduce_sum
// LOWACC: linalg.reduce { arith.addf } ins(%{{.+}} : tensor<4x256xf16>) outs(%{{.+}} : tensor<4xf16>)
func.func @reduce_sum(%a: tensor<4x256xf32>, %r: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.reduce { arith.addf } ins(%a : tensor<4x256xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
  return %0 : tensor<4xf32>
}

// -----

// A softmax is retyped whole when forced.
// CHECK-LABEL: func.func @softmax
// CHECK: linalg.softmax dimension(1) ins(%{{.+}} : tensor<2x8xf16>) outs(%{{.+}} : tensor<2x8xf16>) -> tensor<2x8xf16>
func.func @softmax(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = linalg.softmax dimension(1) ins(%a : tensor<2x8xf32>) outs(%a : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// math.exp converts when forced; the conversion itself is mechanical.
// CHECK-LABEL: func.func @exp
// CHECK: math.exp %{{.+}} : vector<4xf16>
func.func @exp(%a: vector<4xf32>) -> vector<4xf32> {
  %0 = math.exp %a : vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// An op without a model whose result is a memref: retyping it would leave
// users no cast to reconcile them, so the generic rewrite declines.
// CHECK-LABEL: func.func @memref_result
// CHECK: "test.to_buffer"(%{{.+}}) : (tensor<4xf32>) -> memref<4xf32>
func.func @memref_result(%a: tensor<4xf32>) -> memref<4xf32> {
  // expected-remark @+1 {{amp: not converted to 'f16'}}
  %m = "test.to_buffer"(%a) : (tensor<4xf32>) -> memref<4xf32>
  return %m : memref<4xf32>
}

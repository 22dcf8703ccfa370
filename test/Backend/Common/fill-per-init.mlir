// amp-fill-per-init gives every destination that starts as a constant fill
// shared with other users a fill of its own, so that One-Shot Bufferize
// writes each op in place instead of copying the filled buffer.
// RUN: amp-opt %s -split-input-file --amp-fill-per-init | FileCheck %s
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-fill-per-init),one-shot-bufferize{bufferize-function-boundaries})' | FileCheck %s --check-prefix=BUF
// RUN: amp-opt %s -split-input-file -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries})' | FileCheck %s --check-prefix=SHARED

// Two matmuls from one zero fill (what CSE makes of two): the first keeps
// it, the second gets its own, right before it.
// CHECK-LABEL: func.func @two_matmuls
// CHECK:         %[[ZERO:.+]] = arith.constant 0.0
// CHECK:         %[[E1:.+]] = tensor.empty() : tensor<4x16xf32>
// CHECK:         %[[F1:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E1]] : tensor<4x16xf32>)
// CHECK:         linalg.matmul {{.+}} outs(%[[F1]] : tensor<4x16xf32>)
// CHECK:         %[[E2:.+]] = tensor.empty() : tensor<4x16xf32>
// CHECK:         %[[F2:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E2]] : tensor<4x16xf32>)
// CHECK:         linalg.matmul {{.+}} outs(%[[F2]] : tensor<4x16xf32>)
// BUF-LABEL:   func.func @two_matmuls
// BUF-NOT:       memref.copy
// SHARED-LABEL: func.func @two_matmuls
// SHARED:        memref.copy
func.func @two_matmuls(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %n = linalg.matmul ins(%a, %c : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m, %n : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// A generalized fill (a generic without inputs yielding a value from above)
// is cloned as a generic; a reshape of a fill becomes a fill of the
// reshaped type, and the fill and reshape left without users are erased.
// CHECK-LABEL: func.func @generic_and_reshape
// CHECK:         %[[ONE:.+]] = arith.constant 1.0
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[E1:.+]] = tensor.empty() : tensor<2x2x16xf32>
// CHECK:         %[[F1:.+]] = linalg.generic {{.+}} outs(%[[E1]] : tensor<2x2x16xf32>)
// CHECK-NEXT:    ^bb0(%{{.+}}: f32):
// CHECK-NEXT:      linalg.yield %[[ONE]] : f32
// CHECK:         linalg.generic {{.+}} outs(%[[F1]] : tensor<2x2x16xf32>)
// CHECK:         %[[E2:.+]] = tensor.empty() : tensor<4x16xf32>
// CHECK:         %[[F2:.+]] = linalg.generic {{.+}} outs(%[[E2]] : tensor<4x16xf32>)
// CHECK:         linalg.generic {{.+}} outs(%[[F2]] : tensor<4x16xf32>)
// CHECK-NOT:     tensor.expand_shape
// BUF-LABEL:   func.func @generic_and_reshape
// BUF-NOT:       memref.copy
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @generic_and_reshape(%a: tensor<2x2x16xf32>, %b: tensor<4x16xf32>) -> (tensor<2x2x16xf32>, tensor<4x16xf32>) {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x16xf32>) {
  ^bb0(%out: f32):
    linalg.yield %one : f32
  } -> tensor<4x16xf32>
  %r = tensor.expand_shape %f [[0, 1], [2]] output_shape [2, 2, 16] : tensor<4x16xf32> into tensor<2x2x16xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<2x2x16xf32>) outs(%r : tensor<2x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<2x2x16xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x16xf32>) outs(%f : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %x, %y : tensor<2x2x16xf32>, tensor<4x16xf32>
}

// -----

// A fill that is also read (as an input) stays with its readers: every
// destination gets its own, so none is written where it is still read.
// CHECK-LABEL: func.func @also_read
// CHECK:         %[[F:.+]] = linalg.fill
// CHECK:         %[[OWN:.+]] = linalg.fill
// CHECK:         linalg.add ins(%{{.+}}, %[[F]] : {{.+}}) outs(%[[OWN]] : tensor<8xf32>)
// BUF-LABEL:   func.func @also_read
// BUF-NOT:       memref.copy
func.func @also_read(%a: tensor<8xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.add ins(%a, %f : tensor<8xf32>, tensor<8xf32>) outs(%f : tensor<8xf32>) -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// Left alone: a fill with one destination user, a fill of a tensor that is
// not a tensor.empty, and dynamic shapes.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: linalg.fill
// CHECK-NOT:     linalg.fill
func.func @left_alone(%a: tensor<8xf32>, %d: tensor<?xf32>, %n: index) -> (tensor<8xf32>, tensor<8xf32>, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.add ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%f : tensor<8xf32>) -> tensor<8xf32>
  %g = linalg.fill ins(%zero : f32) outs(%a : tensor<8xf32>) -> tensor<8xf32>
  %t = linalg.add ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%g : tensor<8xf32>) -> tensor<8xf32>
  %u = linalg.add ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%g : tensor<8xf32>) -> tensor<8xf32>
  %v = linalg.add ins(%t, %u : tensor<8xf32>, tensor<8xf32>) outs(%t : tensor<8xf32>) -> tensor<8xf32>
  %ed = tensor.empty(%n) : tensor<?xf32>
  %fd = linalg.fill ins(%zero : f32) outs(%ed : tensor<?xf32>) -> tensor<?xf32>
  %w = linalg.add ins(%d, %d : tensor<?xf32>, tensor<?xf32>) outs(%fd : tensor<?xf32>) -> tensor<?xf32>
  %x = linalg.add ins(%d, %d : tensor<?xf32>, tensor<?xf32>) outs(%fd : tensor<?xf32>) -> tensor<?xf32>
  %y = linalg.add ins(%w, %x : tensor<?xf32>, tensor<?xf32>) outs(%w : tensor<?xf32>) -> tensor<?xf32>
  return %s, %v, %y : tensor<8xf32>, tensor<8xf32>, tensor<?xf32>
}

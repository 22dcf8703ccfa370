// amp-concat-in-place computes the pieces of a concatenation in its buffer:
// each piece is inserted right after the op that computes it, and an
// elementwise producer gets its slice of the concatenation as destination.
// RUN: amp-opt %s -split-input-file --amp-concat-in-place | FileCheck %s
// A second run changes nothing.
// RUN: amp-opt %s -split-input-file --amp-concat-in-place -o %t.once
// RUN: amp-opt %t.once -split-input-file --amp-concat-in-place -o %t.twice
// RUN: diff %t.once %t.twice

#id = affine_map<(i, j, k) -> (i, j, k)>

// A skip connection %a, computed (and read by @use) before the piece %b
// and before the concatenation's tensor.empty, then the concatenation
// padded through a collapse of its unit dimension: the padded tensor is
// made before %a, its border filled, and each piece computed in its slice
// (at the low padding plus its offset) and inserted after its producer.
// CHECK-LABEL: func.func @padded_skip_connection
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<10x10x8xf32>
// CHECK-COUNT-4: linalg.fill ins(%[[ZERO]] : f32)
// CHECK:         %[[BORDER:.+]] = tensor.insert_slice {{.+}}[0, 9, 0] [10, 1, 8]
// CHECK-NEXT:    %[[SA:.+]] = tensor.extract_slice %[[BORDER]][1, 1, 4] [8, 8, 4] [1, 1, 1]
// CHECK-NEXT:    %[[A:.+]] = linalg.generic {{.+}} ins(%arg0 : tensor<8x8x4xf32>) outs(%[[SA]] : tensor<8x8x4xf32>)
// CHECK:         %[[C1:.+]] = tensor.insert_slice %[[A]] into %[[BORDER]][1, 1, 4] [8, 8, 4] [1, 1, 1]
// CHECK:         %[[USE:.+]] = call @use(%[[A]])
// CHECK-NEXT:    %[[SB:.+]] = tensor.extract_slice %[[C1]][1, 1, 0] [8, 8, 4] [1, 1, 1]
// CHECK-NEXT:    %[[B:.+]] = linalg.generic {{.+}} ins(%arg1 : tensor<8x8x4xf32>) outs(%[[SB]] : tensor<8x8x4xf32>)
// CHECK:         %[[C2:.+]] = tensor.insert_slice %[[B]] into %[[C1]][1, 1, 0] [8, 8, 4] [1, 1, 1]
// CHECK-NEXT:    return %[[C2]], %[[USE]]
func.func private @use(tensor<8x8x4xf32>) -> tensor<8x8x4xf32>
func.func @padded_skip_connection(%x: tensor<8x8x4xf32>, %y: tensor<8x8x4xf32>) -> (tensor<10x10x8xf32>, tensor<8x8x4xf32>) {
  %z = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<8x8x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<8x8x4xf32>) outs(%ea : tensor<8x8x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %z : f32
    linalg.yield %r : f32
  } -> tensor<8x8x4xf32>
  %use = func.call @use(%a) : (tensor<8x8x4xf32>) -> tensor<8x8x4xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y : tensor<8x8x4xf32>) outs(%ea : tensor<8x8x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<8x8x4xf32>
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %i1 = tensor.insert_slice %b into %e[0, 0, 0, 0] [1, 8, 8, 4] [1, 1, 1, 1] : tensor<8x8x4xf32> into tensor<1x8x8x8xf32>
  %i2 = tensor.insert_slice %a into %i1[0, 0, 0, 4] [1, 8, 8, 4] [1, 1, 1, 1] : tensor<8x8x4xf32> into tensor<1x8x8x8xf32>
  %c = tensor.collapse_shape %i2 [[0, 1], [2], [3]] : tensor<1x8x8x8xf32> into tensor<8x8x8xf32>
  %p = tensor.pad %c low[1, 1, 0] high[1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %z : f32
  } : tensor<8x8x8xf32> to tensor<10x10x8xf32>
  return %p, %use : tensor<10x10x8xf32>, tensor<8x8x4xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Without padding: the concatenation's tensor.empty moves before the first
// piece. A function argument is inserted first (a copy, as before); a
// matmul reads its destination, so it keeps its own and its result is
// inserted (copied) right after it; the scaling is computed in its slice.
// CHECK-LABEL: func.func @concat
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<4x24xf32>
// CHECK-NEXT:    %[[C0:.+]] = tensor.insert_slice %arg0 into %[[E]][0, 16] [4, 8] [1, 1]
// CHECK:         %[[M:.+]] = linalg.matmul {{.+}} outs(%{{.+}} : tensor<4x8xf32>)
// CHECK-NEXT:    %[[C1:.+]] = tensor.insert_slice %[[M]] into %[[C0]][0, 8] [4, 8] [1, 1]
// CHECK-NEXT:    %[[S:.+]] = tensor.extract_slice %[[C1]][0, 0] [4, 8] [1, 1]
// CHECK-NEXT:    %[[H:.+]] = linalg.generic {{.+}} outs(%[[S]] : tensor<4x8xf32>)
// CHECK:         %[[C2:.+]] = tensor.insert_slice %[[H]] into %[[C1]][0, 0] [4, 8] [1, 1]
// CHECK-NEXT:    return %[[C2]]
func.func @concat(%x: tensor<4x8xf32>, %m: tensor<4x4xf32>, %n: tensor<4x8xf32>) -> tensor<4x24xf32> {
  %z = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e8 = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e8 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mm = linalg.matmul ins(%m, %n : tensor<4x4xf32>, tensor<4x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<4x8xf32>) outs(%e8 : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %half : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x24xf32>
  %i0 = tensor.insert_slice %h into %e[0, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<4x24xf32>
  %i1 = tensor.insert_slice %mm into %i0[0, 8] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<4x24xf32>
  %i2 = tensor.insert_slice %x into %i1[0, 16] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<4x24xf32>
  return %i2 : tensor<4x24xf32>
}

// -----

// Slices that overlap are not a concatenation (the later insertion wins):
// left as they are.
// CHECK-LABEL: func.func @overlapping
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<4x12xf32>
// CHECK-NEXT:    %[[I0:.+]] = tensor.insert_slice %arg0 into %[[E]][0, 0] [4, 8]
// CHECK-NEXT:    tensor.insert_slice %arg1 into %[[I0]][0, 4] [4, 8]
func.func @overlapping(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x12xf32> {
  %e = tensor.empty() : tensor<4x12xf32>
  %i0 = tensor.insert_slice %x into %e[0, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<4x12xf32>
  %i1 = tensor.insert_slice %y into %i0[0, 4] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<4x12xf32>
  return %i1 : tensor<4x12xf32>
}

// -----

#id = affine_map<(i) -> (i)>

// A piece of two concatenations: computed in neither (each inserts a copy),
// and the pass stops.
// CHECK-LABEL: func.func @shared_piece
// CHECK:         %[[P:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<4xf32>)
// CHECK:         tensor.insert_slice %[[P]] into %{{.+}}[0] [4] [1]
// CHECK:         tensor.insert_slice %[[P]] into %{{.+}}[0] [4] [1]
func.func @shared_piece(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e4 = tensor.empty() : tensor<4xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e4 : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %ea = tensor.empty() : tensor<8xf32>
  %a0 = tensor.insert_slice %p into %ea[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %a1 = tensor.insert_slice %y into %a0[4] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %eb = tensor.empty() : tensor<8xf32>
  %b0 = tensor.insert_slice %p into %eb[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %b1 = tensor.insert_slice %z into %b0[4] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %a1, %b1 : tensor<8xf32>, tensor<8xf32>
}

// -----

#id = affine_map<(i) -> (i)>

// Two results of one op: only the first piece it computes may take a
// slice as destination, and that one reads its own (a running sum), so
// nothing is computed in place and the concatenation stays as it is.
// CHECK-LABEL: func.func @two_results
// CHECK:         %[[R:.+]]:2 = linalg.generic {{.+}} outs(%arg1, %{{.+}} : tensor<4xf32>, tensor<4xf32>)
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT:    %[[I0:.+]] = tensor.insert_slice %[[R]]#0 into %[[E]][0] [4] [1]
// CHECK-NEXT:    tensor.insert_slice %[[R]]#1 into %[[I0]][4] [4] [1]
func.func @two_results(%x: tensor<4xf32>, %acc: tensor<4xf32>) -> tensor<8xf32> {
  %e4 = tensor.empty() : tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%acc, %e4 : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%v: f32, %o0: f32, %o1: f32):
    %s = arith.addf %v, %o0 : f32
    linalg.yield %s, %v : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  %e = tensor.empty() : tensor<8xf32>
  %i0 = tensor.insert_slice %r#0 into %e[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %i1 = tensor.insert_slice %r#1 into %i0[4] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %i1 : tensor<8xf32>
}

// -----

// A chain whose links lie in two blocks (one inside a loop) is not
// rebuilt.
// CHECK-LABEL: func.func @chain_across_blocks
// CHECK:         tensor.insert_slice %arg0 into %{{.+}}[0] [4] [1]
// CHECK:         scf.for
// CHECK:           tensor.insert_slice %{{.+}} into %{{.+}}[4] [4] [1]
// CHECK-NEXT:      tensor.pad
func.func private @f(tensor<10xf32>) -> tensor<4xf32>
func.func @chain_across_blocks(%x: tensor<4xf32>, %t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<8xf32>
  %i0 = tensor.insert_slice %x into %e[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %r = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %t) -> (tensor<4xf32>) {
    %i1 = tensor.insert_slice %acc into %i0[4] [4] [1] : tensor<4xf32> into tensor<8xf32>
    %p = tensor.pad %i1 low[1] high[1] {
    ^bb0(%i: index):
      tensor.yield %zero : f32
    } : tensor<8xf32> to tensor<10xf32>
    %v = func.call @f(%p) : (tensor<10xf32>) -> tensor<4xf32>
    scf.yield %v : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// The same padded: the pad becomes the concatenation into the padded
// tensor, each result inserted after the op, neither computed in its slice.
// CHECK-LABEL: func.func @two_results_padded
// CHECK:         %[[R:.+]]:2 = linalg.generic {{.+}} outs(%arg1, %{{.+}} : tensor<4xf32>, tensor<4xf32>)
// CHECK:         %[[I0:.+]] = tensor.insert_slice %[[R]]#0 into %{{.+}}[1] [4] [1]
// CHECK-NEXT:    tensor.insert_slice %[[R]]#1 into %[[I0]][5] [4] [1]
#id = affine_map<(i) -> (i)>
func.func @two_results_padded(%x: tensor<4xf32>, %acc: tensor<4xf32>) -> tensor<10xf32> {
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%acc, %e4 : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%v: f32, %o0: f32, %o1: f32):
    %s = arith.addf %v, %o0 : f32
    linalg.yield %s, %v : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  %e = tensor.empty() : tensor<8xf32>
  %i0 = tensor.insert_slice %r#0 into %e[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %i1 = tensor.insert_slice %r#1 into %i0[4] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %p = tensor.pad %i1 low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<8xf32> to tensor<10xf32>
  return %p : tensor<10xf32>
}

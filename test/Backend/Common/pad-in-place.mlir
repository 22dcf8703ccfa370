// amp-pad-in-place fills only the border of a padded tensor; the
// elementwise op that computes the interior writes straight into it.
// RUN: amp-opt %s -split-input-file --amp-pad-in-place | FileCheck %s
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-pad-in-place),one-shot-bufferize{bufferize-function-boundaries},func.func(cse,canonicalize))' | FileCheck %s --check-prefix=BUF

// A ReLU padded by 1 row above and 1 column on each side: three border
// slabs are filled, the ReLU's destination is the interior, and the pad
// is an insertion of the ReLU's result where it already is.
// CHECK-LABEL: func.func @producer_in_place
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<2x5x6x8xf32>
// CHECK:         %[[S0:.+]] = tensor.extract_slice %[[E]][0, 0, 0, 0] [2, 1, 6, 8] [1, 1, 1, 1]
// CHECK:         %[[F0:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[S0]] : tensor<2x1x6x8xf32>)
// CHECK:         %[[P0:.+]] = tensor.insert_slice %[[F0]] into %[[E]][0, 0, 0, 0] [2, 1, 6, 8] [1, 1, 1, 1]
// CHECK:         tensor.extract_slice %[[P0]][0, 0, 0, 0] [2, 5, 1, 8]
// CHECK:         %[[P1:.+]] = tensor.insert_slice {{.+}}[0, 0, 0, 0] [2, 5, 1, 8] [1, 1, 1, 1]
// CHECK:         tensor.extract_slice %[[P1]][0, 0, 5, 0] [2, 5, 1, 8]
// CHECK:         %[[P2:.+]] = tensor.insert_slice {{.+}}[0, 0, 5, 0] [2, 5, 1, 8] [1, 1, 1, 1]
// CHECK:         %[[IN:.+]] = tensor.extract_slice %[[P2]][0, 1, 1, 0] [2, 4, 4, 8] [1, 1, 1, 1]
// CHECK:         %[[R:.+]] = linalg.generic {{.+}} ins(%arg0 : tensor<2x4x4x8xf32>) outs(%[[IN]] : tensor<2x4x4x8xf32>)
// CHECK:         %[[PAD:.+]] = tensor.insert_slice %[[R]] into %[[P2]][0, 1, 1, 0] [2, 4, 4, 8] [1, 1, 1, 1]
// CHECK:         return %[[PAD]]
// After bufferization: one buffer, the border written by three fills, the
// ReLU writing the interior, and no copy.
// BUF-LABEL:   func.func @producer_in_place
// BUF:           %[[A:.+]] = memref.alloc() {{.+}} : memref<2x5x6x8xf32>
// BUF-COUNT-3:   linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<2x{{[15]}}x{{[16]}}x8xf32, strided<[240, 48, 8, 1]{{.*}}>>)
// BUF:           %[[IN:.+]] = memref.subview %[[A]][0, 1, 1, 0] [2, 4, 4, 8] [1, 1, 1, 1]
// BUF:           linalg.generic {{.+}} outs(%[[IN]] :
// BUF-NOT:       memref.copy
// BUF:           return %[[A]]
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @producer_in_place(%x: tensor<2x4x4x8xf32>) -> tensor<2x5x6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x4x8xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x4x4x8xf32>) outs(%e : tensor<2x4x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4x8xf32>
  %padded = tensor.pad %relu low[0, 1, 1, 0] high[0, 0, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x4x4x8xf32> to tensor<2x5x6x8xf32>
  return %padded : tensor<2x5x6x8xf32>
}

// -----

// A source that is not an elementwise result of its own (an argument, a
// sum that reads its destination, a result with another use) is copied
// into the interior; only the border is filled.
// CHECK-LABEL: func.func @source_copied
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<6xf32>
// CHECK:         linalg.fill {{.+}} -> tensor<2xf32>
// CHECK:         linalg.fill {{.+}} -> tensor<1xf32>
// CHECK:         tensor.insert_slice %arg0 into %{{.+}}[2] [3] [1]
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%arg1 : tensor<3xf32>)
// CHECK:         tensor.insert_slice %{{.+}} into %{{.+}}[2] [3] [1]
// CHECK:         %[[T:.+]] = linalg.generic
// CHECK-SAME:      outs(%{{.+}} : tensor<3xf32>)
// CHECK:         tensor.insert_slice %[[T]] into %{{.+}}[1] [3] [1]
// BUF-LABEL:   func.func @source_copied
// BUF-COUNT-3:   memref.copy
// BUF-NOT:       memref.copy
#v = affine_map<(i) -> (i)>
func.func @source_copied(%x: tensor<3xf32>, %acc: tensor<3xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<4xf32>, tensor<3xf32>) {
  %one = arith.constant 1.0 : f32
  %p0 = tensor.pad %x low[2] high[1] {
  ^bb0(%i: index):
    tensor.yield %one : f32
  } : tensor<3xf32> to tensor<6xf32>
  %sum = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%x : tensor<3xf32>) outs(%acc : tensor<3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  %p1 = tensor.pad %sum low[2] high[1] {
  ^bb0(%i: index):
    tensor.yield %one : f32
  } : tensor<3xf32> to tensor<6xf32>
  %e = tensor.empty() : tensor<3xf32>
  %twice = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%x : tensor<3xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  %p2 = tensor.pad %twice low[1] high[0] {
  ^bb0(%i: index):
    tensor.yield %one : f32
  } : tensor<3xf32> to tensor<4xf32>
  return %p0, %p1, %p2, %twice : tensor<6xf32>, tensor<6xf32>, tensor<4xf32>, tensor<3xf32>
}

// -----

// Not rewritten: a padding value computed from the indices, and dynamic
// padding.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: tensor.pad
// BUF-LABEL:    func.func @kept
func.func @kept(%x: tensor<3xf32>, %n: index) -> (tensor<5xf32>, tensor<?xf32>) {
  %one = arith.constant 1.0 : f32
  %p0 = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    tensor.yield %f : f32
  } : tensor<3xf32> to tensor<5xf32>
  %p1 = tensor.pad %x low[%n] high[0] {
  ^bb0(%i: index):
    tensor.yield %one : f32
  } : tensor<3xf32> to tensor<?xf32>
  return %p0, %p1 : tensor<5xf32>, tensor<?xf32>
}

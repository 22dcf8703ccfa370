// amp-fuse-elementwise fuses an elementwise producer (here the casts that
// mixed-precision makes) into its only consumer, except into a consumer
// that reduces and reads it through a map that is not a permutation of its
// loops, which would evaluate it once per iteration of the loops the map
// ignores (a matmul's cast of A once per column of B).
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-fuse-elementwise))' | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
// The casts of a matmul's operands stay kernels of their own, written once
// in f16; the matmul reads f16.
// CHECK-LABEL: func.func @matmul_operands
// CHECK:         %[[A:.+]] = linalg.generic {{.+}} ins(%{{.+}} : tensor<8x64xf32>) outs(%{{.+}} : tensor<8x64xf16>)
// CHECK:           arith.truncf
// CHECK:         %[[B:.+]] = linalg.generic {{.+}} ins(%{{.+}} : tensor<64x32xf32>) outs(%{{.+}} : tensor<64x32xf16>)
// CHECK:           arith.truncf
// CHECK:         linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%[[A]], %[[B]] : tensor<8x64xf16>, tensor<64x32xf16>)
// CHECK-NOT:       arith.truncf
// The cast of its result (an elementwise consumer) does fuse: it reads the
// matmul once per element.
// CHECK:         %[[R:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<8x32xf16>)
// CHECK:           arith.truncf
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
func.func @matmul_operands(%a: tensor<8x64xf32>, %b: tensor<64x32xf32>, %acc: tensor<8x32xf32>) -> tensor<8x32xf16> {
  %ea = tensor.empty() : tensor<8x64xf16>
  %a16 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x64xf32>) outs(%ea : tensor<8x64xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<8x64xf16>
  %eb = tensor.empty() : tensor<64x32xf16>
  %b16 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<64x32xf32>) outs(%eb : tensor<64x32xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x32xf16>
  %m = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a16, %b16 : tensor<8x64xf16>, tensor<64x32xf16>) outs(%acc : tensor<8x32xf32>) {
  ^bb0(%x: f16, %y: f16, %s: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  %er = tensor.empty() : tensor<8x32xf16>
  %r16 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<8x32xf32>) outs(%er : tensor<8x32xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<8x32xf16>
  return %r16 : tensor<8x32xf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// A reduction that reads each element once (an identity map): the cast
// fuses into it.
// CHECK-LABEL: func.func @row_sum_operand
// CHECK:         linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]{{.*}} ins(%{{.+}} : tensor<4x64xf16>)
// CHECK:           arith.extf
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
func.func @row_sum_operand(%x: tensor<4x64xf16>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %x32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf16>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%v: f16, %o: f32):
    %t = arith.extf %v : f16 to f32
    linalg.yield %t : f32
  } -> tensor<4x64xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x32 : tensor<4x64xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// An elementwise consumer that broadcasts its operand (a bias) evaluates
// the fused cast once per output element at most: it fuses.
// CHECK-LABEL: func.func @broadcast_operand
// CHECK:         linalg.generic
// CHECK:           arith.extf
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
func.func @broadcast_operand(%x: tensor<4x64xf32>, %bias: tensor<64xf16>) -> tensor<4x64xf32> {
  %e1 = tensor.empty() : tensor<64xf32>
  %b32 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%bias : tensor<64xf16>) outs(%e1 : tensor<64xf32>) {
  ^bb0(%v: f16, %o: f32):
    %t = arith.extf %v : f16 to f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %e = tensor.empty() : tensor<4x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b32 : tensor<4x64xf32>, tensor<64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

// -----

// A reshape that splits the innermost dimension of a matmul's result (96
// columns as 3 x 4 x 8, the heads of an attention) is not folded into the
// matmul: its kernel would run on vectors of 8 lanes instead of 16. It
// stays a view of the result. A reshape of the outer dimensions is folded.
// CHECK-LABEL: func.func @matmul_columns_kept
// CHECK:         %[[M:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<64x96xf32>)
// CHECK:         tensor.expand_shape %[[M]] {{\[}}[0], [1, 2, 3]] output_shape [64, 3, 4, 8]
// CHECK-LABEL: func.func @matmul_rows_folded
// CHECK:         %[[R:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<8x8x96xf32>)
// CHECK-NEXT:    ^bb0
// CHECK:         return %[[R]]
#mk = affine_map<(i, j, k) -> (i, k)>
#kn = affine_map<(i, j, k) -> (k, j)>
#mn = affine_map<(i, j, k) -> (i, j)>
func.func @matmul_columns_kept(%a: tensor<64x32xf32>, %b: tensor<32x96xf32>, %acc: tensor<64x96xf32>) -> tensor<64x3x4x8xf32> {
  %m = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x32xf32>, tensor<32x96xf32>) outs(%acc : tensor<64x96xf32>) {
  ^bb0(%x: f32, %y: f32, %s: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  } -> tensor<64x96xf32>
  %e = tensor.expand_shape %m [[0], [1, 2, 3]] output_shape [64, 3, 4, 8] : tensor<64x96xf32> into tensor<64x3x4x8xf32>
  return %e : tensor<64x3x4x8xf32>
}
func.func @matmul_rows_folded(%a: tensor<64x32xf32>, %b: tensor<32x96xf32>, %acc: tensor<64x96xf32>) -> tensor<8x8x96xf32> {
  %m = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x32xf32>, tensor<32x96xf32>) outs(%acc : tensor<64x96xf32>) {
  ^bb0(%x: f32, %y: f32, %s: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  } -> tensor<64x96xf32>
  %e = tensor.expand_shape %m [[0, 1], [2]] output_shape [8, 8, 96] : tensor<64x96xf32> into tensor<8x8x96xf32>
  return %e : tensor<8x8x96xf32>
}

// -----

// A transpose of a concatenation (NCHW pieces concatenated along channels,
// then read in NHWC) becomes the concatenation of the transposed pieces,
// and each piece's transpose fuses into the op that computes it: the
// producers write the new layout directly and no transpose is left. A
// piece inserted without its unit dimension keeps it dropped.
// CHECK-DAG:   #[[$CHW:.+]] = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
// CHECK-DAG:   #[[$ID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @transposed_concatenation
// CHECK-DAG:     %[[E0:.+]] = tensor.empty() : tensor<4x6x3xf32>
// CHECK-DAG:     %[[E1:.+]] = tensor.empty() : tensor<4x6x2xf32>
// CHECK:         %[[P1:.+]] = linalg.generic {indexing_maps = [#[[$CHW]], #[[$ID3]]], {{.+}} ins(%arg0 : tensor<2x4x6xf32>) outs(%[[E1]] : tensor<4x6x2xf32>)
// CHECK:           arith.negf
// CHECK:         %[[I1:.+]] = tensor.insert_slice %[[P1]] into %[[E0]][0, 0, 0] [4, 6, 2] [1, 1, 1] : tensor<4x6x2xf32> into tensor<4x6x3xf32>
// CHECK:         %[[E2:.+]] = tensor.empty() : tensor<4x6xf32>
// CHECK:         %[[P2:.+]] = linalg.generic {{.+}} ins(%arg1 : tensor<4x6xf32>) outs(%[[E2]] : tensor<4x6xf32>)
// CHECK:           math.exp
// CHECK:         %[[I2:.+]] = tensor.insert_slice %[[P2]] into %[[I1]][0, 0, 2] [4, 6, 1] [1, 1, 1] : tensor<4x6xf32> into tensor<4x6x3xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[I2]]
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#hwc = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
func.func @transposed_concatenation(%x: tensor<2x4x6xf32>, %y: tensor<4x6xf32>) -> tensor<4x6x3xf32> {
  %e1 = tensor.empty() : tensor<2x4x6xf32>
  %p1 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x4x6xf32>) outs(%e1 : tensor<2x4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<2x4x6xf32>
  %e2 = tensor.empty() : tensor<4x6xf32>
  %p2 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<4x6xf32>) outs(%e2 : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<4x6xf32>
  %ec = tensor.empty() : tensor<3x4x6xf32>
  %c1 = tensor.insert_slice %p1 into %ec[0, 0, 0] [2, 4, 6] [1, 1, 1] : tensor<2x4x6xf32> into tensor<3x4x6xf32>
  %c2 = tensor.insert_slice %p2 into %c1[2, 0, 0] [1, 4, 6] [1, 1, 1] : tensor<4x6xf32> into tensor<3x4x6xf32>
  %et = tensor.empty() : tensor<4x6x3xf32>
  %t = linalg.generic {indexing_maps = [#hwc, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c2 : tensor<3x4x6xf32>) outs(%et : tensor<4x6x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x6x3xf32>
  return %t : tensor<4x6x3xf32>
}

// -----

// A concatenation used by more than the transpose stays as it is.
// CHECK-LABEL: func.func @concatenation_kept
// CHECK:         %[[C:.+]] = tensor.insert_slice %arg1 into
// CHECK:         %[[T:.+]] = linalg.generic {{.+}} ins(%[[C]] : tensor<3x4x6xf32>)
// CHECK:         return %[[T]], %[[C]]
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#hwc = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
func.func @concatenation_kept(%x: tensor<2x4x6xf32>, %y: tensor<1x4x6xf32>) -> (tensor<4x6x3xf32>, tensor<3x4x6xf32>) {
  %ec = tensor.empty() : tensor<3x4x6xf32>
  %c1 = tensor.insert_slice %x into %ec[0, 0, 0] [2, 4, 6] [1, 1, 1] : tensor<2x4x6xf32> into tensor<3x4x6xf32>
  %c2 = tensor.insert_slice %y into %c1[2, 0, 0] [1, 4, 6] [1, 1, 1] : tensor<1x4x6xf32> into tensor<3x4x6xf32>
  %et = tensor.empty() : tensor<4x6x3xf32>
  %t = linalg.generic {indexing_maps = [#hwc, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c2 : tensor<3x4x6xf32>) outs(%et : tensor<4x6x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x6x3xf32>
  return %t, %c2 : tensor<4x6x3xf32>, tensor<3x4x6xf32>
}

// -----

// A transpose whose body reads its loop indices stays one op: in a piece
// of its own, the indices would be the piece's.
// CHECK-LABEL: func.func @indexed_transpose_kept
// CHECK:         %[[C:.+]] = tensor.insert_slice %arg1 into
// CHECK:         %[[T:.+]] = linalg.generic {{.+}} ins(%[[C]] : tensor<3x4x6xf32>)
// CHECK:           linalg.index 2
// CHECK:         return %[[T]]
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#hwc = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
func.func @indexed_transpose_kept(%x: tensor<2x4x6xf32>, %y: tensor<1x4x6xf32>) -> tensor<4x6x3xf32> {
  %ec = tensor.empty() : tensor<3x4x6xf32>
  %c1 = tensor.insert_slice %x into %ec[0, 0, 0] [2, 4, 6] [1, 1, 1] : tensor<2x4x6xf32> into tensor<3x4x6xf32>
  %c2 = tensor.insert_slice %y into %c1[2, 0, 0] [1, 4, 6] [1, 1, 1] : tensor<1x4x6xf32> into tensor<3x4x6xf32>
  %et = tensor.empty() : tensor<4x6x3xf32>
  %t = linalg.generic {indexing_maps = [#hwc, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c2 : tensor<3x4x6xf32>) outs(%et : tensor<4x6x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 2 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %s = arith.addf %in, %f : f32
    linalg.yield %s : f32
  } -> tensor<4x6x3xf32>
  return %t : tensor<4x6x3xf32>
}

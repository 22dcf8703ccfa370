// RUN: amp-opt %s --split-input-file --amp-fold-casts | FileCheck %s
// The same patterns are amp's canonicalization patterns: any pipeline that
// loads amp folds casts in its ordinary --canonicalize.
// RUN: amp-opt %s --split-input-file --canonicalize | FileCheck %s --check-prefix=CANON

// An exact round trip disappears (upstream folder).
// CHECK-LABEL: func.func @trunc_of_ext
// CHECK-SAME: (%[[X:.+]]: tensor<4xf16>)
// CHECK-NEXT: return %[[X]]
func.func @trunc_of_ext(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = arith.extf %x : tensor<4xf16> to tensor<4xf32>
  %1 = arith.truncf %0 : tensor<4xf32> to tensor<4xf16>
  return %1 : tensor<4xf16>
}

// -----

// Widening twice is widening once.
// CHECK-LABEL: func.func @ext_of_ext
// CHECK-NEXT: %[[E:.+]] = arith.extf %{{.+}} : tensor<4xf16> to tensor<4xf64>
// CHECK-NEXT: return %[[E]]
func.func @ext_of_ext(%x: tensor<4xf16>) -> tensor<4xf64> {
  %0 = arith.extf %x : tensor<4xf16> to tensor<4xf32>
  %1 = arith.extf %0 : tensor<4xf32> to tensor<4xf64>
  return %1 : tensor<4xf64>
}

// -----

// Casts of constants fold at compile time, rounded as the cast rounds them
// (0.1 to its nearest f16, 70000 to inf, exactly what the cast computes).
// CHECK-LABEL: func.func @constants
// CHECK-DAG: arith.constant dense<[9.997550e-02, 1.000000e+00, 0x7C00]> : tensor<3xf16>
// CHECK-DAG: arith.constant dense<[0.100097656, 2.500000e+00, 1.000000e+00]> : tensor<3xf32>
// CHECK-DAG: arith.constant 3.140630e+00 : bf16
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.extf
func.func @constants() -> (tensor<3xf16>, tensor<3xf32>, bf16) {
  %c = arith.constant dense<[0.1, 1.0, 70000.0]> : tensor<3xf32>
  %0 = arith.truncf %c : tensor<3xf32> to tensor<3xf16>
  %h = arith.constant dense<[0.1001, 2.5, 1.0]> : tensor<3xf16>
  %1 = arith.extf %h : tensor<3xf16> to tensor<3xf32>
  %s = arith.constant 3.14159 : f32
  %2 = arith.truncf %s : f32 to bf16
  return %0, %1, %2 : tensor<3xf16>, tensor<3xf32>, bf16
}

// -----

// Identical casts of one value are merged.
// CHECK-LABEL: func.func @identical
// CHECK: %[[T:.+]] = arith.truncf %{{.+}} : tensor<4xf32> to tensor<4xf16>
// CHECK-NOT: arith.truncf
// CHECK: arith.addf %[[T]], %[[T]]
func.func @identical(%x: tensor<4xf32>) -> tensor<4xf16> {
  %0 = arith.truncf %x : tensor<4xf32> to tensor<4xf16>
  %1 = arith.truncf %x : tensor<4xf32> to tensor<4xf16>
  %2 = arith.addf %0, %1 : tensor<4xf16>
  return %2 : tensor<4xf16>
}

// -----

// A cast moves to the smaller side of data movement: the slice and the
// element are cast, not the whole tensor.
// CHECK-LABEL: func.func @slice_then_cast
// CHECK-SAME: (%[[X:.+]]: tensor<64x64xf32>, %[[Y:.+]]: tensor<64x64xf32>, %[[I:.+]]: index)
// CHECK-NOT: tensor<64x64xf16>
// CHECK: %[[S:.+]] = tensor.extract_slice %[[X]][0, 0] [4, 64] [1, 1] : tensor<64x64xf32> to tensor<4x64xf32>
// CHECK: arith.truncf %[[S]] : tensor<4x64xf32> to tensor<4x64xf16>
// CHECK: %[[E:.+]] = tensor.extract %[[Y]][%[[I]], %[[I]]] : tensor<64x64xf32>
// CHECK: arith.truncf %[[E]] : f32 to f16
func.func @slice_then_cast(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>, %i: index) -> (tensor<4x64xf16>, f16) {
  %0 = arith.truncf %x : tensor<64x64xf32> to tensor<64x64xf16>
  %1 = tensor.extract_slice %0[0, 0] [4, 64] [1, 1] : tensor<64x64xf16> to tensor<4x64xf16>
  %2 = arith.truncf %y : tensor<64x64xf32> to tensor<64x64xf16>
  %3 = tensor.extract %2[%i, %i] : tensor<64x64xf16>
  return %1, %3 : tensor<4x64xf16>, f16
}

// -----

// Gathers and TOSA slices read part of a tensor too.
// CHECK-LABEL: func.func @gather_then_cast
// CHECK-SAME: (%[[T:.+]]: tensor<64x8xf32>, %[[I:.+]]: tensor<4x1xindex>, %[[U:.+]]: tensor<64x8xf32>)
// CHECK-NOT: tensor<64x8xf16>
// CHECK: %[[G:.+]] = tensor.gather %[[T]][%[[I]]] gather_dims([0]) : (tensor<64x8xf32>, tensor<4x1xindex>) -> tensor<4x8xf32>
// CHECK: arith.truncf %[[G]] : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK: %[[S:.+]] = tosa.slice %[[U]], %{{.+}}, %{{.+}} : (tensor<64x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x8xf32>
// CHECK: arith.truncf %[[S]] : tensor<2x8xf32> to tensor<2x8xf16>
func.func @gather_then_cast(%t: tensor<64x8xf32>, %i: tensor<4x1xindex>, %u: tensor<64x8xf32>) -> (tensor<4x8xf16>, tensor<2x8xf16>) {
  %0 = arith.truncf %t : tensor<64x8xf32> to tensor<64x8xf16>
  %1 = tensor.gather %0[%i] gather_dims([0]) : (tensor<64x8xf16>, tensor<4x1xindex>) -> tensor<4x8xf16>
  %2 = arith.truncf %u : tensor<64x8xf32> to tensor<64x8xf16>
  %start = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[2, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %3 = tosa.slice %2, %start, %size : (tensor<64x8xf16>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x8xf16>
  return %1, %3 : tensor<4x8xf16>, tensor<2x8xf16>
}

// -----

// A cast of a broadcast or a pad becomes a broadcast or pad of the cast.
// CHECK-LABEL: func.func @cast_before_growth
// CHECK: %[[V:.+]] = arith.extf %{{.+}} : tensor<8xf16> to tensor<8xf32>
// CHECK: linalg.broadcast ins(%[[V]] : tensor<8xf32>) outs(%{{.+}} : tensor<16x8xf32>) dimensions = [0]
// CHECK: %[[P:.+]] = arith.extf %{{.+}} : tensor<4xf16> to tensor<4xf32>
// CHECK: tensor.pad %[[P]] low[2] high[2]
// CHECK: tensor.yield %{{.+}} : f32
func.func @cast_before_growth(%v: tensor<8xf16>, %p: tensor<4xf16>) -> (tensor<16x8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<16x8xf16>
  %b = linalg.broadcast ins(%v : tensor<8xf16>) outs(%e : tensor<16x8xf16>) dimensions = [0]
  %0 = arith.extf %b : tensor<16x8xf16> to tensor<16x8xf32>
  %z = arith.constant 0.0 : f16
  %q = tensor.pad %p low[2] high[2] {
  ^bb0(%i: index):
    tensor.yield %z : f16
  } : tensor<4xf16> to tensor<8xf16>
  %1 = arith.extf %q : tensor<8xf16> to tensor<8xf32>
  return %0, %1 : tensor<16x8xf32>, tensor<8xf32>
}

// -----

// A cast pair around a reshape disappears.
// CHECK-LABEL: func.func @pair_around_reshape
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xbf16>)
// CHECK-NEXT: %[[C:.+]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1]] : tensor<4x8xbf16> into tensor<32xbf16>
// CHECK-NEXT: return %[[C]]
func.func @pair_around_reshape(%x: tensor<4x8xbf16>) -> tensor<32xbf16> {
  %0 = arith.extf %x : tensor<4x8xbf16> to tensor<4x8xf32>
  %1 = tensor.collapse_shape %0 [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %2 = arith.truncf %1 : tensor<32xf32> to tensor<32xbf16>
  return %2 : tensor<32xbf16>
}

// -----

// The same around a TOSA transpose.
// CHECK-LABEL: func.func @pair_around_transpose
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf16>)
// CHECK-NEXT: %[[T:.+]] = tosa.transpose %[[X]] {perms = array<i32: 1, 0>} : (tensor<4x8xf16>) -> tensor<8x4xf16>
// CHECK-NEXT: return %[[T]]
func.func @pair_around_transpose(%x: tensor<4x8xf16>) -> tensor<8x4xf16> {
  %0 = arith.extf %x : tensor<4x8xf16> to tensor<4x8xf32>
  %1 = tosa.transpose %0 {perms = array<i32: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %2 = arith.truncf %1 : tensor<8x4xf32> to tensor<8x4xf16>
  return %2 : tensor<8x4xf16>
}

// -----

// Correctly rounded arithmetic moves into the low type: f32 has at least
// 2p + 2 bits for f16 and bf16, so rounding the f32 result once equals
// computing in the low type. An exactly representable constant comes along.
// CHECK-LABEL: func.func @exact_arithmetic
// CHECK-SAME: (%[[A:.+]]: tensor<4xf16>, %[[B:.+]]: tensor<4xf16>)
// CHECK-DAG: %[[C:.+]] = arith.constant dense<2.500000e-01> : tensor<4xf16>
// CHECK-DAG: %[[S:.+]] = arith.addf %[[A]], %[[B]] : tensor<4xf16>
// CHECK: arith.mulf %[[S]], %[[C]] : tensor<4xf16>
// CHECK-NOT: arith.extf
func.func @exact_arithmetic(%a: tensor<4xf16>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %ea = arith.extf %a : tensor<4xf16> to tensor<4xf32>
  %eb = arith.extf %b : tensor<4xf16> to tensor<4xf32>
  %s = arith.addf %ea, %eb : tensor<4xf32>
  %ts = arith.truncf %s : tensor<4xf32> to tensor<4xf16>
  %es = arith.extf %ts : tensor<4xf16> to tensor<4xf32>
  %q = arith.constant dense<0.25> : tensor<4xf32>
  %m = arith.mulf %es, %q : tensor<4xf32>
  %t = arith.truncf %m : tensor<4xf32> to tensor<4xf16>
  return %t : tensor<4xf16>
}

// -----

// A square reads the widened value twice: it is computed low once, and the
// widening, left without users, is erased once (it was looked at again after
// being erased: found by amp-fuzz under AddressSanitizer).
// CHECK-LABEL: func.func @exact_square
// CHECK-SAME: (%[[A:.+]]: tensor<4xbf16>)
// CHECK-NEXT: %[[S:.+]] = arith.mulf %[[A]], %[[A]] : tensor<4xbf16>
// CHECK-NEXT: return %[[S]]
func.func @exact_square(%a: tensor<4xbf16>) -> tensor<4xbf16> {
  %e = arith.extf %a : tensor<4xbf16> to tensor<4xf32>
  %s = arith.mulf %e, %e : tensor<4xf32>
  %t = arith.truncf %s : tensor<4xf32> to tensor<4xbf16>
  return %t : tensor<4xbf16>
}

// -----

// An exact constant next to an operand that is not a widened low value:
// nothing changes (the constant's low copy is only made once every operand
// matched), and no constant is left behind.
// CHECK-LABEL: func.func @exact_constant_wide_operand
// CHECK-COUNT-1: arith.constant
// CHECK-NOT: arith.constant
// CHECK: arith.mulf %{{.+}}, %{{.+}} : tensor<4xf32>
func.func @exact_constant_wide_operand(%x: tensor<4xf32>) -> tensor<4xf16> {
  %c = arith.constant dense<0.5> : tensor<4xf32>
  %m = arith.mulf %c, %x : tensor<4xf32>
  %t = arith.truncf %m : tensor<4xf32> to tensor<4xf16>
  return %t : tensor<4xf16>
}

// -----

// What must NOT change: lossy pairs a user wrote stay.
// extf(truncf(x)) is not x; truncf(truncf(x)) rounds twice; exp is not
// correctly rounded; a constant f16 cannot hold stays an f32 operand.
// CHECK-LABEL: func.func @lossy_stays
// CHECK: %[[T:.+]] = arith.truncf %{{.+}} : tensor<4xf32> to tensor<4xf16>
// CHECK: arith.extf %[[T]] : tensor<4xf16> to tensor<4xf32>
// CHECK: %[[D:.+]] = arith.truncf %{{.+}} : tensor<4xf64> to tensor<4xf32>
// CHECK: arith.truncf %[[D]] : tensor<4xf32> to tensor<4xf16>
// CHECK: math.exp %{{.+}} : tensor<4xf32>
// CHECK: arith.mulf %{{.+}}, %{{.+}} : tensor<4xf32>
func.func @lossy_stays(%x: tensor<4xf32>, %d: tensor<4xf64>, %h: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>) {
  %0 = arith.truncf %x : tensor<4xf32> to tensor<4xf16>
  %1 = arith.extf %0 : tensor<4xf16> to tensor<4xf32>
  %2 = arith.truncf %d : tensor<4xf64> to tensor<4xf32>
  %3 = arith.truncf %2 : tensor<4xf32> to tensor<4xf16>
  %e = arith.extf %h : tensor<4xf16> to tensor<4xf32>
  %4 = math.exp %e : tensor<4xf32>
  %5 = arith.truncf %4 : tensor<4xf32> to tensor<4xf16>
  %c = arith.constant dense<0.1> : tensor<4xf32>
  %6 = arith.mulf %e, %c : tensor<4xf32>
  %7 = arith.truncf %6 : tensor<4xf32> to tensor<4xf16>
  return %1, %3, %5, %7 : tensor<4xf32>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>
}

// -----

// A cast of a broadcast leaves nothing of the old one behind: no f32
// broadcast, init or extf.
// CHECK-LABEL: func.func @broadcast_round_trip
// CHECK-SAME: (%[[X:.+]]: tensor<8xf16>)
// CHECK-NEXT: %[[E:.+]] = tensor.empty() : tensor<4x8xf16>
// CHECK-NEXT: %[[B:.+]] = linalg.broadcast ins(%[[X]] : tensor<8xf16>) outs(%[[E]] : tensor<4x8xf16>) dimensions = [0]
// CHECK-NEXT: return %[[B]]
// CANON-LABEL: func.func @broadcast_round_trip
// CANON-NOT: f32
func.func @broadcast_round_trip(%x: tensor<8xf16>) -> tensor<4x8xf16> {
  %e = arith.extf %x : tensor<8xf16> to tensor<8xf32>
  %init = tensor.empty() : tensor<4x8xf32>
  %b = linalg.broadcast ins(%e : tensor<8xf32>) outs(%init : tensor<4x8xf32>) dimensions = [0]
  %r = arith.truncf %b : tensor<4x8xf32> to tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

// linalg data movement is a move like tosa.transpose: an exact round trip
// around linalg.transpose, linalg.copy or a permutation generic disappears.
// CHECK-LABEL: func.func @linalg_moves
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf16>)
// CHECK-NOT: f32
// CHECK: linalg.transpose ins(%[[X]] : tensor<4x8xf16>) outs(%{{.+}} : tensor<8x4xf16>) permutation = [1, 0]
// CHECK: linalg.copy ins(%[[X]] : tensor<4x8xf16>) outs(%{{.+}} : tensor<4x8xf16>)
// CHECK: linalg.generic {{.+}} ins(%[[X]] : tensor<4x8xf16>) outs(%{{.+}} : tensor<8x4xf16>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT: linalg.yield %[[IN]] : f16
// CHECK-NOT: f32
// CANON-LABEL: func.func @linalg_moves
// CANON-NOT: f32
// CANON: return
#in = affine_map<(d0, d1) -> (d1, d0)>
#out = affine_map<(d0, d1) -> (d0, d1)>
func.func @linalg_moves(%x: tensor<4x8xf16>) -> (tensor<8x4xf16>, tensor<4x8xf16>, tensor<8x4xf16>) {
  %e = arith.extf %x : tensor<4x8xf16> to tensor<4x8xf32>
  %i0 = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%e : tensor<4x8xf32>) outs(%i0 : tensor<8x4xf32>) permutation = [1, 0]
  %r0 = arith.truncf %t : tensor<8x4xf32> to tensor<8x4xf16>
  %e1 = arith.extf %x : tensor<4x8xf16> to tensor<4x8xf32>
  %i1 = tensor.empty() : tensor<4x8xf32>
  %c = linalg.copy ins(%e1 : tensor<4x8xf32>) outs(%i1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r1 = arith.truncf %c : tensor<4x8xf32> to tensor<4x8xf16>
  %e2 = arith.extf %x : tensor<4x8xf16> to tensor<4x8xf32>
  %i2 = tensor.empty() : tensor<8x4xf32>
  %g = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel"]}
      ins(%e2 : tensor<4x8xf32>) outs(%i2 : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<8x4xf32>
  %r2 = arith.truncf %g : tensor<8x4xf32> to tensor<8x4xf16>
  return %r0, %r1, %r2 : tensor<8x4xf16>, tensor<4x8xf16>, tensor<8x4xf16>
}

// -----

// A round trip that is not exact stays: extf(truncf(x)) is not x.
// CHECK-LABEL: func.func @transpose_lossy
// CHECK: arith.truncf
// CHECK: linalg.transpose
// CHECK: arith.extf
// CANON-LABEL: func.func @transpose_lossy
// CANON: arith.truncf
// CANON: arith.extf
func.func @transpose_lossy(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %t16 = arith.truncf %x : tensor<4x8xf32> to tensor<4x8xf16>
  %i = tensor.empty() : tensor<8x4xf16>
  %t = linalg.transpose ins(%t16 : tensor<4x8xf16>) outs(%i : tensor<8x4xf16>) permutation = [1, 0]
  %r = arith.extf %t : tensor<8x4xf16> to tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

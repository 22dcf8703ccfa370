// RUN: amp-opt %s --split-input-file --amp-test-print-policy -o /dev/null | FileCheck %s

// Named contractions are allowed; each output sums K products and may keep
// a wide (f32) accumulator.
// CHECK-LABEL: func.func @contractions
// CHECK: linalg.matmul allow model acc=sum/8/wide data=(0, 1, 2)->(0) compute=yes "contraction: low-precision inputs, accumulator kept in the accumulate type"
// CHECK: linalg.batch_matmul allow model acc=sum/8/wide data=(0, 1, 2)->(0)
// CHECK: linalg.matvec allow model acc=sum/8/wide
// CHECK: linalg.vecmat allow model acc=sum/4/wide
// CHECK: linalg.dot allow model acc=sum/8/wide
func.func @contractions(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>,
                        %ba: tensor<2x4x8xf32>, %bb: tensor<2x8x16xf32>, %bc: tensor<2x4x16xf32>,
                        %v: tensor<8xf32>, %o: tensor<4xf32>, %w: tensor<4xf32>, %s: tensor<f32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = linalg.batch_matmul ins(%ba, %bb : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%bc : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %2 = linalg.matvec ins(%a, %v : tensor<4x8xf32>, tensor<8xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %3 = linalg.vecmat ins(%w, %a : tensor<4xf32>, tensor<4x8xf32>) outs(%v : tensor<8xf32>) -> tensor<8xf32>
  %4 = linalg.dot ins(%v, %v : tensor<8xf32>, tensor<8xf32>) outs(%s : tensor<f32>) -> tensor<f32>
  return
}

// -----

// Convolutions are contractions over the filter window (and input channels).
// CHECK-LABEL: func.func @convolutions
// CHECK: linalg.conv_2d_nhwc_hwcf allow model acc=sum/27/wide
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc allow model acc=sum/9/wide
// CHECK: linalg.conv_2d_nchw_fchw allow model acc=sum/27/wide
func.func @convolutions(%in: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x16xf32>, %out: tensor<1x6x6x16xf32>,
                        %dwf: tensor<3x3x3xf32>, %dwo: tensor<1x6x6x3xf32>,
                        %nchw: tensor<1x3x8x8xf32>, %fchw: tensor<16x3x3x3xf32>, %onchw: tensor<1x16x6x6xf32>) {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %f : tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) outs(%out : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %1 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %dwf : tensor<1x8x8x3xf32>, tensor<3x3x3xf32>) outs(%dwo : tensor<1x6x6x3xf32>) -> tensor<1x6x6x3xf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%nchw, %fchw : tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) outs(%onchw : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  return
}

// -----

// A sum pool is a sum (never, unless accumulated wide); a max pool is exact.
// The window operand gives only a shape (the body never reads it): not data.
// CHECK-LABEL: func.func @pools
// CHECK: linalg.pooling_nhwc_sum never model acc=sum/4/wide data=(0, 2)->(0) compute=yes "sum reduction loses accuracy when accumulated in low precision"
// CHECK: linalg.pooling_nhwc_max follow model acc=max/4/wide data=(0, 2)->(0) compute=yes "max/min reduction is exact in low precision"
// CHECK: linalg.pooling_nhwc_min follow model acc=min/4/wide
func.func @pools(%in: tensor<1x8x8x3xf32>, %k: tensor<2x2xf32>, %out: tensor<1x4x4x3xf32>) {
  %0 = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %k : tensor<1x8x8x3xf32>, tensor<2x2xf32>) outs(%out : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %1 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %k : tensor<1x8x8x3xf32>, tensor<2x2xf32>) outs(%out : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %2 = linalg.pooling_nhwc_min {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %k : tensor<1x8x8x3xf32>, tensor<2x2xf32>) outs(%out : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return
}

// -----

// linalg.generic is classified by its body: an add-reduction is a sum
// wherever it appears, with its size from the loop ranges (? when dynamic);
// a multiply-add over two inputs is a contraction; a sum of squares of one
// input is not.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @generic_reductions
// CHECK: linalg.generic never model acc=sum/256/wide data=(0, 1)->(0) compute=yes "sum reduction loses accuracy when accumulated in low precision"
// CHECK: linalg.generic follow model acc=max/256/wide data=(0, 1)->(0) compute=yes "max/min reduction is exact in low precision"
// CHECK: linalg.generic never model acc=sum/?/wide
// CHECK: linalg.generic allow model acc=sum/8/wide data=(0, 1, 2)->(0) compute=yes "contraction
// CHECK: linalg.generic never model acc=product/256/wide
func.func @generic_reductions(%a: tensor<4x256xf32>, %r: tensor<4xf32>, %d: tensor<?x?xf32>, %dr: tensor<?xf32>,
                              %x: tensor<4x8xf32>, %y: tensor<8x16xf32>, %z: tensor<4x16xf32>) {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x256xf32>) outs(%r : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x256xf32>) outs(%r : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.maximumf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%d : tensor<?x?xf32>) outs(%dr : tensor<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %3 = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) {
  ^bb0(%l: f32, %rr: f32, %acc: f32):
    %m = arith.mulf %l, %rr : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %4 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x256xf32>) outs(%r : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.mulf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return
}

// -----

// A parallel body is as safe as its least safe op, and reports that op's
// reason; a body that only yields moves data.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @generic_elementwise
// CHECK: linalg.generic never model acc=- data=(0, 1)->(0) compute=yes "exp overflows f16 (max 65504) for inputs above 11"
// CHECK: linalg.generic follow model acc=- data=(0, 1)->(0) compute=yes "elementwise arithmetic is accurate in low precision"
// CHECK: linalg.generic follow model acc=- data=(0, 1)->(0) compute=yes "moves data without arithmetic"
func.func @generic_elementwise(%a: tensor<4x8xf32>) {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %in : f32
    %e = math.exp %m : f32
    linalg.yield %e : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %in : f32
    %t = math.tanh %m : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<4x8xf32>
  return
}

// -----

// Named elementwise ops, fill, broadcast, transpose, map and reduce follow the
// same body rules; softmax exponentiates and sums.
// CHECK-LABEL: func.func @named_ops
// CHECK: linalg.add follow model acc=- data=(0, 1, 2)->(0) compute=yes "elementwise arithmetic is accurate in low precision"
// CHECK: linalg.exp never model acc=- data=(0, 1)->(0) compute=yes "exp overflows f16
// CHECK: linalg.fill follow model acc=- data=(0, 1)->(0) compute=yes "moves data without arithmetic"
// CHECK: linalg.broadcast follow model acc=- data=(0, 1)->(0) compute=yes "moves data without arithmetic"
// CHECK: linalg.transpose follow model acc=- data=(0, 1)->(0) compute=yes "moves data without arithmetic"
// CHECK: linalg.map follow model acc=- data=(0, 1, 2)->(0) compute=yes "elementwise arithmetic is accurate in low precision"
// CHECK: linalg.reduce never model acc=sum/8/wide data=(0, 1)->(0) compute=yes "sum reduction
// CHECK: linalg.softmax never model acc=sum/8 data=(0, 1)->(0) compute=yes "softmax exponentiates and sums: overflow and long sums"
func.func @named_ops(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %s: f32, %v: tensor<8xf32>, %t: tensor<8x4xf32>, %r: tensor<4xf32>) {
  %0 = linalg.add ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.exp ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.fill ins(%s : f32) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = linalg.broadcast ins(%v : tensor<8xf32>) outs(%a : tensor<4x8xf32>) dimensions = [0]
  %4 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%t : tensor<8x4xf32>) permutation = [1, 0]
  %5 = linalg.map { arith.subf } ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>)
  %6 = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
  %7 = linalg.softmax dimension(1) ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

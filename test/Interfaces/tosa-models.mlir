// RUN: amp-opt %s --split-input-file --amp-test-print-policy -o /dev/null | FileCheck %s --check-prefixes=CHECK,F16
// RUN: amp-opt %s --split-input-file --amp-test-print-policy='low=bf16' -o /dev/null | FileCheck %s --check-prefixes=CHECK,BF16

// What the tosa AmpOpInterface model (lib/Interfaces/TosaModels.cpp) reports:
// the category, the accumulation (kind / elements per accumulator / whether
// the accumulator may be wider than the data) and which operands and results
// are floating-point data. Lines common to f16 and bf16 use CHECK; the
// answers that depend on the low type use F16 / BF16.

// Contractions allow low precision with a wide accumulator. tosa.matmul
// [N, H, C] x [N, C, W] sums C products per output; its zero points are data.

// CHECK-LABEL: func.func @matmul
// CHECK-NEXT: tosa.const follow model acc=- data=()->(0) compute=yes "moves data without arithmetic"
// CHECK-NEXT: tosa.matmul allow model acc=sum/8/wide data=(0, 1, 2, 3)->(0) compute=yes "contraction: low-precision inputs, accumulator kept in the accumulate type"
// CHECK-NEXT: func.return follow model acc=- data=(0)->()
func.func @matmul(%a: tensor<1x4x8xf32>, %b: tensor<1x8x16xf32>) -> tensor<1x4x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x16xf32>
  return %0 : tensor<1x4x16xf32>
}

// -----

// A dynamic reduction dimension gives an unknown reduction size.

// CHECK-LABEL: func.func @matmul_dynamic
// CHECK-NEXT: tosa.matmul allow model acc=sum/?/wide data=(0, 1, 2, 3)->(0) compute=yes
func.func @matmul_dynamic(%a: tensor<1x4x?xf32>, %b: tensor<1x?x16xf32>, %zp: tensor<1xf32>) -> tensor<1x4x16xf32> {
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x?xf32>, tensor<1x?x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x16xf32>
  return %0 : tensor<1x4x16xf32>
}

// -----

// conv2d weights are [OC, KH, KW, IC]: 3 * 5 * 3 = 45 products per output.
// Input, weight, bias and both zero points are data.

// CHECK-LABEL: func.func @conv2d
// CHECK-NEXT: tosa.conv2d allow model acc=sum/45/wide data=(0, 1, 2, 3, 4)->(0) compute=yes "contraction: low-precision inputs, accumulator kept in the accumulate type"
func.func @conv2d(%in: tensor<1x8x8x3xf32>, %w: tensor<16x3x5x3xf32>, %b: tensor<16xf32>, %zp: tensor<1xf32>) -> tensor<1x6x4x16xf32> {
  %0 = tosa.conv2d %in, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<16x3x5x3xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x4x16xf32>
  return %0 : tensor<1x6x4x16xf32>
}

// -----

// conv3d weights are [OC, KD, KH, KW, IC]: 2 * 3 * 5 * 3 = 90.

// CHECK-LABEL: func.func @conv3d
// CHECK-NEXT: tosa.conv3d allow model acc=sum/90/wide data=(0, 1, 2, 3, 4)->(0) compute=yes "contraction: low-precision inputs, accumulator kept in the accumulate type"
func.func @conv3d(%in: tensor<1x6x8x8x3xf32>, %w: tensor<16x2x3x5x3xf32>, %b: tensor<16xf32>, %zp: tensor<1xf32>) -> tensor<1x5x6x4x16xf32> {
  %0 = tosa.conv3d %in, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<1x6x8x8x3xf32>, tensor<16x2x3x5x3xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x6x4x16xf32>
  return %0 : tensor<1x5x6x4x16xf32>
}

// -----

// depthwise_conv2d weights are [KH, KW, C, M]: each output reads one input
// channel, so 3 * 5 = 15 products (not C or M).

// CHECK-LABEL: func.func @depthwise_conv2d
// CHECK-NEXT: tosa.depthwise_conv2d allow model acc=sum/15/wide data=(0, 1, 2, 3, 4)->(0) compute=yes "contraction: low-precision inputs, accumulator kept in the accumulate type"
func.func @depthwise_conv2d(%in: tensor<1x8x8x4xf32>, %w: tensor<3x5x4x2xf32>, %b: tensor<8xf32>, %zp: tensor<1xf32>) -> tensor<1x6x4x8xf32> {
  %0 = tosa.depthwise_conv2d %in, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<3x5x4x2xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x4x8xf32>
  return %0 : tensor<1x6x4x8xf32>
}

// -----

// transpose_conv2d weights are [OC, KH, KW, IC]: 3 * 5 * 3 = 45.

// CHECK-LABEL: func.func @transpose_conv2d
// CHECK-NEXT: tosa.transpose_conv2d allow model acc=sum/45/wide data=(0, 1, 2, 3, 4)->(0) compute=yes "contraction: low-precision inputs, accumulator kept in the accumulate type"
func.func @transpose_conv2d(%in: tensor<1x4x4x3xf32>, %w: tensor<16x3x5x3xf32>, %b: tensor<16xf32>, %zp: tensor<1xf32>) -> tensor<1x6x8x16xf32> {
  %0 = tosa.transpose_conv2d %in, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x3xf32>, tensor<16x3x5x3xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x8x16xf32>
  return %0 : tensor<1x6x8x16xf32>
}

// -----

// Pools: the window is kernel[0] * kernel[1] = 15. An average sums it (never,
// wide acc_type); a max is exact (follow, no wide accumulator).

// CHECK-LABEL: func.func @pools
// CHECK-NEXT: tosa.avg_pool2d never model acc=sum/15/wide data=(0, 1, 2)->(0) compute=yes "average pool sums its window: accurate only with a wide accumulator"
// CHECK-NEXT: tosa.max_pool2d follow model acc=max/15 data=(0)->(0) compute=yes "max/min reduction is exact in low precision"
// CHECK-NEXT: func.return follow model acc=- data=(0, 1)->()
func.func @pools(%in: tensor<1x8x8x4xf32>, %zp: tensor<1xf32>) -> (tensor<1x6x4x4xf32>, tensor<1x6x4x4xf32>) {
  %0 = tosa.avg_pool2d %in, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 5>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x4x4xf32>
  %1 = tosa.max_pool2d %in {kernel = array<i64: 3, 5>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>) -> tensor<1x6x4x4xf32>
  return %0, %1 : tensor<1x6x4x4xf32>, tensor<1x6x4x4xf32>
}

// -----

// Reductions fold the `axis` dimension of the input. Their result has the
// input's element type, so no accumulator is wide.

// CHECK-LABEL: func.func @reductions
// CHECK-NEXT: tosa.reduce_sum never model acc=sum/7 data=(0)->(0) compute=yes "sum reduction loses accuracy in low precision"
// CHECK-NEXT: tosa.reduce_max follow model acc=max/3 data=(0)->(0) compute=yes "max/min reduction is exact in low precision"
// CHECK-NEXT: tosa.reduce_product never model acc=product/2 data=(0)->(0) compute=yes "products overflow and lose accuracy"
// CHECK-NEXT: tosa.reduce_min follow model acc=min/7 data=(0)->(0) compute=yes "max/min reduction is exact in low precision"
// CHECK-NEXT: func.return
func.func @reductions(%x: tensor<2x7x3xf32>) -> (tensor<2x1x3xf32>, tensor<2x7x1xf32>, tensor<1x7x3xf32>, tensor<2x1x3xf32>) {
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x7x3xf32>) -> tensor<2x1x3xf32>
  %1 = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x7x3xf32>) -> tensor<2x7x1xf32>
  %2 = tosa.reduce_product %x {axis = 0 : i32} : (tensor<2x7x3xf32>) -> tensor<1x7x3xf32>
  %3 = tosa.reduce_min %x {axis = 1 : i32} : (tensor<2x7x3xf32>) -> tensor<2x1x3xf32>
  return %0, %1, %2, %3 : tensor<2x1x3xf32>, tensor<2x7x1xf32>, tensor<1x7x3xf32>, tensor<2x1x3xf32>
}

// -----

// Elementwise ops follow. Integer operands and results are not data: the
// shift of tosa.mul, the i1 results of the comparisons and the condition of
// tosa.select. negate's zero points are data.

// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT: tosa.const follow model acc=- data=()->() compute=yes "moves data without arithmetic"
// CHECK-NEXT: tosa.add follow model acc=- data=(0, 1)->(0) compute=yes "elementwise arithmetic is accurate in low precision"
// CHECK-NEXT: tosa.sub follow model acc=- data=(0, 1)->(0) compute=yes "elementwise arithmetic is accurate in low precision"
// CHECK-NEXT: tosa.mul follow model acc=- data=(0, 1)->(0) compute=yes "elementwise arithmetic is accurate in low precision"
// CHECK-NEXT: tosa.maximum follow model acc=- data=(0, 1)->(0) compute=yes "elementwise arithmetic is accurate in low precision"
// CHECK-NEXT: tosa.clamp follow model acc=- data=(0)->(0) compute=yes "elementwise arithmetic is accurate in low precision"
// CHECK-NEXT: tosa.sigmoid follow model acc=- data=(0)->(0) compute=yes "elementwise arithmetic is accurate in low precision"
// CHECK-NEXT: tosa.tanh follow model acc=- data=(0)->(0) compute=yes "elementwise arithmetic is accurate in low precision"
// CHECK-NEXT: tosa.negate follow model acc=- data=(0, 1, 2)->(0) compute=yes "elementwise arithmetic is accurate in low precision"
// CHECK-NEXT: tosa.greater follow model acc=- data=(0, 1)->() compute=yes "elementwise arithmetic is accurate in low precision"
// CHECK-NEXT: tosa.equal follow model acc=- data=(0, 1)->() compute=yes "elementwise arithmetic is accurate in low precision"
// CHECK-NEXT: tosa.select follow model acc=- data=(1, 2)->(0) compute=yes "elementwise arithmetic is accurate in low precision"
// CHECK-NEXT: func.return
func.func @elementwise(%a: tensor<4xf32>, %b: tensor<4xf32>, %zp: tensor<1xf32>) -> tensor<4xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.sub %0, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = tosa.mul %1, %b, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  %3 = tosa.maximum %2, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = tosa.clamp %3 {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %5 = tosa.sigmoid %4 : (tensor<4xf32>) -> tensor<4xf32>
  %6 = tosa.tanh %5 : (tensor<4xf32>) -> tensor<4xf32>
  %7 = tosa.negate %6, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  %8 = tosa.greater %7, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %9 = tosa.equal %7, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %10 = tosa.select %8, %7, %a : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %10 : tensor<4xf32>
}

// -----

// Transcendentals stay in f32. reciprocal only overflows f16's range: with
// bf16 (f32's range) it follows. exp is never for both, for different reasons.

// CHECK-LABEL: func.func @transcendental
// F16-NEXT: tosa.exp never model acc=- data=(0)->(0) compute=yes "exp overflows f16 (max 65504) for inputs above 11"
// BF16-NEXT: tosa.exp never model acc=- data=(0)->(0) compute=yes "exp turns bf16's input rounding into large relative output error"
// CHECK-NEXT: tosa.log never model acc=- data=(0)->(0) compute=yes "log of small values loses accuracy in low precision"
// CHECK-NEXT: tosa.pow never model acc=- data=(0, 1)->(0) compute=yes "pow overflows quickly"
// CHECK-NEXT: tosa.erf never model acc=- data=(0)->(0) compute=yes "erf's polynomial needs more than 11 bits"
// CHECK-NEXT: tosa.rsqrt never model acc=- data=(0)->(0) compute=yes "rsqrt of normalisation statistics needs f32 accuracy"
// F16-NEXT: tosa.reciprocal never model acc=- data=(0)->(0) compute=yes "reciprocal overflows f16 for |x| < 1.5e-5"
// BF16-NEXT: tosa.reciprocal follow model acc=- data=(0)->(0) compute=yes "bf16 has f32's range: reciprocal cannot overflow"
// CHECK-NEXT: func.return
func.func @transcendental(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.log %0 : (tensor<4xf32>) -> tensor<4xf32>
  %2 = tosa.pow %1, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = tosa.erf %2 : (tensor<4xf32>) -> tensor<4xf32>
  %4 = tosa.rsqrt %3 : (tensor<4xf32>) -> tensor<4xf32>
  %5 = tosa.reciprocal %4 : (tensor<4xf32>) -> tensor<4xf32>
  return %5 : tensor<4xf32>
}

// -----

// A cast's types are what the cast is for: neither its input nor its result
// is data, even when they are floats (narrowing the input of an f32 -> i32
// cast to f16 would saturate it at 65504).

// CHECK-LABEL: func.func @cast
// CHECK-NEXT: tosa.cast follow model acc=- data=()->() compute=yes "a cast: amp decides around it, its types stay"
// CHECK-NEXT: tosa.cast follow model acc=- data=()->() compute=yes
// CHECK-NEXT: tosa.cast follow model acc=- data=()->() compute=yes
// CHECK-NEXT: func.return follow model acc=- data=(0, 2)->()
func.func @cast(%a: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf16>, tensor<4xi32>, tensor<4xf32>) {
  %0 = tosa.cast %a : (tensor<4xf32>) -> tensor<4xf16>
  %1 = tosa.cast %a : (tensor<4xf32>) -> tensor<4xi32>
  %2 = tosa.cast %i : (tensor<4xi32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf16>, tensor<4xi32>, tensor<4xf32>
}

// -----

// Data movement follows. Shape operands (!tosa.shape) are not data;
// tosa.const_shape has no model and no float data. pad's pad_const is data.

// CHECK-LABEL: func.func @data_movement
// CHECK-NEXT: tosa.const follow model acc=- data=()->(0) compute=yes "moves data without arithmetic"
// CHECK-NEXT: tosa.const_shape follow traits acc=- data=()->() compute=yes "no floating-point data"
// CHECK-NEXT: tosa.reshape follow model acc=- data=(0)->(0) compute=yes "moves data without arithmetic"
// CHECK-NEXT: tosa.transpose follow model acc=- data=(0)->(0) compute=yes "moves data without arithmetic"
// CHECK-NEXT: tosa.const_shape follow traits
// CHECK-NEXT: tosa.const_shape follow traits
// CHECK-NEXT: tosa.slice follow model acc=- data=(0)->(0) compute=yes "moves data without arithmetic"
// CHECK-NEXT: tosa.concat follow model acc=- data=(0, 1)->(0) compute=yes "moves data without arithmetic"
// CHECK-NEXT: tosa.const_shape follow traits
// CHECK-NEXT: tosa.const follow model acc=- data=()->(0) compute=yes "moves data without arithmetic"
// CHECK-NEXT: tosa.pad follow model acc=- data=(0, 2)->(0) compute=yes "moves data without arithmetic"
// CHECK-NEXT: tosa.const_shape follow traits
// CHECK-NEXT: tosa.tile follow model acc=- data=(0)->(0) compute=yes "moves data without arithmetic"
// CHECK-NEXT: tosa.reverse follow model acc=- data=(0)->(0) compute=yes "moves data without arithmetic"
// CHECK-NEXT: func.return
func.func @data_movement(%x: tensor<2x8xf32>) -> tensor<16x4xf32> {
  %c = "tosa.const"() <{values = dense<1.0> : tensor<2x8xf32>}> : () -> tensor<2x8xf32>
  %s = tosa.const_shape {values = dense<[4, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reshape %x, %s : (tensor<2x8xf32>, !tosa.shape<2>) -> tensor<4x4xf32>
  %1 = tosa.transpose %0 {perms = array<i32: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %start = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[2, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %2 = tosa.slice %1, %start, %size : (tensor<4x4xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x4xf32>
  %3 = tosa.concat %2, %2 {axis = 0 : i32} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  %padding = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %pad_const = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %4 = tosa.pad %3, %padding, %pad_const : (tensor<4x4xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<4x4xf32>
  %m = tosa.const_shape {values = dense<[4, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %5 = tosa.tile %4, %m : (tensor<4x4xf32>, !tosa.shape<2>) -> tensor<16x4xf32>
  %6 = tosa.reverse %5 {axis = 0 : i32} : (tensor<16x4xf32>) -> tensor<16x4xf32>
  return %6 : tensor<16x4xf32>
}

// -----

// gather's i32 indices are not data.

// CHECK-LABEL: func.func @gather
// CHECK-NEXT: tosa.gather follow model acc=- data=(0)->(0) compute=yes "moves data without arithmetic"
// CHECK-NEXT: func.return
func.func @gather(%values: tensor<1x10x4xf32>, %indices: tensor<1x3xi32>) -> tensor<1x3x4xf32> {
  %0 = tosa.gather %values, %indices : (tensor<1x10x4xf32>, tensor<1x3xi32>) -> tensor<1x3x4xf32>
  return %0 : tensor<1x3x4xf32>
}

// RUN: amp-opt %s --amp-wide-convolution-results --split-input-file | FileCheck %s
// RUN: amp-opt %s --amp-wide-convolution-results=f16=true --split-input-file | FileCheck %s --check-prefix=F16
// RUN: amp-opt %s --amp-wide-convolution-results=bf16=false --split-input-file | FileCheck %s --check-prefix=OFF
// Idempotent: a second run finds no narrowed sum that is widened again.
// RUN: amp-opt %s --amp-wide-convolution-results --split-input-file -o %t.once
// RUN: amp-opt %t.once --amp-wide-convolution-results --split-input-file -o %t.twice
// RUN: cmp %t.once %t.twice

// A bf16 convolution whose result the program widens through a transpose
// (amp's conversion around an f32 batch norm): it returns its f32 sums, the
// transpose moves f32, its bias is widened, and no bf16 result is left.
// CHECK-LABEL: func.func @through_transpose
// CHECK-SAME: (%[[X:.+]]: tensor<1x8x8x4xbf16>, %[[W:.+]]: tensor<8x1x1x4xbf16>, %[[B:.+]]: tensor<8xbf16>)
// CHECK: %[[WB:.+]] = arith.extf %[[B]] : tensor<8xbf16> to tensor<8xf32>
// CHECK: %[[C:.+]] = tosa.conv2d %[[X]], %[[W]], %[[WB]], {{.*}} -> tensor<1x8x8x8xf32>
// CHECK: %[[T:.+]] = tosa.transpose %[[C]] {{.*}} : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
// CHECK-NOT: arith.extf
// CHECK: return %[[T]]
// OFF-LABEL: func.func @through_transpose
// OFF: tosa.conv2d {{.*}} -> tensor<1x8x8x8xbf16>
// OFF: arith.extf {{.*}} : tensor<1x8x8x8xbf16> to tensor<1x8x8x8xf32>
func.func @through_transpose(%x: tensor<1x8x8x4xbf16>, %w: tensor<8x1x1x4xbf16>, %bias: tensor<8xbf16>) -> tensor<1x8x8x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %c = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xbf16>, tensor<8x1x1x4xbf16>, tensor<8xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x8x8x8xbf16>
  %t = tosa.transpose %c {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x8x8x8xbf16>) -> tensor<1x8x8x8xbf16>
  %r = arith.extf %t : tensor<1x8x8x8xbf16> to tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}

// -----

// Depthwise convolutions too, through a reshape.
// CHECK-LABEL: func.func @depthwise_reshape
// CHECK: tosa.depthwise_conv2d {{.*}} -> tensor<1x6x6x4xf32>
// CHECK: tosa.reshape {{.*}} -> tensor<1x144xf32>
// CHECK-NOT: arith.extf %{{.*}} : tensor<1x144xbf16>
func.func @depthwise_reshape(%x: tensor<1x8x8x4xbf16>, %w: tensor<3x3x4x1xbf16>, %bias: tensor<4xbf16>) -> tensor<1x144xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %c = tosa.depthwise_conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xbf16>, tensor<3x3x4x1xbf16>, tensor<4xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x6x6x4xbf16>
  %shape = tosa.const_shape {values = dense<[1, 144]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s = tosa.reshape %c, %shape : (tensor<1x6x6x4xbf16>, !tosa.shape<2>) -> tensor<1x144xbf16>
  %r = arith.extf %s : tensor<1x144xbf16> to tensor<1x144xf32>
  return %r : tensor<1x144xf32>
}

// -----

// A bf16 result that another op reads as bf16 is the program's: it stays,
// and so does the widening beside it.
// CHECK-LABEL: func.func @also_read_low
// CHECK: tosa.conv2d {{.*}} -> tensor<1x8x8x8xbf16>
// CHECK: arith.extf
func.func @also_read_low(%x: tensor<1x8x8x4xbf16>, %w: tensor<8x1x1x4xbf16>, %bias: tensor<8xbf16>) -> (tensor<1x8x8x8xf32>, tensor<1x8x8x8xbf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %c = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xbf16>, tensor<8x1x1x4xbf16>, tensor<8xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x8x8x8xbf16>
  %r = arith.extf %c : tensor<1x8x8x8xbf16> to tensor<1x8x8x8xf32>
  return %r, %c : tensor<1x8x8x8xf32>, tensor<1x8x8x8xbf16>
}

// -----

// A sum kept in f16 (acc_type = f16) is the program's rounding at every
// step, not one at the end: it stays, even with f16 on.
// F16-LABEL: func.func @f16_accumulator
// F16: tosa.conv2d {{.*}} -> tensor<1x8x8x8xf16>
// F16: arith.extf
func.func @f16_accumulator(%x: tensor<1x8x8x4xf16>, %w: tensor<8x1x1x4xf16>, %bias: tensor<8xf16>) -> tensor<1x8x8x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %c = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf16>, tensor<8x1x1x4xf16>, tensor<8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x8x8xf16>
  %r = arith.extf %c : tensor<1x8x8x8xf16> to tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}

// -----

// f16 only when asked: an f16 sum may exceed f16's range, and a target
// that computes in f16 would give infinity there.
// CHECK-LABEL: func.func @f16
// CHECK: tosa.conv2d {{.*}} -> tensor<1x8x8x8xf16>
// F16-LABEL: func.func @f16
// F16: tosa.conv2d {{.*}} -> tensor<1x8x8x8xf32>
// F16-NOT: arith.extf %{{.*}} : tensor<1x8x8x8xf16>
func.func @f16(%x: tensor<1x8x8x4xf16>, %w: tensor<8x1x1x4xf16>, %bias: tensor<8xf16>) -> tensor<1x8x8x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %c = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf16>, tensor<8x1x1x4xf16>, tensor<8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x8x8xf16>
  %r = arith.extf %c : tensor<1x8x8x8xf16> to tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}

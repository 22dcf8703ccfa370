// A bf16 convolution that sums in f32 and whose result the program widens
// straight back to f32 hands on its f32 sums on the CPU
// (amp-wide-convolution-results, with excess precision): on the same bf16
// inputs, that is the convolution computed in f32 (@f32_sums), up to the
// order of the additions, at every magnitude (x scaled by 20, the weights
// by 1e-4). With --no-excess-precision each sum is rounded to bf16 as
// TOSA's result type says: up to 2^-9 of each value away from the f32 sums.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %s --entry=f32_sums --seed=7 --save-inputs=%t/in --output=%t/sums.npy
// RUN: amp-run %s --entry=bf16_conv --input-dir=%t/in --compare=%t/sums.npy --rtol=1e-5 --atol=1e-7 | FileCheck %s
// RUN: amp-run %s --entry=bf16_conv --input-dir=%t/in --no-excess-precision --compare=%t/sums.npy --rtol=4e-3 --atol=1e-7 | FileCheck %s
// RUN: not amp-run %s --entry=bf16_conv --input-dir=%t/in --no-excess-precision --compare=%t/sums.npy --rtol=1e-5 --atol=1e-7 | FileCheck %s --check-prefix=ROUNDED
// CHECK: compare result 0 {{.*}} OK
// ROUNDED: compare result 0 {{.*}} FAIL
//
// A depthwise convolution (strided, padded on one side), its bias added to
// the f32 sums too: with --no-excess-precision the sums are rounded to bf16
// and the bias is added to that in bf16, two roundings (up to 2^-8 of the
// larger of sum and bias, so more than 2^-9 of a result they cancel in).
// RUN: amp-run %s --entry=f32_depthwise --seed=9 --save-inputs=%t/dw --output=%t/dw.npy
// RUN: amp-run %s --entry=bf16_depthwise --input-dir=%t/dw --compare=%t/dw.npy --rtol=1e-5 --atol=1e-7 | FileCheck %s
// RUN: not amp-run %s --entry=bf16_depthwise --input-dir=%t/dw --no-excess-precision --compare=%t/dw.npy --rtol=1e-5 --atol=1e-7 | FileCheck %s --check-prefix=ROUNDED
//
// A transposed convolution (which tosa-to-linalg rewrites into a padded
// convolution first) hands on its f32 sums as well.
// RUN: amp-run %s --entry=f32_transposed --seed=11 --save-inputs=%t/tc --output=%t/tc.npy
// RUN: amp-run %s --entry=bf16_transposed --input-dir=%t/tc --compare=%t/tc.npy --rtol=1e-5 --atol=1e-7 | FileCheck %s
// RUN: not amp-run %s --entry=bf16_transposed --input-dir=%t/tc --no-excess-precision --compare=%t/tc.npy --rtol=1e-5 --atol=1e-7 | FileCheck %s --check-prefix=ROUNDED

// The convolution of amp's conversion: bf16 inputs, f32 sums, a bf16 result
// (TOSA's), laid out back to NCHW and widened for an f32 consumer.
func.func @bf16_conv(%x: tensor<2x12x12x16xf32>, %w: tensor<8x3x3x16xf32>, %b: tensor<8xf32>) -> tensor<2x8x12x12xf32> {
  %x16, %w16, %b16 = call @inputs(%x, %w, %b) : (tensor<2x12x12x16xf32>, tensor<8x3x3x16xf32>, tensor<8xf32>) -> (tensor<2x12x12x16xbf16>, tensor<8x3x3x16xbf16>, tensor<8xbf16>)
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %c = tosa.conv2d %x16, %w16, %b16, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x12x12x16xbf16>, tensor<8x3x3x16xbf16>, tensor<8xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<2x12x12x8xbf16>
  %t = tosa.transpose %c {perms = array<i32: 0, 3, 1, 2>} : (tensor<2x12x12x8xbf16>) -> tensor<2x8x12x12xbf16>
  %r = arith.extf %t : tensor<2x8x12x12xbf16> to tensor<2x8x12x12xf32>
  return %r : tensor<2x8x12x12xf32>
}

// The same convolution in f32 on the same bf16 values.
func.func @f32_sums(%x: tensor<2x12x12x16xf32>, %w: tensor<8x3x3x16xf32>, %b: tensor<8xf32>) -> tensor<2x8x12x12xf32> {
  %x16, %w16, %b16 = call @inputs(%x, %w, %b) : (tensor<2x12x12x16xf32>, tensor<8x3x3x16xf32>, tensor<8xf32>) -> (tensor<2x12x12x16xbf16>, tensor<8x3x3x16xbf16>, tensor<8xbf16>)
  %xw = arith.extf %x16 : tensor<2x12x12x16xbf16> to tensor<2x12x12x16xf32>
  %ww = arith.extf %w16 : tensor<8x3x3x16xbf16> to tensor<8x3x3x16xf32>
  %bw = arith.extf %b16 : tensor<8xbf16> to tensor<8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %xw, %ww, %bw, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x12x12x16xf32>, tensor<8x3x3x16xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x12x12x8xf32>
  %t = tosa.transpose %c {perms = array<i32: 0, 3, 1, 2>} : (tensor<2x12x12x8xf32>) -> tensor<2x8x12x12xf32>
  return %t : tensor<2x8x12x12xf32>
}

func.func @bf16_depthwise(%x: tensor<2x12x12x16xf32>, %w: tensor<3x3x16x1xf32>, %b: tensor<16xf32>) -> tensor<2x16x6x6xf32> {
  %x16 = arith.truncf %x : tensor<2x12x12x16xf32> to tensor<2x12x12x16xbf16>
  %w16 = arith.truncf %w : tensor<3x3x16x1xf32> to tensor<3x3x16x1xbf16>
  %b16 = arith.truncf %b : tensor<16xf32> to tensor<16xbf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %c = tosa.depthwise_conv2d %x16, %w16, %b16, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<2x12x12x16xbf16>, tensor<3x3x16x1xbf16>, tensor<16xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<2x6x6x16xbf16>
  %t = tosa.transpose %c {perms = array<i32: 0, 3, 1, 2>} : (tensor<2x6x6x16xbf16>) -> tensor<2x16x6x6xbf16>
  %r = arith.extf %t : tensor<2x16x6x6xbf16> to tensor<2x16x6x6xf32>
  return %r : tensor<2x16x6x6xf32>
}

func.func @f32_depthwise(%x: tensor<2x12x12x16xf32>, %w: tensor<3x3x16x1xf32>, %b: tensor<16xf32>) -> tensor<2x16x6x6xf32> {
  %x16 = arith.truncf %x : tensor<2x12x12x16xf32> to tensor<2x12x12x16xbf16>
  %w16 = arith.truncf %w : tensor<3x3x16x1xf32> to tensor<3x3x16x1xbf16>
  %b16 = arith.truncf %b : tensor<16xf32> to tensor<16xbf16>
  %xw = arith.extf %x16 : tensor<2x12x12x16xbf16> to tensor<2x12x12x16xf32>
  %ww = arith.extf %w16 : tensor<3x3x16x1xbf16> to tensor<3x3x16x1xf32>
  %bw = arith.extf %b16 : tensor<16xbf16> to tensor<16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.depthwise_conv2d %xw, %ww, %bw, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<2x12x12x16xf32>, tensor<3x3x16x1xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x6x16xf32>
  %t = tosa.transpose %c {perms = array<i32: 0, 3, 1, 2>} : (tensor<2x6x6x16xf32>) -> tensor<2x16x6x6xf32>
  return %t : tensor<2x16x6x6xf32>
}

func.func @bf16_transposed(%x: tensor<1x6x6x4xf32>, %w: tensor<8x3x3x4xf32>, %b: tensor<8xf32>) -> tensor<1x8x8x8xf32> {
  %x16 = arith.truncf %x : tensor<1x6x6x4xf32> to tensor<1x6x6x4xbf16>
  %w16 = arith.truncf %w : tensor<8x3x3x4xf32> to tensor<8x3x3x4xbf16>
  %b16 = arith.truncf %b : tensor<8xf32> to tensor<8xbf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %c = tosa.transpose_conv2d %x16, %w16, %b16, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x4xbf16>, tensor<8x3x3x4xbf16>, tensor<8xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x8x8x8xbf16>
  %r = arith.extf %c : tensor<1x8x8x8xbf16> to tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}

func.func @f32_transposed(%x: tensor<1x6x6x4xf32>, %w: tensor<8x3x3x4xf32>, %b: tensor<8xf32>) -> tensor<1x8x8x8xf32> {
  %x16 = arith.truncf %x : tensor<1x6x6x4xf32> to tensor<1x6x6x4xbf16>
  %w16 = arith.truncf %w : tensor<8x3x3x4xf32> to tensor<8x3x3x4xbf16>
  %b16 = arith.truncf %b : tensor<8xf32> to tensor<8xbf16>
  %xw = arith.extf %x16 : tensor<1x6x6x4xbf16> to tensor<1x6x6x4xf32>
  %ww = arith.extf %w16 : tensor<8x3x3x4xbf16> to tensor<8x3x3x4xf32>
  %bw = arith.extf %b16 : tensor<8xbf16> to tensor<8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.transpose_conv2d %xw, %ww, %bw, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x4xf32>, tensor<8x3x3x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32>
  return %c : tensor<1x8x8x8xf32>
}

// x * 20, w * 1e-4 and b * 1e-3, rounded to bf16.
func.func private @inputs(%x: tensor<2x12x12x16xf32>, %w: tensor<8x3x3x16xf32>, %b: tensor<8xf32>) -> (tensor<2x12x12x16xbf16>, tensor<8x3x3x16xbf16>, tensor<8xbf16>) {
  %c20 = arith.constant dense<20.0> : tensor<2x12x12x16xf32>
  %tiny = arith.constant dense<1.0e-4> : tensor<8x3x3x16xf32>
  %small = arith.constant dense<1.0e-3> : tensor<8xf32>
  %x20 = arith.mulf %x, %c20 : tensor<2x12x12x16xf32>
  %wt = arith.mulf %w, %tiny : tensor<8x3x3x16xf32>
  %bs = arith.mulf %b, %small : tensor<8xf32>
  %x16 = arith.truncf %x20 : tensor<2x12x12x16xf32> to tensor<2x12x12x16xbf16>
  %w16 = arith.truncf %wt : tensor<8x3x3x16xf32> to tensor<8x3x3x16xbf16>
  %b16 = arith.truncf %bs : tensor<8xf32> to tensor<8xbf16>
  return %x16, %w16, %b16 : tensor<2x12x12x16xbf16>, tensor<8x3x3x16xbf16>, tensor<8xbf16>
}

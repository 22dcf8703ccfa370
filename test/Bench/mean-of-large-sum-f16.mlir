// A global average pool as PP-OCRv4's text detector holds it after import
// (bench/accuracy, ocr-det): a TOSA reduce_sum over 32x40 = 1280 pixels,
// then a division by 1280, between two convolutions. The f32 sums reach
// about 1.2e5 (the mean is about 90); that is past f16's largest value,
// 65504, while the mean is not.
//
// Specified: amp's f16 program computes the same output as the f32 program
// (within f16 rounding: rtol 1e-2 on outputs near 90, atol 0.5). amp keeps
// the sums in f32 and never rounds them to f16, since the range analysis
// says they may exceed it (a sum of 1280 values, each assumed to fit): the
// division that makes the mean of it computes in f32, and only the mean
// (about 90) is rounded to f16 for the next convolution. (Before, the
// division followed its operands into f16, the sum became inf and the
// output NaN.)
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %s --entry=main --seed=1 --save-inputs=%t --output=%t/ref.npy
// RUN: amp-opt %s --mixed-precision="precision=f16 explain=true" --mlir-print-op-on-diagnostic=false -o %t/f16.mlir 2>&1 | FileCheck %s
// CHECK: remark: amp: linalg.generic stays f32 (follow, range): reads operand 0, which may exceed f16: tosa.reduce_sum at mean-of-large-sum-f16.mlir:{{[0-9]+}}:9 of values in [0, 2.09613e+06] may reach 8.38451e+07, beyond f16's largest value 65504
// RUN: amp-run %t/f16.mlir --entry=main --input=%t/arg0.npy --compare=%t/ref.npy --rtol=0.01 --atol=0.5

func.func @main(%x: tensor<1x32x40x4xf32>) -> tensor<1x1x1x4xf32> {
  %w = arith.constant dense<100.0> : tensor<4x1x1x4xf32>
  %b = arith.constant dense<0.0> : tensor<4xf32>
  %z = arith.constant dense<0.0> : tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x32x40x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x40x4xf32>
  %a = tosa.abs %c : (tensor<1x32x40x4xf32>) -> tensor<1x32x40x4xf32>
  %s1 = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<1x32x40x4xf32>) -> tensor<1x1x40x4xf32>
  %s2 = tosa.reduce_sum %s1 {axis = 2 : i32} : (tensor<1x1x40x4xf32>) -> tensor<1x1x1x4xf32>
  %n = arith.constant dense<1280.0> : tensor<1x1x1x1xf32>
  %e = tensor.empty() : tensor<1x1x1x4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2, %n : tensor<1x1x1x4xf32>, tensor<1x1x1x1xf32>) outs(%e : tensor<1x1x1x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %d = arith.divf %p, %q : f32
    linalg.yield %d : f32
  } -> tensor<1x1x1x4xf32>
  %w2 = arith.constant dense<0.25> : tensor<4x1x1x4xf32>
  %r = tosa.conv2d %m, %w2, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x1x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x4xf32>
  return %r : tensor<1x1x1x4xf32>
}

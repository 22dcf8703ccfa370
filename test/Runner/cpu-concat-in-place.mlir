// A concatenation whose pieces are computed in its buffer
// (amp-concat-in-place): a skip connection relu(x), which a max pool reads
// too and which is computed before the concatenation's other piece, and
// y / 2, concatenated along the channels, padded by one pixel and
// convolved. @split computes the same without a concatenation: the
// convolution of the concatenation is the sum of each piece's convolution
// with its channels of the filter. The two sum 72 products of magnitude
// <= 1 in different orders: atol 2e-5; the pools are the same values.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %s --entry=split --seed=3 --save-inputs=%t/in --output=%t/conv.npy,%t/pool.npy
// RUN: amp-run %s --entry=concat --input-dir=%t/in --compare=%t/conv.npy,%t/pool.npy --rtol=0 --atol=2e-5 | FileCheck %s
// RUN: amp-run %s --entry=concat --input-dir=%t/in --threads=2 --compare=%t/conv.npy,%t/pool.npy --rtol=0 --atol=2e-5 | FileCheck %s
// CHECK: compare result 0 {{.*}} OK
// CHECK: compare result 1 {{.*}} OK
//
// Nothing is copied: both pieces are written where the convolution reads
// them (bufferized as amp's CPU pipeline does; without
// amp-concat-in-place, relu(x) is copied into the padded buffer).
// RUN: amp-opt %s -p 'builtin.module(func.func(amp-concat-in-place,amp-pad-in-place),eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},canonicalize,cse,canonicalize)' | FileCheck %s --check-prefix=BUFFERS
// BUFFERS-LABEL: func.func @concat
// BUFFERS-NOT:     memref.copy
// BUFFERS:         return

#nhwc = affine_map<(n, h, w, c) -> (n, h, w, c)>

func.func @concat(%x: tensor<1x8x8x4xf32>, %y: tensor<1x8x8x4xf32>, %w: tensor<3x3x8x16xf32>) -> (tensor<1x8x8x16xf32>, tensor<1x4x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x8x8x4xf32>
  %a = linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%x : tensor<1x8x8x4xf32>) outs(%e : tensor<1x8x8x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x8x8x4xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x4x4x4xf32>
  %pinit = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %pool = linalg.pooling_nhwc_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
    ins(%a, %window : tensor<1x8x8x4xf32>, tensor<2x2xf32>) outs(%pinit : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %b = linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%y : tensor<1x8x8x4xf32>) outs(%e : tensor<1x8x8x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %half : f32
    linalg.yield %r : f32
  } -> tensor<1x8x8x4xf32>
  %ce = tensor.empty() : tensor<1x8x8x8xf32>
  %c0 = tensor.insert_slice %b into %ce[0, 0, 0, 0] [1, 8, 8, 4] [1, 1, 1, 1] : tensor<1x8x8x4xf32> into tensor<1x8x8x8xf32>
  %cat = tensor.insert_slice %a into %c0[0, 0, 0, 4] [1, 8, 8, 4] [1, 1, 1, 1] : tensor<1x8x8x4xf32> into tensor<1x8x8x8xf32>
  %padded = tensor.pad %cat low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x8xf32> to tensor<1x10x10x8xf32>
  %oe = tensor.empty() : tensor<1x8x8x16xf32>
  %oinit = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
    ins(%padded, %w : tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%oinit : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %conv, %pool : tensor<1x8x8x16xf32>, tensor<1x4x4x4xf32>
}

func.func @split(%x: tensor<1x8x8x4xf32>, %y: tensor<1x8x8x4xf32>, %w: tensor<3x3x8x16xf32>) -> (tensor<1x8x8x16xf32>, tensor<1x4x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x8x8x4xf32>
  %a = linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%x : tensor<1x8x8x4xf32>) outs(%e : tensor<1x8x8x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x8x8x4xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x4x4x4xf32>
  %pinit = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %pool = linalg.pooling_nhwc_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
    ins(%a, %window : tensor<1x8x8x4xf32>, tensor<2x2xf32>) outs(%pinit : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %b = linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%y : tensor<1x8x8x4xf32>) outs(%e : tensor<1x8x8x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %half : f32
    linalg.yield %r : f32
  } -> tensor<1x8x8x4xf32>
  %pb = tensor.pad %b low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x4xf32> to tensor<1x10x10x4xf32>
  %pa = tensor.pad %a low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x4xf32> to tensor<1x10x10x4xf32>
  %wb = tensor.extract_slice %w[0, 0, 0, 0] [3, 3, 4, 16] [1, 1, 1, 1] : tensor<3x3x8x16xf32> to tensor<3x3x4x16xf32>
  %wa = tensor.extract_slice %w[0, 0, 4, 0] [3, 3, 4, 16] [1, 1, 1, 1] : tensor<3x3x8x16xf32> to tensor<3x3x4x16xf32>
  %oe = tensor.empty() : tensor<1x8x8x16xf32>
  %oinit = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %cb = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
    ins(%pb, %wb : tensor<1x10x10x4xf32>, tensor<3x3x4x16xf32>) outs(%oinit : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
    ins(%pa, %wa : tensor<1x10x10x4xf32>, tensor<3x3x4x16xf32>) outs(%cb : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %conv, %pool : tensor<1x8x8x16xf32>, tensor<1x4x4x4xf32>
}

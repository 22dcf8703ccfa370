// amp-lower-to-llvm runs contractions, convolutions and pools as
// register-tiled vector kernels (amp-vectorize-contractions, after
// amp-pack-weights has put constant filters in the order the kernels read).
// Each op here has a shape that exercises one part of them -- a vector
// dimension that 16 lanes do not divide (a full and a short vector), a
// row dimension whose range has no divisor in [2, 8], strides and
// dilations, a packed constant filter, a depthwise convolution, a max pool
// -- and amp-run's results must match numpy's (in f64) within f32
// rounding: the kernels sum in the ops' order with fused multiply-adds, so
// each element is off by at most about K u |a||b| (u = 2^-24, K <= 45
// terms of magnitude <= 1): atol = 2e-5. The pool selects, so it is exact.
//
// RUN: rm -rf %t && mkdir -p %t
// DEFINE: %{check} = %python %S/Inputs/kernels_reference.py
// RUN: amp-run %s --entry=conv --seed=1 --save-inputs=%t/conv --output=%t/conv.npy
// RUN: %{check} conv %t/conv %t/conv-ref.npy
// RUN: amp-run %s --entry=conv --input=%t/conv/arg0.npy,%t/conv/arg1.npy --compare=%t/conv-ref.npy --rtol=0 --atol=2e-5 | FileCheck %s
// RUN: amp-run %s --entry=conv_const --seed=2 --save-inputs=%t/conv_const --output=%t/conv_const.npy
// RUN: %{check} conv_const %t/conv_const %t/conv_const-ref.npy
// RUN: amp-run %s --entry=conv_const --input=%t/conv_const/arg0.npy --compare=%t/conv_const-ref.npy --rtol=0 --atol=2e-5 | FileCheck %s
// RUN: amp-run %s --entry=depthwise --seed=3 --save-inputs=%t/depthwise --output=%t/depthwise.npy
// RUN: %{check} depthwise %t/depthwise %t/depthwise-ref.npy
// RUN: amp-run %s --entry=depthwise --input=%t/depthwise/arg0.npy,%t/depthwise/arg1.npy --compare=%t/depthwise-ref.npy --rtol=0 --atol=2e-5 | FileCheck %s
// RUN: amp-run %s --entry=matmul --seed=4 --save-inputs=%t/matmul --output=%t/matmul.npy
// RUN: %{check} matmul %t/matmul %t/matmul-ref.npy
// RUN: amp-run %s --entry=matmul --input=%t/matmul/arg0.npy,%t/matmul/arg1.npy --compare=%t/matmul-ref.npy --rtol=0 --atol=2e-5 | FileCheck %s
//
// A matmul with a bias, a ReLU and a scale applied to its results (its
// epilogue, which the kernel applies to each tile before storing it), on
// one thread and on two (each slice of the matmul then runs its slice of
// the epilogue).
// RUN: amp-run %s --entry=matmul_epilogue --seed=7 --save-inputs=%t/epilogue --output=%t/epilogue.npy
// RUN: %{check} matmul_epilogue %t/epilogue %t/epilogue-ref.npy
// RUN: amp-run %s --entry=matmul_epilogue --input-dir=%t/epilogue --threads=1 --compare=%t/epilogue-ref.npy --rtol=0 --atol=2e-5 | FileCheck %s
// RUN: amp-run %s --entry=matmul_epilogue --input-dir=%t/epilogue --threads=2 --compare=%t/epilogue-ref.npy --rtol=0 --atol=2e-5 | FileCheck %s
// RUN: amp-run %s --entry=matmul_epilogue --input-dir=%t/epilogue --threads=2 --print-lowered --output=%t/x.npy 2>&1 | FileCheck %s --check-prefix=EPI
// EPI:         llvm.func @matmul_epilogue
// EPI:           omp.parallel
// EPI-COUNT-1:     omp.wsloop
// EPI-NOT:         omp.wsloop
// EPI:             omp.terminator
// RUN: amp-run %s --entry=pool --seed=5 --save-inputs=%t/pool --output=%t/pool.npy
// RUN: %{check} pool %t/pool %t/pool-ref.npy
// RUN: amp-run %s --entry=pool --input=%t/pool/arg0.npy --compare=%t/pool-ref.npy --rtol=0 --atol=0 | FileCheck %s
//
// Row reductions (amp-vectorize-for-cpu's kernel for reductions along the
// innermost index): a sum of squares over rows of 48 (16 lanes of partial
// sums, three steps) minus the rows' maximum over their first 8 (one
// vector), 8 rows at a time whose results end in one vector. The partial
// sums reorder the 48 terms: still within f32
// rounding of numpy's f64 sum (48 terms of magnitude <= 1: atol 2e-5).
// RUN: amp-run %s --entry=row_reductions --seed=6 --save-inputs=%t/rows --output=%t/rows.npy
// RUN: %{check} row_reductions %t/rows %t/rows-ref.npy
// RUN: amp-run %s --entry=row_reductions --input=%t/rows/arg0.npy --compare=%t/rows-ref.npy --rtol=0 --atol=2e-5 | FileCheck %s
// RUN: amp-run %s --entry=row_reductions --threads=2 --input=%t/rows/arg0.npy --compare=%t/rows-ref.npy --rtol=0 --atol=2e-5 | FileCheck %s
// RUN: amp-opt %s -p 'builtin.module(amp-fuse-kernels,one-shot-bufferize{bufferize-function-boundaries},func.func(amp-vectorize-for-cpu))' | FileCheck %s --check-prefix=ROWS
// ROWS-LABEL: func.func @row_reductions(
// ROWS-NOT:     linalg.generic
// ROWS:         scf.for {{.+}} = %c0 to %c64 step %c8 {
// ROWS:           scf.for {{.+}} = %c16 to %c48 step %c16 iter_args({{.+}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// ROWS:           arith.addf {{.+}} : vector<8xf32>
// ROWS:           vector.transfer_write {{.+}} : vector<8xf32>, memref<64xf32>
// ROWS:         scf.for {{.+}} = %c0 to %c64 step %c8 {
// ROWS-COUNT-7:   arith.maxnumf {{.+}} : vector<8xf32>
// ROWS-NOT:     vector.reduction
//
// A convolution of one image padded by 4 and dilated by 4: its padded
// buffer's top and bottom rows are zero fills, and each output row steps
// over the window rows that meet the image only (at the edges, one of
// three), reading the buffer through a collapse of its unit dimension.
// RUN: amp-run %s --entry=conv_dilated --seed=9 --save-inputs=%t/dilated --output=%t/dilated.npy
// RUN: %{check} conv_dilated %t/dilated %t/dilated-ref.npy
// RUN: amp-run %s --entry=conv_dilated --input-dir=%t/dilated --compare=%t/dilated-ref.npy --rtol=0 --atol=2e-5 | FileCheck %s
// RUN: amp-run %s --entry=conv_dilated --input-dir=%t/dilated --threads=2 --compare=%t/dilated-ref.npy --rtol=0 --atol=2e-5 | FileCheck %s
// RUN: amp-opt %s -p 'builtin.module(amp-fuse-kernels,func.func(linalg-fold-unit-extent-dims,amp-pad-in-place),one-shot-bufferize{bufferize-function-boundaries},func.func(cse,canonicalize,amp-vectorize-contractions))' --mlir-print-local-scope | FileCheck %s --check-prefix=DILATED
// DILATED-LABEL: func.func @conv_dilated(
// DILATED:         affine.max {{.+}} ceildiv 4
// DILATED-NEXT:    affine.min {{.+}} ceildiv 4
// DILATED:         vector.fma
//
// A convolution from 1024 channels to 32 whose filter (1.2 MB, every tile
// of rows reads it whole) amp-vectorize-contractions reads 128 input
// channels at a time: each tile sums a block's 1152 products into the
// output and reads its sums back for the next block; the bias and ReLU
// after it apply to the last block's sums only. Its 9216 products of
// magnitude <= 1 sum within 9216 u of numpy's: atol 6e-4.
// RUN: amp-run %s --entry=conv_blocked --seed=8 --save-inputs=%t/blocked --output=%t/blocked.npy
// RUN: %{check} conv_blocked %t/blocked %t/blocked-ref.npy
// RUN: amp-run %s --entry=conv_blocked --input-dir=%t/blocked --threads=1 --compare=%t/blocked-ref.npy --rtol=0 --atol=6e-4 | FileCheck %s
// RUN: amp-run %s --entry=conv_blocked --input-dir=%t/blocked --threads=2 --compare=%t/blocked-ref.npy --rtol=0 --atol=6e-4 | FileCheck %s
//
// The same with two threads (each thread runs the kernels on its slice).
// RUN: amp-run %s --entry=conv --threads=2 --input=%t/conv/arg0.npy,%t/conv/arg1.npy --compare=%t/conv-ref.npy --rtol=0 --atol=2e-5 | FileCheck %s
//
// CHECK: compare result 0 {{.*}} OK
//
// The kernels replaced every reduction (no linalg op reaches the loops
// that convert-linalg-to-loops would make) and use fused multiply-adds.
// RUN: amp-opt %s -p 'builtin.module(amp-fuse-kernels,func.func(amp-pack-weights),one-shot-bufferize{bufferize-function-boundaries},func.func(amp-vectorize-contractions))' | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @conv(
// IR-NOT: linalg.generic {{.*}}reduction
// IR: vector.fma {{.*}} : vector<16xf32>
// IR: vector.fma {{.*}} : vector<4xf32>
// IR-LABEL: func.func @conv_const(
// IR: memref.get_global {{.*}} : memref<3x3x3x4xf32>
// IR-NOT: linalg.generic {{.*}}reduction
// IR: vector.fma {{.*}} : vector<4xf32>
// IR-LABEL: func.func @depthwise(
// IR-NOT: linalg.generic {{.*}}reduction
// IR: vector.fma {{.*}} : vector<16xf32>
// IR-LABEL: func.func @conv_blocked(
// IR:         scf.for %{{.+}} = %{{.+}} to %c1024 step %c128 {
// IR:           scf.if
// IR:           vector.fma {{.*}} : vector<16xf32>
// IR:           scf.if
// IR:             arith.maximumf {{.*}} : vector<16xf32>
// IR:           } else {
// IR-LABEL: func.func @matmul(
// IR-NOT: linalg.generic {{.*}}reduction
// IR: vector.fma {{.*}} : vector<16xf32>
// IR: vector.fma {{.*}} : vector<3xf32>
// IR-LABEL: func.func @pool(
// IR-NOT: linalg.generic {{.*}}reduction
// IR: arith.maximumf {{.*}} : vector<7xf32>

// Stride 2; 20 output channels: a vector of 16 and one of 4; rows along
// the output width (5).
func.func @conv(%x: tensor<2x9x11x5xf32>, %w: tensor<3x3x5x20xf32>) -> tensor<2x4x5x20xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x5x20xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x4x5x20xf32>) -> tensor<2x4x5x20xf32>
  %r = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<2x9x11x5xf32>, tensor<3x3x5x20xf32>) outs(%c : tensor<2x4x5x20xf32>) -> tensor<2x4x5x20xf32>
  return %r : tensor<2x4x5x20xf32>
}

// A constant filter in (f, kh, kw, c) order: packed to (kh, kw, c, f).
// w[f, i, j, c] = ((7f + 5i + 3j + c) mod 11 - 5) / 8.
func.func @conv_const(%x: tensor<1x6x7x3xf32>) -> tensor<1x4x5x4xf32> {
  %w = arith.constant dense<[[[[-0.625, -0.5 , -0.375], [-0.25 , -0.125, 0. ], [0.125, 0.25 , 0.375]], [[0. , 0.125, 0.25 ], [0.375, 0.5 , 0.625], [-0.625, -0.5 , -0.375]], [[0.625, -0.625, -0.5 ], [-0.375, -0.25 , -0.125], [0. , 0.125, 0.25 ]]], [[[0.25 , 0.375, 0.5 ], [0.625, -0.625, -0.5 ], [-0.375, -0.25 , -0.125]], [[-0.5 , -0.375, -0.25 ], [-0.125, 0. , 0.125], [0.25 , 0.375, 0.5 ]], [[0.125, 0.25 , 0.375], [0.5 , 0.625, -0.625], [-0.5 , -0.375, -0.25 ]]], [[[-0.25 , -0.125, 0. ], [0.125, 0.25 , 0.375], [0.5 , 0.625, -0.625]], [[0.375, 0.5 , 0.625], [-0.625, -0.5 , -0.375], [-0.25 , -0.125, 0. ]], [[-0.375, -0.25 , -0.125], [0. , 0.125, 0.25 ], [0.375, 0.5 , 0.625]]], [[[0.625, -0.625, -0.5 ], [-0.375, -0.25 , -0.125], [0. , 0.125, 0.25 ]], [[-0.125, 0. , 0.125], [0.25 , 0.375, 0.5 ], [0.625, -0.625, -0.5 ]], [[0.5 , 0.625, -0.625], [-0.5 , -0.375, -0.25 ], [-0.125, 0. , 0.125]]]]> : tensor<4x3x3x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x5x4xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x5x4xf32>) -> tensor<1x4x5x4xf32>
  %r = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x6x7x3xf32>, tensor<4x3x3x3xf32>) outs(%c : tensor<1x4x5x4xf32>) -> tensor<1x4x5x4xf32>
  return %r : tensor<1x4x5x4xf32>
}

// Dilation 2: each channel its own vector lane, no sum across channels.
func.func @depthwise(%x: tensor<1x8x8x24xf32>, %w: tensor<3x3x24xf32>) -> tensor<1x4x4x24xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x24xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x4x24xf32>) -> tensor<1x4x4x24xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {strides = dense<1> : tensor<2xi64>, dilations = dense<2> : tensor<2xi64>}
    ins(%x, %w : tensor<1x8x8x24xf32>, tensor<3x3x24xf32>) outs(%c : tensor<1x4x4x24xf32>) -> tensor<1x4x4x24xf32>
  return %r : tensor<1x4x4x24xf32>
}

// 9x10x16 padded by 4 on every side, a 3x3 window dilated by 4, 20
// output channels.
func.func @conv_dilated(%x: tensor<1x9x10x16xf32>, %w: tensor<3x3x16x20xf32>) -> tensor<1x9x10x20xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 4, 4, 0] high[0, 4, 4, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32
  } : tensor<1x9x10x16xf32> to tensor<1x17x18x16xf32>
  %e = tensor.empty() : tensor<1x9x10x20xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x9x10x20xf32>) -> tensor<1x9x10x20xf32>
  %r = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<4> : tensor<2xi64>}
    ins(%p, %w : tensor<1x17x18x16xf32>, tensor<3x3x16x20xf32>) outs(%c : tensor<1x9x10x20xf32>) -> tensor<1x9x10x20xf32>
  return %r : tensor<1x9x10x20xf32>
}

// 8x8x1024 by a 3x3x1024x32 filter, then max(x + bias, 0).
func.func @conv_blocked(%x: tensor<1x8x8x1024xf32>, %w: tensor<3x3x1024x32xf32>, %bias: tensor<32xf32>) -> tensor<1x6x6x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x32xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x6x6x32xf32>) -> tensor<1x6x6x32xf32>
  %r = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x8x8x1024xf32>, tensor<3x3x1024x32xf32>) outs(%c : tensor<1x6x6x32xf32>) -> tensor<1x6x6x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>, affine_map<(n, h, w, f) -> (f)>, affine_map<(n, h, w, f) -> (n, h, w, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%r, %bias : tensor<1x6x6x32xf32>, tensor<32xf32>) outs(%e : tensor<1x6x6x32xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x6x6x32xf32>
  return %y : tensor<1x6x6x32xf32>
}

// 13 rows (prime: a tile of one row), 19 columns (16 + 3).
func.func @matmul(%a: tensor<13x37xf32>, %b: tensor<37x19xf32>) -> tensor<13x19xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<13x19xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<13x19xf32>) -> tensor<13x19xf32>
  %r = linalg.matmul ins(%a, %b : tensor<13x37xf32>, tensor<37x19xf32>) outs(%c : tensor<13x19xf32>) -> tensor<13x19xf32>
  return %r : tensor<13x19xf32>
}

// 256x37 by 37x64, then max(x + bias, 0) * 0.5.
func.func @matmul_epilogue(%a: tensor<256x37xf32>, %b: tensor<37x64xf32>, %bias: tensor<64xf32>) -> tensor<256x64xf32> {
  %z = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<256x64xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<256x64xf32>) -> tensor<256x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x37xf32>, tensor<37x64xf32>) outs(%c : tensor<256x64xf32>) -> tensor<256x64xf32>
  %o = tensor.empty() : tensor<256x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias : tensor<256x64xf32>, tensor<64xf32>) outs(%o : tensor<256x64xf32>) {
  ^bb0(%x: f32, %v: f32, %out: f32):
    %s = arith.addf %x, %v : f32
    %m = arith.maximumf %s, %z : f32
    %h = arith.mulf %m, %half : f32
    linalg.yield %h : f32
  } -> tensor<256x64xf32>
  return %y : tensor<256x64xf32>
}

// 3x3 windows, stride 2, 7 channels.
func.func @pool(%x: tensor<1x9x9x7xf32>) -> tensor<1x4x4x7xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x4x4x7xf32>
  %c = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x4x4x7xf32>) -> tensor<1x4x4x7xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nhwc_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
    ins(%x, %k : tensor<1x9x9x7xf32>, tensor<3x3xf32>) outs(%c : tensor<1x4x4x7xf32>) -> tensor<1x4x4x7xf32>
  return %r : tensor<1x4x4x7xf32>
}

func.func @row_reductions(%x: tensor<64x48xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %squares = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                             iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x48xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %sq = arith.mulf %v, %v : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %head = tensor.extract_slice %x[0, 0] [64, 8] [1, 1] : tensor<64x48xf32> to tensor<64x8xf32>
  %l = linalg.fill ins(%lowest : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%head : tensor<64x8xf32>) outs(%l : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.maxnumf %acc, %v : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%squares, %max : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %d : tensor<64xf32>
}

// On a machine with an NVIDIA GPU (CI has none; docs/Performance.md records
// a run on an H200): the CUDA backend runs each program in f32 and
// converted to f16 and bf16, three calls each (the later ones reuse the
// first call's freed buffers), and its results must match the CPU
// backend's results of the same program. The GPU computes what the
// converted program says -- each op in the type mixed-precision chose --
// so the two backends differ only by summation order and the device's
// tanh and exp: within a few f32 ulps of the largest value in f32, and
// within an ulp or two of the low type where the program rounds to it
// (f16: 2^-11, bf16: 2^-8, on values of order 1 to 10).
//
// REQUIRES: cuda-gpu
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt %s --mixed-precision=precision=f16 -o %t/f16.mlir
// RUN: amp-opt %s --mixed-precision=precision=bf16 -o %t/bf16.mlir
// DEFINE: %{entry} =
// DEFINE: %{program} =
// DEFINE: %{atol} =
// DEFINE: %{check} = amp-run %{program} --entry=%{entry} --seed=7 --save-inputs=%t/%{entry} --output=%t/cpu.npy && amp-run %{program} --entry=%{entry} --backend=cuda --repeat=3 --input-dir=%t/%{entry} --compare=%t/cpu.npy --rtol=0 --atol=%{atol} | FileCheck %s
//
// REDEFINE: %{entry} = layer
// REDEFINE: %{program} = %s
// REDEFINE: %{atol} = 1e-5
// RUN: %{check}
// REDEFINE: %{program} = %t/f16.mlir
// REDEFINE: %{atol} = 2e-3
// RUN: %{check}
// REDEFINE: %{program} = %t/bf16.mlir
// REDEFINE: %{atol} = 1.6e-2
// RUN: %{check}
//
// REDEFINE: %{entry} = attention
// REDEFINE: %{program} = %s
// REDEFINE: %{atol} = 1e-5
// RUN: %{check}
// REDEFINE: %{program} = %t/f16.mlir
// REDEFINE: %{atol} = 2e-3
// RUN: %{check}
// REDEFINE: %{program} = %t/bf16.mlir
// REDEFINE: %{atol} = 1.6e-2
// RUN: %{check}
//
// REDEFINE: %{entry} = conv
// REDEFINE: %{program} = %s
// REDEFINE: %{atol} = 1e-5
// RUN: %{check}
// REDEFINE: %{program} = %t/f16.mlir
// REDEFINE: %{atol} = 4e-3
// RUN: %{check}
// REDEFINE: %{program} = %t/bf16.mlir
// REDEFINE: %{atol} = 3.2e-2
// RUN: %{check}
//
// CHECK: time: min {{.*}} (3 runs)
// CHECK: compare result 0 {{.*}} out_of_tolerance=0/{{[0-9]+}} {{.*}} OK

// A dense layer: tanh(x w + b), K = 256.
func.func @layer(%x: tensor<64x256xf32>, %w: tensor<256x128xf32>, %b: tensor<128xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x128xf32>) outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<64x128xf32>, tensor<128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%m: f32, %bias: f32, %o: f32):
    %s = arith.addf %m, %bias : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// Attention of one head: softmax(q k^T / 8) v, 32 queries and keys of 64.
func.func @attention(%q: tensor<32x64xf32>, %k: tensor<64x32xf32>, %v: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %s = linalg.matmul ins(%q, %k : tensor<32x64xf32>, tensor<64x32xf32>) outs(%acc : tensor<32x32xf32>) -> tensor<32x32xf32>
  %scale = arith.constant dense<0.125> : tensor<32x32xf32>
  %scaled = arith.mulf %s, %scale : tensor<32x32xf32>
  %p = linalg.softmax dimension(1) ins(%scaled : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %e2 = tensor.empty() : tensor<32x64xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %o = linalg.matmul ins(%p, %v : tensor<32x32xf32>, tensor<32x64xf32>) outs(%acc2 : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %o : tensor<32x64xf32>
}

// A 3x3 convolution over 16 channels, then relu.
func.func @conv(%x: tensor<2x18x18x16xf32>, %f: tensor<3x3x16x32xf32>) -> tensor<2x16x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x16x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x16x32xf32>) -> tensor<2x16x16x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %f : tensor<2x18x18x16xf32>, tensor<3x3x16x32xf32>) outs(%acc : tensor<2x16x16x32xf32>) -> tensor<2x16x16x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<2x16x16x32xf32>) outs(%e : tensor<2x16x16x32xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x16x16x32xf32>
  return %r : tensor<2x16x16x32xf32>
}

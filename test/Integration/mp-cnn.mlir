// A small CNN in linalg on tensors, run on the CPU in f32 and again after
// --mixed-precision has converted it to f16 (then bf16); the results must
// agree within the tolerances below.
//
//   conv_2d_nhwc_hwcf 3x3, 4 -> 16 channels (2x12x12x4 -> 2x10x10x16)
//   + bias; batch norm folded into constant per-channel scale and shift
//   (elementwise generics); relu; 2x2/2 max pool (pooling_nhwc_max);
//   global average pool (5x5 pooling_nhwc_sum, then divide by 25);
//   dense layer 16 -> 32 (matmul + bias).
//
// REQUIRES: mlir-runner
// DEFINE: %{run} = mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so
//
// f32 reference: the program as written (it agrees with an f64 model of
// the network to the printed precision).
// RUN: bash %S/lower.sh mlir-opt %s | %{run} > %t.f32.txt
//
// What the pass makes of it (checked below): the convolution and the dense
// matmul take low operands with f32 accumulators; bias, batch norm (its
// constants converted at compile time), relu and the max pool follow them
// into low precision; the sum pool reads the low activations and
// accumulates in f32, and the division by 25 stays f32.
//
// Tolerances. u is the unit roundoff (f16 2^-11 = 4.9e-4, bf16 2^-8 =
// 3.9e-3); M = max|y| = 2.97. The conv outputs lie in [-3.5, 3.5] and half
// of them are cut by relu. On the way to y: the dense result, its bias and
// the bias add are rounded (~3u|y|); each pooled activation carries the
// roundings of the conv result, the bias add, the batch-norm multiply and
// add and of the batch-norm constants (~6u relative), and the average is
// rounded once more before the dense layer; through the 16 weights (|w| <=
// 0.3) that is at most ~9u M, ~12u M in all with every rounding aligned,
// which independent roundings (and the 25-element average) never approach.
// atol = 8u M (f16 1.2e-2, bf16 9e-2); measured 1.7e-3 (1.15u M) and
// 1.75e-2 (1.5u M). rtol = 6u (f16 3e-3, bf16 2.4e-2) on the elements >=
// 50% of M (measured 1.5u and 2.1u); smaller elements are covered by atol.
// --min-abs-err (f16 2e-4, bf16 2e-3) asserts that low precision was used:
// a run that stayed f32 differs by ~1e-6, while rounding y alone moves its
// largest elements by up to u M (1.5e-3, 1.2e-2).
//
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16 placement=greedy})' -o %t.f16.mlir
// RUN: FileCheck %s --check-prefix=IR -DLOW=f16 < %t.f16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.f16.mlir | %{run} > %t.f16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.f16.txt --atol 1.2e-2 --rtol 3e-3 --rel-floor 0.5 --min-abs-err 2e-4 | FileCheck %s --check-prefix=NUM
//
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16 placement=greedy})' -o %t.bf16.mlir
// RUN: FileCheck %s --check-prefix=IR -DLOW=bf16 < %t.bf16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.bf16.mlir | %{run} > %t.bf16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.bf16.txt --atol 9e-2 --rtol 2.4e-2 --rel-floor 0.5 --min-abs-err 2e-3 | FileCheck %s --check-prefix=NUM
//
// The default (optimal) placement, which may keep more in f32 where that
// moves fewer bytes, within the same tolerances:
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16})' -o %t.opt16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.opt16.mlir | %{run} > %t.opt16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.opt16.txt --atol 1.2e-2 --rtol 3e-3 --rel-floor 0.5 --min-abs-err 2e-4 | FileCheck %s --check-prefix=NUM
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16})' -o %t.optbf16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.optbf16.mlir | %{run} > %t.optbf16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.optbf16.txt --atol 9e-2 --rtol 2.4e-2 --rel-floor 0.5 --min-abs-err 2e-3 | FileCheck %s --check-prefix=NUM
//
// NUM: max_abs_err={{.*}} OK

#nhwc = affine_map<(n, h, w, c) -> (n, h, w, c)>
#chan = affine_map<(n, h, w, c) -> (c)>
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#v = affine_map<(i) -> (i)>

// IR-LABEL:  func.func @compute(
// IR-SAME:     -> tensor<2x32xf32>
// The batch-norm scale and shift, converted at compile time.
// IR-DAG:      arith.constant dense<[{{.*}}]> : tensor<16x[[LOW]]>
// IR-DAG:      arith.constant dense<[{{.*}}]> : tensor<16x[[LOW]]>
// IR:          linalg.conv_2d_nhwc_hwcf {{.*}} ins({{.*}} : tensor<2x12x12x4x[[LOW]]>, tensor<3x3x4x16x[[LOW]]>) outs({{.*}} : tensor<2x10x10x16xf32>)
// IR:          arith.truncf {{.*}} : tensor<2x10x10x16xf32> to tensor<2x10x10x16x[[LOW]]>
// IR:          linalg.generic {{.*}} ins({{.*}} : tensor<2x10x10x16x[[LOW]]>, tensor<16x[[LOW]]>) outs({{.*}} : tensor<2x10x10x16x[[LOW]]>)
// IR:            arith.addf {{.*}} : [[LOW]]
// IR:          linalg.generic {{.*}} ins({{.*}} : tensor<2x10x10x16x[[LOW]]>, tensor<16x[[LOW]]>, tensor<16x[[LOW]]>) outs({{.*}} : tensor<2x10x10x16x[[LOW]]>)
// IR:            arith.mulf {{.*}} : [[LOW]]
// IR:            arith.addf {{.*}} : [[LOW]]
// IR:          linalg.generic {{.*}} ins({{.*}} : tensor<2x10x10x16x[[LOW]]>) outs({{.*}} : tensor<2x10x10x16x[[LOW]]>)
// IR:            arith.maximumf {{.*}} : [[LOW]]
// (Pooling windows only give a shape and keep their type.)
// IR:          linalg.pooling_nhwc_max {{.*}} ins({{.*}} : tensor<2x10x10x16x[[LOW]]>, tensor<2x2xf32>) outs({{.*}} : tensor<2x5x5x16x[[LOW]]>)
// The sum pool reads low and accumulates in f32; the division stays f32.
// IR:          linalg.pooling_nhwc_sum {{.*}} ins({{.*}} : tensor<2x5x5x16x[[LOW]]>, tensor<5x5xf32>) outs({{.*}} : tensor<2x1x1x16xf32>)
// IR:          linalg.generic {{.*}} ins({{.*}} : tensor<2x16xf32>) outs({{.*}} : tensor<2x16xf32>)
// IR:            arith.divf {{.*}} : f32
// IR:          linalg.matmul ins({{.*}} : tensor<2x16x[[LOW]]>, tensor<16x32x[[LOW]]>) outs({{.*}} : tensor<2x32xf32>)
// IR:          linalg.generic {{.*}} ins({{.*}} : tensor<2x32x[[LOW]]>, tensor<32x[[LOW]]>) outs({{.*}} : tensor<2x32x[[LOW]]>)
// IR:          arith.extf {{.*}} : tensor<2x32x[[LOW]]> to tensor<2x32xf32>
// IR-NEXT:     return {{.*}} : tensor<2x32xf32>
func.func @compute(%x: tensor<2x12x12x4xf32>, %f: tensor<3x3x4x16xf32>, %bias: tensor<16xf32>,
                   %wd: tensor<16x32xf32>, %bd: tensor<32xf32>) -> tensor<2x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  // Batch norm folded to a per-channel scale and shift:
  // scale = gamma / sqrt(var + eps), shift = beta - mean * scale.
  %bn_scale = arith.constant dense<[0.91, 1.13, 0.87, 1.05, 0.96, 1.21, 0.78, 1.02,
                                    0.99, 0.85, 1.17, 0.93, 1.08, 0.81, 1.12, 0.97]> : tensor<16xf32>
  %bn_shift = arith.constant dense<[0.05, -0.12, 0.21, -0.03, 0.14, -0.25, 0.08, 0.31,
                                    -0.17, 0.02, 0.11, -0.09, 0.26, -0.04, 0.19, -0.22]> : tensor<16xf32>
  %e_conv = tensor.empty() : tensor<2x10x10x16xf32>
  %z_conv = linalg.fill ins(%zero : f32) outs(%e_conv : tensor<2x10x10x16xf32>) -> tensor<2x10x10x16xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %f : tensor<2x12x12x4xf32>, tensor<3x3x4x16xf32>)
      outs(%z_conv : tensor<2x10x10x16xf32>) -> tensor<2x10x10x16xf32>
  %biased = linalg.generic {indexing_maps = [#nhwc, #chan, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %bias : tensor<2x10x10x16xf32>, tensor<16xf32>) outs(%e_conv : tensor<2x10x10x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x10x10x16xf32>
  %bn = linalg.generic {indexing_maps = [#nhwc, #chan, #chan, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%biased, %bn_scale, %bn_shift : tensor<2x10x10x16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e_conv : tensor<2x10x10x16xf32>) {
  ^bb0(%a: f32, %sc: f32, %sh: f32, %o: f32):
    %m = arith.mulf %a, %sc : f32
    %s = arith.addf %m, %sh : f32
    linalg.yield %s : f32
  } -> tensor<2x10x10x16xf32>
  %relu = linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bn : tensor<2x10x10x16xf32>) outs(%e_conv : tensor<2x10x10x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %r = arith.maximumf %a, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<2x10x10x16xf32>
  // 2x2 max pool, stride 2.
  %win2 = tensor.empty() : tensor<2x2xf32>
  %e_pool = tensor.empty() : tensor<2x5x5x16xf32>
  %ninf_pool = linalg.fill ins(%ninf : f32) outs(%e_pool : tensor<2x5x5x16xf32>) -> tensor<2x5x5x16xf32>
  %pool = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%relu, %win2 : tensor<2x10x10x16xf32>, tensor<2x2xf32>)
      outs(%ninf_pool : tensor<2x5x5x16xf32>) -> tensor<2x5x5x16xf32>
  // Global average pool: 5x5 sum pool, then divide by 25.
  %win5 = tensor.empty() : tensor<5x5xf32>
  %e_gap = tensor.empty() : tensor<2x1x1x16xf32>
  %z_gap = linalg.fill ins(%zero : f32) outs(%e_gap : tensor<2x1x1x16xf32>) -> tensor<2x1x1x16xf32>
  %gsum = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%pool, %win5 : tensor<2x5x5x16xf32>, tensor<5x5xf32>)
      outs(%z_gap : tensor<2x1x1x16xf32>) -> tensor<2x1x1x16xf32>
  %gsum2 = tensor.collapse_shape %gsum [[0], [1, 2, 3]] : tensor<2x1x1x16xf32> into tensor<2x16xf32>
  %e_feat = tensor.empty() : tensor<2x16xf32>
  %gap = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gsum2 : tensor<2x16xf32>) outs(%e_feat : tensor<2x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.constant 25.0 : f32
    %d = arith.divf %a, %n : f32
    linalg.yield %d : f32
  } -> tensor<2x16xf32>
  // Dense layer.
  %e_out = tensor.empty() : tensor<2x32xf32>
  %z_out = linalg.fill ins(%zero : f32) outs(%e_out : tensor<2x32xf32>) -> tensor<2x32xf32>
  %mm = linalg.matmul ins(%gap, %wd : tensor<2x16xf32>, tensor<16x32xf32>) outs(%z_out : tensor<2x32xf32>) -> tensor<2x32xf32>
  %out = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bd : tensor<2x32xf32>, tensor<32xf32>) outs(%e_out : tensor<2x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x32xf32>
  return %out : tensor<2x32xf32>
}

// v[i][j][k][l] = s * sin(a i + b j + c k + d l)
func.func @fill4d(%m: memref<?x?x?x?xf32>, %a: f32, %b: f32, %c: f32, %d: f32, %s: f32) {
  linalg.generic {indexing_maps = [#nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%m : memref<?x?x?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %l = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %kk = arith.index_cast %k : index to i32
    %ll = arith.index_cast %l : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fj = arith.sitofp %jj : i32 to f32
    %fk = arith.sitofp %kk : i32 to f32
    %fl = arith.sitofp %ll : i32 to f32
    %xi = arith.mulf %fi, %a : f32
    %xj = arith.mulf %fj, %b : f32
    %xk = arith.mulf %fk, %c : f32
    %xl = arith.mulf %fl, %d : f32
    %s1 = arith.addf %xi, %xj : f32
    %s2 = arith.addf %s1, %xk : f32
    %s3 = arith.addf %s2, %xl : f32
    %t = math.sin %s3 : f32
    %r = arith.mulf %t, %s : f32
    linalg.yield %r : f32
  }
  return
}

// v[i][j] = s * sin(a i + b j + c)
func.func @fill2d(%m: memref<?x?xf32>, %a: f32, %b: f32, %c: f32, %s: f32) {
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%m : memref<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fj = arith.sitofp %jj : i32 to f32
    %x = arith.mulf %fi, %a : f32
    %y = arith.mulf %fj, %b : f32
    %xy = arith.addf %x, %y : f32
    %z = arith.addf %xy, %c : f32
    %t = math.sin %z : f32
    %r = arith.mulf %t, %s : f32
    linalg.yield %r : f32
  }
  return
}

// The driver. Its inputs are written by linalg.generic ops on memrefs in
// the public helpers @fill4d and @fill2d, which the pass leaves in f32 (their
// argument buffers keep f32, as public functions keep their signatures
// with the default keep-io-types, and writing them through low copies
// would only add copies), and turned into tensors with
// bufferization.to_tensor, which has no model and stays f32; so every run
// sees bit-identical inputs:
//   x[n][h][w][c] = sin(1.3 n + 0.37 h + 0.23 w + 0.71 c)
//   f[i][j][c][k] = 0.25 sin(0.9 i - 0.7 j + 0.53 c + 0.41 k)
//   bias[k] = 0.1 sin(0.61 k + 0.2)     Wd[c][j] = 0.3 sin(0.31 c - 0.19 j + 0.4)
//   bd[j] = 0.05 sin(0.47 j - 0.3)
// IR-LABEL:  func.func @main(
// IR:          call @compute({{.*}}) : (tensor<2x12x12x4xf32>, {{.*}}) -> tensor<2x32xf32>
func.func @main() {
  %mx = memref.alloc() : memref<2x12x12x4xf32>
  %dx = memref.cast %mx : memref<2x12x12x4xf32> to memref<?x?x?x?xf32>
  %x_a = arith.constant 1.3 : f32
  %x_b = arith.constant 0.37 : f32
  %x_c = arith.constant 0.23 : f32
  %x_d = arith.constant 0.71 : f32
  %x_s = arith.constant 1.0 : f32
  call @fill4d(%dx, %x_a, %x_b, %x_c, %x_d, %x_s) : (memref<?x?x?x?xf32>, f32, f32, f32, f32, f32) -> ()
  %x = bufferization.to_tensor %mx restrict : memref<2x12x12x4xf32> to tensor<2x12x12x4xf32>
  %mf = memref.alloc() : memref<3x3x4x16xf32>
  %df = memref.cast %mf : memref<3x3x4x16xf32> to memref<?x?x?x?xf32>
  %f_a = arith.constant 0.9 : f32
  %f_b = arith.constant -0.7 : f32
  %f_c = arith.constant 0.53 : f32
  %f_d = arith.constant 0.41 : f32
  %f_s = arith.constant 0.25 : f32
  call @fill4d(%df, %f_a, %f_b, %f_c, %f_d, %f_s) : (memref<?x?x?x?xf32>, f32, f32, f32, f32, f32) -> ()
  %f = bufferization.to_tensor %mf restrict : memref<3x3x4x16xf32> to tensor<3x3x4x16xf32>
  %mb = memref.alloc() : memref<1x16xf32>
  %db = memref.cast %mb : memref<1x16xf32> to memref<?x?xf32>
  %b_a = arith.constant 0.0 : f32
  %b_b = arith.constant 0.61 : f32
  %b_c = arith.constant 0.2 : f32
  %b_s = arith.constant 0.1 : f32
  call @fill2d(%db, %b_a, %b_b, %b_c, %b_s) : (memref<?x?xf32>, f32, f32, f32, f32) -> ()
  %mb1 = memref.collapse_shape %mb [[0, 1]] : memref<1x16xf32> into memref<16xf32>
  %bias = bufferization.to_tensor %mb1 restrict : memref<16xf32> to tensor<16xf32>
  %mwd = memref.alloc() : memref<16x32xf32>
  %dwd = memref.cast %mwd : memref<16x32xf32> to memref<?x?xf32>
  %wd_a = arith.constant 0.31 : f32
  %wd_b = arith.constant -0.19 : f32
  %wd_c = arith.constant 0.4 : f32
  %wd_s = arith.constant 0.3 : f32
  call @fill2d(%dwd, %wd_a, %wd_b, %wd_c, %wd_s) : (memref<?x?xf32>, f32, f32, f32, f32) -> ()
  %wd = bufferization.to_tensor %mwd restrict : memref<16x32xf32> to tensor<16x32xf32>
  %mbd = memref.alloc() : memref<1x32xf32>
  %dbd = memref.cast %mbd : memref<1x32xf32> to memref<?x?xf32>
  %bd_a = arith.constant 0.0 : f32
  %bd_b = arith.constant 0.47 : f32
  %bd_c = arith.constant -0.3 : f32
  %bd_s = arith.constant 0.05 : f32
  call @fill2d(%dbd, %bd_a, %bd_b, %bd_c, %bd_s) : (memref<?x?xf32>, f32, f32, f32, f32) -> ()
  %mbd1 = memref.collapse_shape %mbd [[0, 1]] : memref<1x32xf32> into memref<32xf32>
  %bd = bufferization.to_tensor %mbd1 restrict : memref<32xf32> to tensor<32xf32>
  %y = call @compute(%x, %f, %bias, %wd, %bd)
      : (tensor<2x12x12x4xf32>, tensor<3x3x4x16xf32>, tensor<16xf32>, tensor<16x32xf32>, tensor<32xf32>) -> tensor<2x32xf32>
  // Stored into a ranked f32 memref, which the pass keeps f32 (an unranked view of it is printed), and
  // printed from there (see README.md in this directory).
  %my = memref.alloc() : memref<2x32xf32>
  bufferization.materialize_in_destination %y in restrict writable %my
      : (tensor<2x32xf32>, memref<2x32xf32>) -> ()
  %mu = memref.cast %my : memref<2x32xf32> to memref<*xf32>
  call @printMemrefF32(%mu) : (memref<*xf32>) -> ()
  memref.dealloc %mx : memref<2x12x12x4xf32>
  memref.dealloc %mf : memref<3x3x4x16xf32>
  memref.dealloc %mb : memref<1x16xf32>
  memref.dealloc %mwd : memref<16x32xf32>
  memref.dealloc %mbd : memref<1x32xf32>
  memref.dealloc %my : memref<2x32xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)

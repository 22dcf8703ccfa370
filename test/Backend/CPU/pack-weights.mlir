// The pass takes linalg.generic ops (amp-lower-to-llvm generalizes named
// ops before it).
// RUN: amp-opt %s -p 'builtin.module(func.func(linalg-generalize-named-ops,amp-pack-weights))' -split-input-file | FileCheck %s

// A convolution's constant filter (f, kh, kw, c) becomes (kh, kw, c, f):
// the output channel, the output's innermost index, is innermost.
// CHECK-DAG: #[[FILTER:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>
// CHECK-LABEL: func.func @conv_filter
// CHECK: %[[W:.+]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]]]> : tensor<1x1x2x2xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[FILTER]], #{{.+}}]
// CHECK-SAME: ins(%{{.+}}, %[[W]] :
func.func @conv_filter(%x: tensor<1x4x4x2xf32>, %init: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  // w[f][0][0][c]: f = 0 -> (1, 3), f = 1 -> (2, 4).
  %w = arith.constant dense<[[[[1.0, 3.0]]], [[[2.0, 4.0]]]]> : tensor<2x1x1x2xf32>
  %r = linalg.conv_2d_nhwc_fhwc ins(%x, %w : tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) outs(%init : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %r : tensor<1x4x4x2xf32>
}

// -----

// A linear layer's weight (n, k), stored as dense_resource in f16, becomes
// (k, n), still f16.
// CHECK-DAG: #[[KN:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func.func @linear_f16
// CHECK: %[[W:.+]] = arith.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf16>
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[KN]], #{{.+}}]
// CHECK-SAME: ins(%{{.+}}, %[[W]] :
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @linear_f16(%x: tensor<3x2xf16>, %init: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // [[1, 2], [3, 4]] in f16, little-endian.
  %w = arith.constant dense_resource<weight> : tensor<2x2xf16>
  %r = linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<3x2xf16>, tensor<2x2xf16>) outs(%init : tensor<3x2xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      weight: "0x02000000003C00400042004400"
    }
  }
#-}

// -----

// Left alone: weights already in kernel order, splats, non-constant
// operands, and ops that do not reduce.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: tensor<2x2xf32> = arith.constant
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %cst :
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %cst_0 :
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %{{.+}} :
// CHECK: linalg.generic
// CHECK-SAME: ["parallel", "parallel"]
// CHECK-SAME: ins(%cst :
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @unchanged(%x: tensor<2x2xf32>, %y: tensor<2x2xf32>, %init: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %s = arith.constant dense<2.0> : tensor<2x2xf32>
  %a = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  %b = linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %s : tensor<2x2xf32>, tensor<2x2xf32>) outs(%init : tensor<2x2xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2xf32>
  %c = linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<2x2xf32>, tensor<2x2xf32>) outs(%init : tensor<2x2xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<2x2xf32>) outs(%init : tensor<2x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<2x2xf32>
  return %a, %b, %c, %t : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// With bf16-pairs, the constant of an f32 sum of bf16 products goes to the
// pair layout of the AVX512-BF16 dot product: (k, n) of shape 4x4 becomes
// (k floordiv 2, n, k mod 2) of shape 2x4x2, w'[kk][n][p] = w[2 kk + p][n].
// Without the option it is left as it is (already in kernel order).
// RUN: amp-opt %s -p 'builtin.module(func.func(amp-pack-weights{bf16-pairs}))' -split-input-file | FileCheck %s --check-prefix=PAIRS
// PAIRS: #[[$PAIRMAP:.+]] = affine_map<(d0, d1, d2) -> (d2 floordiv 2, d1, d2 mod 2)>
// PAIRS-LABEL: func.func @bf16_pairs
// PAIRS: %[[W:.+]] = arith.constant dense<{{\[\[\[}}0.000000e+00, 4.000000e+00], [1.000000e+00, 5.000000e+00], [2.000000e+00, 6.000000e+00], [3.000000e+00, 7.000000e+00]], {{\[\[}}8.000000e+00, 1.200000e+01], [9.000000e+00, 1.300000e+01], [1.000000e+01, 1.400000e+01], [1.100000e+01, 1.500000e+01]]]> : tensor<2x4x2xbf16>
// PAIRS: linalg.generic {indexing_maps = [#{{.+}}, #[[$PAIRMAP]], #{{.+}}]
// PAIRS-SAME: ins(%{{.+}}, %[[W]] :
// CHECK-LABEL: func.func @bf16_pairs
// CHECK: arith.constant {{.*}} : tensor<4x4xbf16>
#mk2 = affine_map<(m, n, k) -> (m, k)>
#kn2 = affine_map<(m, n, k) -> (k, n)>
#mn2 = affine_map<(m, n, k) -> (m, n)>
func.func @bf16_pairs(%x: tensor<3x4xbf16>, %init: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0]]> : tensor<4x4xbf16>
  %r = linalg.generic {indexing_maps = [#mk2, #kn2, #mn2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<3x4xbf16>, tensor<4x4xbf16>) outs(%init : tensor<3x4xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %ae = arith.extf %a : bf16 to f32
    %be = arith.extf %b : bf16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

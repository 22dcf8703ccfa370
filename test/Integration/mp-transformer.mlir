// A pre-LayerNorm transformer block on a 16x32 sequence, written in linalg
// on tensors, run on the CPU in f32 and again after --mixed-precision has
// converted it to f16 (then bf16); the results must agree within the
// tolerances below.
//
//   xn  = LayerNorm(x)                 mean and variance as add-reduction
//                                      generics, rsqrt
//   p   = softmax(xn Wq (xn Wk)^T / sqrt(32))   max-reduction, exp,
//                                      sum-reduction, divide (generics)
//   r   = x + (p (xn Wv)) Wo           residual
//   y   = r + GELU(LayerNorm(r) W1 + b1) W2     tanh-GELU, residual
//
// REQUIRES: mlir-runner
// DEFINE: %{run} = mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so
//
// f32 reference: the program as written (it agrees with an f64 model of
// the block to 8e-6).
// RUN: bash %S/lower.sh mlir-opt %s | %{run} > %t.f32.txt
//
// What the pass makes of it (checked below): the eight matmuls take
// low operands and keep f32 accumulators, their results rounded to low; the
// transpose, the row max, both residual adds and the bias + GELU follow
// them into low precision. Both LayerNorms' means accumulate in f32 (the
// second reads the low residual), their centring, variance and rsqrt stay
// f32, and so do exp, the softmax sum and its division.
//
// Tolerances. u is the unit roundoff (f16 2^-11 = 4.9e-4, bf16 2^-8 =
// 3.9e-3); M = max|y| = 2.61 (max|r| = 2.25, max|MLP out| = 1.93, max|h|
// = 2.4). Every value stored in low precision is off by at most u
// relative. On the way to y: the final add (u|y|), r (x rounded and the add:
// 2u|r|), the projection and the MLP output (their rounded results, plus
// the rounded operands of 32- and 64-term dot products whose errors partly
// cancel), GELU computed in low (a few roundings of |h| <= 2.4, scaled down
// by W2's 0.1 entries); the f32 softmax and LayerNorm statistics add
// nothing comparable. With every error aligned this is about 8u M, so
// atol = 8u M (f16 1e-2, bf16 8e-2); measured 1.6e-3 (1.3u M) and 1.9e-2
// (1.9u M). rtol = 6u (f16 3e-3, bf16 2.4e-2) on the elements >= 50% of M,
// whose error is dominated by their own roundings (measured 1.6u and 1.7u);
// smaller elements sit next to cancellations and are covered by atol.
// --min-abs-err (f16 2e-4, bf16 2e-3) asserts that low precision was used:
// a run that stayed f32 differs by ~1e-6, while rounding y alone moves its
// largest elements by up to u M (1.3e-3, 1e-2).
//
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16 placement=greedy})' -o %t.f16.mlir
// RUN: FileCheck %s --check-prefix=IR -DLOW=f16 < %t.f16.mlir
// RUN: FileCheck %s --check-prefix=NOLOW < %t.f16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.f16.mlir | %{run} > %t.f16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.f16.txt --atol 1e-2 --rtol 3e-3 --rel-floor 0.5 --min-abs-err 2e-4 | FileCheck %s --check-prefix=NUM
//
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16 placement=greedy})' -o %t.bf16.mlir
// RUN: FileCheck %s --check-prefix=IR -DLOW=bf16 < %t.bf16.mlir
// RUN: FileCheck %s --check-prefix=NOLOW < %t.bf16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.bf16.mlir | %{run} > %t.bf16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.bf16.txt --atol 8e-2 --rtol 2.4e-2 --rel-floor 0.5 --min-abs-err 2e-3 | FileCheck %s --check-prefix=NUM
//
// The default (optimal) placement, which may keep more in f32 where that
// moves fewer bytes, within the same tolerances:
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16})' -o %t.opt16.mlir
// RUN: FileCheck %s --check-prefix=NOLOW < %t.opt16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.opt16.mlir | %{run} > %t.opt16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.opt16.txt --atol 1e-2 --rtol 3e-3 --rel-floor 0.5 --min-abs-err 2e-4 | FileCheck %s --check-prefix=NUM
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16})' -o %t.optbf16.mlir
// RUN: FileCheck %s --check-prefix=NOLOW < %t.optbf16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.optbf16.mlir | %{run} > %t.optbf16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.optbf16.txt --atol 8e-2 --rtol 2.4e-2 --rel-floor 0.5 --min-abs-err 2e-3 | FileCheck %s --check-prefix=NUM
//
// amp's own CPU pipeline (amp-lower-to-llvm: every cast fused into a
// compute kernel) gives the same numbers:
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16},amp-lower-to-llvm)' | %{run} > %t.pipe16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.pipe16.txt --atol 1e-2 --rtol 3e-3 --rel-floor 0.5 --min-abs-err 2e-4 | FileCheck %s --check-prefix=NUM
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16},amp-lower-to-llvm)' | %{run} > %t.pipebf16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.pipebf16.txt --atol 8e-2 --rtol 2.4e-2 --rel-floor 0.5 --min-abs-err 2e-3 | FileCheck %s --check-prefix=NUM
//
// NUM: max_abs_err={{.*}} OK
//
// Nothing exponentiates, takes a root or a log in low precision anywhere:
// NOLOW-NOT: math.{{exp|rsqrt|sqrt|log}} {{.*}} : {{b?f16}}

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
#v = affine_map<(i) -> (i)>

// IR-LABEL:  func.func @compute(
// IR-SAME:     -> tensor<16x32xf32>
// LayerNorm 1: both sums accumulate in f32 (the mean may read the argument
// in f32 or cast to low), rsqrt in f32.
// IR:          linalg.generic {{.*}}"reduction"]} ins({{.*}} : tensor<16x32x{{b?f(16|32)}}>) outs({{.*}} : tensor<16xf32>)
// IR:            arith.addf {{.*}} : f32
// IR:          linalg.generic {{.*}}"reduction"]} ins({{.*}} : tensor<16x32xf32>) outs({{.*}} : tensor<16xf32>)
// IR:            arith.addf {{.*}} : f32
// IR:            math.rsqrt {{.*}} : f32
// Q, K, V, Q K^T: low operands, f32 accumulators.
// IR:          linalg.matmul ins({{.*}} : tensor<16x32x[[LOW]]>, tensor<32x32x[[LOW]]>) outs({{.*}} : tensor<16x32xf32>)
// IR:          linalg.matmul ins({{.*}} : tensor<16x32x[[LOW]]>, tensor<32x32x[[LOW]]>) outs({{.*}} : tensor<16x32xf32>)
// IR:          linalg.matmul ins({{.*}} : tensor<16x32x[[LOW]]>, tensor<32x32x[[LOW]]>) outs({{.*}} : tensor<16x32xf32>)
// IR:          linalg.transpose ins({{.*}} : tensor<16x32x[[LOW]]>) outs({{.*}} : tensor<32x16x[[LOW]]>)
// IR:          linalg.matmul ins({{.*}} : tensor<16x32x[[LOW]]>, tensor<32x16x[[LOW]]>) outs({{.*}} : tensor<16x16xf32>)
// Softmax: the max is exact in low; exp, the sum and the division are f32.
// IR:            arith.maximumf {{.*}} : [[LOW]]
// IR:          linalg.generic {{.*}} ins({{.*}} : tensor<16x16xf32>, tensor<16xf32>) outs({{.*}} : tensor<16x16xf32>)
// IR:            math.exp {{.*}} : f32
// IR:          linalg.generic {{.*}}"reduction"]} ins({{.*}} : tensor<16x16xf32>) outs({{.*}} : tensor<16xf32>)
// IR-NEXT:     ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// IR-NEXT:       arith.addf {{.*}} : f32
// IR:            arith.divf {{.*}} : f32
// Attention times V, output projection, residual.
// IR:          linalg.matmul ins({{.*}} : tensor<16x16x[[LOW]]>, tensor<16x32x[[LOW]]>) outs({{.*}} : tensor<16x32xf32>)
// IR:          linalg.matmul ins({{.*}} : tensor<16x32x[[LOW]]>, tensor<32x32x[[LOW]]>) outs({{.*}} : tensor<16x32xf32>)
// IR:          linalg.add ins({{.*}} : tensor<16x32x[[LOW]]>, tensor<16x32x[[LOW]]>) outs({{.*}} : tensor<16x32x[[LOW]]>)
// LayerNorm 2: its mean reads the low residual and accumulates in f32.
// IR:          linalg.generic {{.*}}"reduction"]} ins({{.*}} : tensor<16x32x[[LOW]]>) outs({{.*}} : tensor<16xf32>)
// IR-NEXT:     ^bb0(%{{.*}}: [[LOW]], %{{.*}}: f32):
// IR-NEXT:       arith.extf {{.*}} : [[LOW]] to f32
// IR-NEXT:       arith.addf {{.*}} : f32
// IR:            math.rsqrt {{.*}} : f32
// MLP: matmul, bias + GELU in low, matmul, residual.
// IR:          linalg.matmul ins({{.*}} : tensor<16x32x[[LOW]]>, tensor<32x64x[[LOW]]>) outs({{.*}} : tensor<16x64xf32>)
// IR:          linalg.generic {{.*}} ins({{.*}} : tensor<16x64x[[LOW]]>, tensor<64x[[LOW]]>) outs({{.*}} : tensor<16x64x[[LOW]]>)
// IR:            math.tanh {{.*}} : [[LOW]]
// IR:          linalg.matmul ins({{.*}} : tensor<16x64x[[LOW]]>, tensor<64x32x[[LOW]]>) outs({{.*}} : tensor<16x32xf32>)
// IR:          linalg.add ins({{.*}} : tensor<16x32x[[LOW]]>, tensor<16x32x[[LOW]]>) outs({{.*}} : tensor<16x32x[[LOW]]>)
// IR:          arith.extf {{.*}} : tensor<16x32x[[LOW]]> to tensor<16x32xf32>
// IR-NEXT:     return {{.*}} : tensor<16x32xf32>

func.func @compute(%x: tensor<16x32xf32>, %gamma: tensor<32xf32>, %beta: tensor<32xf32>,
                   %gamma2: tensor<32xf32>, %beta2: tensor<32xf32>,
                   %wq: tensor<32x32xf32>, %wk: tensor<32x32xf32>, %wv: tensor<32x32xf32>,
                   %wo: tensor<32x32xf32>, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>,
                   %w2: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e16 = tensor.empty() : tensor<16xf32>
  %e16x16 = tensor.empty() : tensor<16x16xf32>
  %e16x32 = tensor.empty() : tensor<16x32xf32>
  %e32x16 = tensor.empty() : tensor<32x16xf32>
  %e16x64 = tensor.empty() : tensor<16x64xf32>
  %z16 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
  %z16x16 = linalg.fill ins(%zero : f32) outs(%e16x16 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %z16x32 = linalg.fill ins(%zero : f32) outs(%e16x32 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %z16x64 = linalg.fill ins(%zero : f32) outs(%e16x64 : tensor<16x64xf32>) -> tensor<16x64xf32>

  // LayerNorm 1 over the hidden dimension: mean, centre, variance, rsqrt,
  // scale and shift.
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x32xf32>) outs(%z16 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %mean = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%e16 : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %inv = arith.constant 0.03125 : f32
    %m = arith.mulf %a, %inv : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %xc = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean : tensor<16x32xf32>, tensor<16xf32>) outs(%e16x32 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  } -> tensor<16x32xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xc : tensor<16x32xf32>) outs(%z16 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %p = arith.mulf %a, %a : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %rstd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%sq : tensor<16xf32>) outs(%e16 : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %inv = arith.constant 0.03125 : f32
    %eps = arith.constant 1.0e-5 : f32
    %var = arith.mulf %a, %inv : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %xn = linalg.generic {indexing_maps = [#id, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc, %rstd, %gamma, %beta : tensor<16x32xf32>, tensor<16xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%e16x32 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %r: f32, %g: f32, %b: f32, %o: f32):
    %n = arith.mulf %a, %r : f32
    %s = arith.mulf %n, %g : f32
    %t = arith.addf %s, %b : f32
    linalg.yield %t : f32
  } -> tensor<16x32xf32>

  // Single-head attention.
  %q = linalg.matmul ins(%xn, %wq : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z16x32 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %k = linalg.matmul ins(%xn, %wk : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z16x32 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %val = linalg.matmul ins(%xn, %wv : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z16x32 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %kt = linalg.transpose ins(%k : tensor<16x32xf32>) outs(%e32x16 : tensor<32x16xf32>) permutation = [1, 0]
  %qk = linalg.matmul ins(%q, %kt : tensor<16x32xf32>, tensor<32x16xf32>) outs(%z16x16 : tensor<16x16xf32>) -> tensor<16x16xf32>
  // softmax(qk / sqrt(32)) along rows: max, exp, sum, divide.
  %ninf16 = linalg.fill ins(%ninf : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%qk : tensor<16x16xf32>) outs(%ninf16 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%qk, %mx : tensor<16x16xf32>, tensor<16xf32>) outs(%e16x16 : tensor<16x16xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %scale = arith.constant 0.176776695 : f32
    %d = arith.subf %a, %m : f32
    %s = arith.mulf %d, %scale : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  } -> tensor<16x16xf32>
  %den = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<16x16xf32>) outs(%z16 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %probs = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %den : tensor<16x16xf32>, tensor<16xf32>) outs(%e16x16 : tensor<16x16xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  } -> tensor<16x16xf32>
  %att = linalg.matmul ins(%probs, %val : tensor<16x16xf32>, tensor<16x32xf32>) outs(%z16x32 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %proj = linalg.matmul ins(%att, %wo : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z16x32 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %res = linalg.add ins(%x, %proj : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e16x32 : tensor<16x32xf32>) -> tensor<16x32xf32>

  // MLP on LayerNorm(res), with tanh-GELU and a second residual.
  %sum2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%res : tensor<16x32xf32>) outs(%z16 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %mean2 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%sum2 : tensor<16xf32>) outs(%e16 : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %inv = arith.constant 0.03125 : f32
    %m = arith.mulf %a, %inv : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %xc2 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%res, %mean2 : tensor<16x32xf32>, tensor<16xf32>) outs(%e16x32 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  } -> tensor<16x32xf32>
  %sq2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xc2 : tensor<16x32xf32>) outs(%z16 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %p = arith.mulf %a, %a : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %rstd2 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%sq2 : tensor<16xf32>) outs(%e16 : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %inv = arith.constant 0.03125 : f32
    %eps = arith.constant 1.0e-5 : f32
    %var = arith.mulf %a, %inv : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %xn2 = linalg.generic {indexing_maps = [#id, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xc2, %rstd2, %gamma2, %beta2 : tensor<16x32xf32>, tensor<16xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%e16x32 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %r: f32, %g: f32, %b: f32, %o: f32):
    %n = arith.mulf %a, %r : f32
    %s = arith.mulf %n, %g : f32
    %t = arith.addf %s, %b : f32
    linalg.yield %t : f32
  } -> tensor<16x32xf32>

  %h = linalg.matmul ins(%xn2, %w1 : tensor<16x32xf32>, tensor<32x64xf32>) outs(%z16x64 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %g = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<16x64xf32>, tensor<64xf32>) outs(%e16x64 : tensor<16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %c0 = arith.constant 0.7978846 : f32
    %c1 = arith.constant 0.044715 : f32
    %y = arith.addf %a, %b : f32
    %y2 = arith.mulf %y, %y : f32
    %y3 = arith.mulf %y2, %y : f32
    %t0 = arith.mulf %y3, %c1 : f32
    %t1 = arith.addf %y, %t0 : f32
    %t2 = arith.mulf %t1, %c0 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %t3, %one : f32
    %t5 = arith.mulf %t4, %half : f32
    %r = arith.mulf %t5, %y : f32
    linalg.yield %r : f32
  } -> tensor<16x64xf32>
  %mo = linalg.matmul ins(%g, %w2 : tensor<16x64xf32>, tensor<64x32xf32>) outs(%z16x32 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %out = linalg.add ins(%res, %mo : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e16x32 : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %out : tensor<16x32xf32>
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

// v[i] = s * sin(a i + c) + d
func.func @fill1d(%m: memref<?xf32>, %a: f32, %c: f32, %s: f32, %d: f32) {
  linalg.generic {indexing_maps = [#v], iterator_types = ["parallel"]}
      outs(%m : memref<?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %x = arith.mulf %fi, %a : f32
    %z = arith.addf %x, %c : f32
    %t = math.sin %z : f32
    %r0 = arith.mulf %t, %s : f32
    %r = arith.addf %r0, %d : f32
    linalg.yield %r : f32
  }
  return
}

// The driver. Its inputs are written by linalg.generic ops on memrefs in
// the public helpers @fill2d and @fill1d, which the pass leaves in f32 (their
// argument buffers keep f32, as public functions keep their signatures
// with the default keep-io-types, and writing them through low copies
// would only add copies), and turned into tensors with
// bufferization.to_tensor, which has no model and stays f32; so every run
// sees bit-identical inputs:
//   x = sin(0.37 i + 0.11 j); Wq, Wk, Wv, Wo, W1, W2 = 0.1 to 0.15 times
//   sin(a i + b j + c); gamma = 1 + 0.2 sin(.), beta, b1 = 0.1 sin(.).
// The scaled scores lie in [-6.8, 7.4], so the softmax rows are neither
// uniform nor one-hot (largest probability per row 0.2 to 0.72).
// IR-LABEL:  func.func @main(
// IR:          call @compute({{.*}}) : (tensor<16x32xf32>, {{.*}}) -> tensor<16x32xf32>
func.func @main() {
  %mx = memref.alloc() : memref<16x32xf32>
  %dx = memref.cast %mx : memref<16x32xf32> to memref<?x?xf32>
  %x_a = arith.constant 0.37 : f32
  %x_b = arith.constant 0.11 : f32
  %x_c = arith.constant 0.0 : f32
  %x_s = arith.constant 1.0 : f32
  call @fill2d(%dx, %x_a, %x_b, %x_c, %x_s) : (memref<?x?xf32>, f32, f32, f32, f32) -> ()
  %x = bufferization.to_tensor %mx restrict : memref<16x32xf32> to tensor<16x32xf32>
  %mwq = memref.alloc() : memref<32x32xf32>
  %dwq = memref.cast %mwq : memref<32x32xf32> to memref<?x?xf32>
  %wq_a = arith.constant 0.23 : f32
  %wq_b = arith.constant -0.41 : f32
  %wq_c = arith.constant 0.5 : f32
  %wq_s = arith.constant 0.1 : f32
  call @fill2d(%dwq, %wq_a, %wq_b, %wq_c, %wq_s) : (memref<?x?xf32>, f32, f32, f32, f32) -> ()
  %wq = bufferization.to_tensor %mwq restrict : memref<32x32xf32> to tensor<32x32xf32>
  %mwk = memref.alloc() : memref<32x32xf32>
  %dwk = memref.cast %mwk : memref<32x32xf32> to memref<?x?xf32>
  %wk_a = arith.constant 0.19 : f32
  %wk_b = arith.constant 0.53 : f32
  %wk_c = arith.constant -0.2 : f32
  %wk_s = arith.constant 0.1 : f32
  call @fill2d(%dwk, %wk_a, %wk_b, %wk_c, %wk_s) : (memref<?x?xf32>, f32, f32, f32, f32) -> ()
  %wk = bufferization.to_tensor %mwk restrict : memref<32x32xf32> to tensor<32x32xf32>
  %mwv = memref.alloc() : memref<32x32xf32>
  %dwv = memref.cast %mwv : memref<32x32xf32> to memref<?x?xf32>
  %wv_a = arith.constant -0.31 : f32
  %wv_b = arith.constant 0.17 : f32
  %wv_c = arith.constant 1.0 : f32
  %wv_s = arith.constant 0.15 : f32
  call @fill2d(%dwv, %wv_a, %wv_b, %wv_c, %wv_s) : (memref<?x?xf32>, f32, f32, f32, f32) -> ()
  %wv = bufferization.to_tensor %mwv restrict : memref<32x32xf32> to tensor<32x32xf32>
  %mwo = memref.alloc() : memref<32x32xf32>
  %dwo = memref.cast %mwo : memref<32x32xf32> to memref<?x?xf32>
  %wo_a = arith.constant 0.29 : f32
  %wo_b = arith.constant 0.43 : f32
  %wo_c = arith.constant 0.3 : f32
  %wo_s = arith.constant 0.1 : f32
  call @fill2d(%dwo, %wo_a, %wo_b, %wo_c, %wo_s) : (memref<?x?xf32>, f32, f32, f32, f32) -> ()
  %wo = bufferization.to_tensor %mwo restrict : memref<32x32xf32> to tensor<32x32xf32>
  %mw1 = memref.alloc() : memref<32x64xf32>
  %dw1 = memref.cast %mw1 : memref<32x64xf32> to memref<?x?xf32>
  %w1_a = arith.constant 0.13 : f32
  %w1_b = arith.constant -0.27 : f32
  %w1_c = arith.constant 0.7 : f32
  %w1_s = arith.constant 0.1 : f32
  call @fill2d(%dw1, %w1_a, %w1_b, %w1_c, %w1_s) : (memref<?x?xf32>, f32, f32, f32, f32) -> ()
  %w1 = bufferization.to_tensor %mw1 restrict : memref<32x64xf32> to tensor<32x64xf32>
  %mw2 = memref.alloc() : memref<64x32xf32>
  %dw2 = memref.cast %mw2 : memref<64x32xf32> to memref<?x?xf32>
  %w2_a = arith.constant 0.21 : f32
  %w2_b = arith.constant 0.37 : f32
  %w2_c = arith.constant -0.6 : f32
  %w2_s = arith.constant 0.1 : f32
  call @fill2d(%dw2, %w2_a, %w2_b, %w2_c, %w2_s) : (memref<?x?xf32>, f32, f32, f32, f32) -> ()
  %w2 = bufferization.to_tensor %mw2 restrict : memref<64x32xf32> to tensor<64x32xf32>
  %mgamma = memref.alloc() : memref<32xf32>
  %dgamma = memref.cast %mgamma : memref<32xf32> to memref<?xf32>
  %gamma_a = arith.constant 0.7 : f32
  %gamma_c = arith.constant 0.0 : f32
  %gamma_s = arith.constant 0.2 : f32
  %gamma_d = arith.constant 1.0 : f32
  call @fill1d(%dgamma, %gamma_a, %gamma_c, %gamma_s, %gamma_d) : (memref<?xf32>, f32, f32, f32, f32) -> ()
  %gamma = bufferization.to_tensor %mgamma restrict : memref<32xf32> to tensor<32xf32>
  %mbeta = memref.alloc() : memref<32xf32>
  %dbeta = memref.cast %mbeta : memref<32xf32> to memref<?xf32>
  %beta_a = arith.constant 0.45 : f32
  %beta_c = arith.constant 0.3 : f32
  %beta_s = arith.constant 0.1 : f32
  %beta_d = arith.constant 0.0 : f32
  call @fill1d(%dbeta, %beta_a, %beta_c, %beta_s, %beta_d) : (memref<?xf32>, f32, f32, f32, f32) -> ()
  %beta = bufferization.to_tensor %mbeta restrict : memref<32xf32> to tensor<32xf32>
  %mgamma2 = memref.alloc() : memref<32xf32>
  %dgamma2 = memref.cast %mgamma2 : memref<32xf32> to memref<?xf32>
  %gamma2_a = arith.constant 0.53 : f32
  %gamma2_c = arith.constant 0.4 : f32
  %gamma2_s = arith.constant 0.2 : f32
  %gamma2_d = arith.constant 1.0 : f32
  call @fill1d(%dgamma2, %gamma2_a, %gamma2_c, %gamma2_s, %gamma2_d) : (memref<?xf32>, f32, f32, f32, f32) -> ()
  %gamma2 = bufferization.to_tensor %mgamma2 restrict : memref<32xf32> to tensor<32xf32>
  %mbeta2 = memref.alloc() : memref<32xf32>
  %dbeta2 = memref.cast %mbeta2 : memref<32xf32> to memref<?xf32>
  %beta2_a = arith.constant 0.29 : f32
  %beta2_c = arith.constant -0.5 : f32
  %beta2_s = arith.constant 0.1 : f32
  %beta2_d = arith.constant 0.0 : f32
  call @fill1d(%dbeta2, %beta2_a, %beta2_c, %beta2_s, %beta2_d) : (memref<?xf32>, f32, f32, f32, f32) -> ()
  %beta2 = bufferization.to_tensor %mbeta2 restrict : memref<32xf32> to tensor<32xf32>
  %mb1 = memref.alloc() : memref<64xf32>
  %db1 = memref.cast %mb1 : memref<64xf32> to memref<?xf32>
  %b1_a = arith.constant 0.33 : f32
  %b1_c = arith.constant 0.1 : f32
  %b1_s = arith.constant 0.1 : f32
  %b1_d = arith.constant 0.0 : f32
  call @fill1d(%db1, %b1_a, %b1_c, %b1_s, %b1_d) : (memref<?xf32>, f32, f32, f32, f32) -> ()
  %b1 = bufferization.to_tensor %mb1 restrict : memref<64xf32> to tensor<64xf32>
  %y = call @compute(%x, %gamma, %beta, %gamma2, %beta2, %wq, %wk, %wv, %wo, %w1, %b1, %w2)
      : (tensor<16x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x32xf32>,
         tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>)
      -> tensor<16x32xf32>
  // Stored into a ranked f32 memref, which the pass keeps f32 (an unranked view of it is printed), and
  // printed from there (see README.md in this directory).
  %my = memref.alloc() : memref<16x32xf32>
  bufferization.materialize_in_destination %y in restrict writable %my
      : (tensor<16x32xf32>, memref<16x32xf32>) -> ()
  %mu = memref.cast %my : memref<16x32xf32> to memref<*xf32>
  call @printMemrefF32(%mu) : (memref<*xf32>) -> ()
  memref.dealloc %mx : memref<16x32xf32>
  memref.dealloc %mwq : memref<32x32xf32>
  memref.dealloc %mwk : memref<32x32xf32>
  memref.dealloc %mwv : memref<32x32xf32>
  memref.dealloc %mwo : memref<32x32xf32>
  memref.dealloc %mw1 : memref<32x64xf32>
  memref.dealloc %mw2 : memref<64x32xf32>
  memref.dealloc %mgamma : memref<32xf32>
  memref.dealloc %mbeta : memref<32xf32>
  memref.dealloc %mgamma2 : memref<32xf32>
  memref.dealloc %mbeta2 : memref<32xf32>
  memref.dealloc %mb1 : memref<64xf32>
  memref.dealloc %my : memref<16x32xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)

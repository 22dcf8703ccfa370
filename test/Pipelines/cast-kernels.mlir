// After amp's kernel fusion no kernel only casts: every cast sits inside the
// kernel of its producer or consumer, except a cast read by a reduction
// that would evaluate it several times per element (a matmul reads each
// element of A once per column of B): that cast is a kernel of its own,
// which writes the low-precision copy once. A transformer block with a
// linalg.softmax and a layer norm written as generics, in f16 and bf16, for
// each placement.
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16},amp-fuse-kernels,amp-test-count-cast-kernels)' -o /dev/null | FileCheck %s
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16},amp-fuse-kernels,amp-test-count-cast-kernels)' -o /dev/null | FileCheck %s
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{placement=greedy},amp-fuse-kernels,amp-test-count-cast-kernels)' -o /dev/null | FileCheck %s
// CHECK: cast-only kernels: 0 of {{[1-9][0-9]*}} (and {{[1-9][0-9]*}} that feed reductions
// The kernels do convert: casts are there, inside compute.
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16},amp-fuse-kernels)' | FileCheck %s --check-prefix=FUSED
// FUSED: linalg.generic
// FUSED: arith.truncf %{{.+}} : f32 to f16
// FUSED: arith.mulf
// Without fusion, the converted program has cast kernels to remove.
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16},func.func(convert-elementwise-to-linalg),amp-test-count-cast-kernels)' -o /dev/null | FileCheck %s --check-prefix=UNFUSED
// UNFUSED: cast-only kernels: {{[1-9][0-9]*}} of
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @model(%x: tensor<16x32xf32>, %wq: tensor<32x32xf32>, %wk: tensor<32x32xf32>, %wv: tensor<32x32xf32>, %wo: tensor<32x32xf32>, %w1: tensor<32x32xf32>, %w2: tensor<32x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 32.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %scale = arith.constant 0.17677669529663687 : f32
  %erow = tensor.empty() : tensor<16xf32>
  %zrow = linalg.fill ins(%zero : f32) outs(%erow : tensor<16xf32>) -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16x32xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %e2t = tensor.empty() : tensor<32x16xf32>
  %esq = tensor.empty() : tensor<16x16xf32>
  %zsq = linalg.fill ins(%zero : f32) outs(%esq : tensor<16x16xf32>) -> tensor<16x16xf32>
  %b0_sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x32xf32>) outs(%zrow : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %b0_cen = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b0_sum : tensor<16x32xf32>, tensor<16xf32>) outs(%e2 : tensor<16x32xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %mean = arith.divf %m, %n : f32
    %d = arith.subf %v, %mean : f32
    linalg.yield %d : f32
  } -> tensor<16x32xf32>
  %b0_var = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%b0_cen : tensor<16x32xf32>) outs(%zrow : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %q = arith.mulf %in, %in : f32
    %s = arith.addf %acc, %q : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %b0_ln = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%b0_cen, %b0_var : tensor<16x32xf32>, tensor<16xf32>) outs(%e2 : tensor<16x32xf32>) {
  ^bb0(%v: f32, %var: f32, %o: f32):
    %mv = arith.divf %var, %n : f32
    %ve = arith.addf %mv, %eps : f32
    %r = math.rsqrt %ve : f32
    %y = arith.mulf %v, %r : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  %b0_q = linalg.matmul ins(%b0_ln, %wq : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %b0_k = linalg.matmul ins(%b0_ln, %wk : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %b0_v = linalg.matmul ins(%b0_ln, %wv : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %b0_kt = linalg.transpose ins(%b0_k : tensor<16x32xf32>) outs(%e2t : tensor<32x16xf32>) permutation = [1, 0]
  %b0_sc = linalg.matmul ins(%b0_q, %b0_kt : tensor<16x32xf32>, tensor<32x16xf32>) outs(%zsq : tensor<16x16xf32>) -> tensor<16x16xf32>
  %b0_scl = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b0_sc : tensor<16x16xf32>) outs(%esq : tensor<16x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.mulf %v, %scale : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %b0_sm = linalg.softmax dimension(1) ins(%b0_scl : tensor<16x16xf32>) outs(%esq : tensor<16x16xf32>) -> tensor<16x16xf32>
  %b0_att = linalg.matmul ins(%b0_sm, %b0_v : tensor<16x16xf32>, tensor<16x32xf32>) outs(%z2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %b0_o = linalg.matmul ins(%b0_att, %wo : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %b0_res = arith.addf %b0_o, %x : tensor<16x32xf32>
  %b0_h1 = linalg.matmul ins(%b0_res, %w1 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %b0_act = math.tanh %b0_h1 : tensor<16x32xf32>
  %b0_h2 = linalg.matmul ins(%b0_act, %w2 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %b0_out = arith.addf %b0_h2, %b0_res : tensor<16x32xf32>
  return %b0_out : tensor<16x32xf32>
}

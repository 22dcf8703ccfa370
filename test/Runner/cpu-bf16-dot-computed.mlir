// On a CPU with AVX512-BF16, with --bf16-dot (amp-run's default on a chip
// whose dot product outruns f32 multiply-adds), a bf16 product of two
// computed tensors (the scores and the weighted values of attention: no
// operand is a constant that amp-pack-weights could put in the pair layout)
// also reduces two products per lane with vdpbf16ps: the kernel interleaves
// the rows k and k + 1 of the operand read as vectors, and broadcasts the
// other operand's pair (k, k + 1), which is contiguous. The products are
// exact in f32, so against the widened fused multiply-adds (--no-bf16-dot)
// only the order of the f32 sums differs: a few f32 roundings of sums of at
// most K = 16 products (|sum| <= 16 on [-1, 1) inputs: atol = 1e-5; inputs
// scaled by 20 in the program: |sum| <= 6400, rtol = 1e-6 with atol = 1e-3).
// Against f32, each product carries the bf16 rounding of both inputs (2^-8
// each): atol = 16 * 2 * 2^-8 = 0.125 on [-1, 1) inputs (measured: 0.01).
//
// The program is converted with no target (every op low): `target=cpu`
// keeps contractions f32 on chips whose dot product does not pay.
//
// REQUIRES: avx512bf16
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16})' -o %t/bf16.mlir
// RUN: amp-run %s --entry=scores --seed=3 --save-inputs=%t/s --output=%t/s-f32.npy
// RUN: amp-run %t/bf16.mlir --entry=scores --input-dir=%t/s --no-bf16-dot --output=%t/s-fma.npy
// RUN: amp-run %t/bf16.mlir --bf16-dot --entry=scores --input-dir=%t/s --compare=%t/s-fma.npy --rtol=0 --atol=1e-5 | FileCheck %s
// RUN: amp-run %t/bf16.mlir --bf16-dot --entry=scores --input-dir=%t/s --compare=%t/s-f32.npy --rtol=0 --atol=0.125 | FileCheck %s
// RUN: amp-run %t/bf16.mlir --entry=scores_wide --input-dir=%t/s --no-bf16-dot --output=%t/w-fma.npy
// RUN: amp-run %t/bf16.mlir --bf16-dot --entry=scores_wide --input-dir=%t/s --compare=%t/w-fma.npy --rtol=1e-6 --atol=1e-3 | FileCheck %s
// CHECK: compare result 0 {{.*}} OK
//
// The lowered code calls the 256-bit instruction for the 8 columns; with an
// odd K the pairs cannot be made and the kernel widens each operand.
// RUN: amp-run %t/bf16.mlir --bf16-dot --entry=scores --input-dir=%t/s --print-lowered --output=%t/x.npy 2>&1 | FileCheck %s --check-prefix=DOT256
// DOT256: llvm.x86.avx512bf16.dpbf16ps.256
// RUN: amp-run %t/bf16.mlir --bf16-dot --entry=odd_k --seed=4 --print-lowered --output=%t/x.npy 2>&1 | FileCheck %s --check-prefix=NODOT
// NODOT-NOT: dpbf16ps
// RUN: amp-run %t/bf16.mlir --entry=odd_k --seed=4 --save-inputs=%t/o --no-bf16-dot --output=%t/o-fma.npy
// RUN: amp-run %t/bf16.mlir --bf16-dot --entry=odd_k --input-dir=%t/o --compare=%t/o-fma.npy --rtol=0 --atol=0 | FileCheck %s

// Scores of 6 heads: 8 queries by 8 keys of 16 features.
func.func @scores(%q: tensor<6x8x16xf32>, %k: tensor<6x16x8xf32>) -> tensor<6x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x8x8xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<6x8x8xf32>) -> tensor<6x8x8xf32>
  %r = linalg.batch_matmul ins(%q, %k : tensor<6x8x16xf32>, tensor<6x16x8xf32>) outs(%c : tensor<6x8x8xf32>) -> tensor<6x8x8xf32>
  return %r : tensor<6x8x8xf32>
}

// The same on inputs in [-20, 20).
func.func @scores_wide(%q: tensor<6x8x16xf32>, %k: tensor<6x16x8xf32>) -> tensor<6x8x8xf32> {
  %s = arith.constant dense<20.0> : tensor<6x8x16xf32>
  %t = arith.constant dense<20.0> : tensor<6x16x8xf32>
  %q20 = arith.mulf %q, %s : tensor<6x8x16xf32>
  %k20 = arith.mulf %k, %t : tensor<6x16x8xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x8x8xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<6x8x8xf32>) -> tensor<6x8x8xf32>
  %r = linalg.batch_matmul ins(%q20, %k20 : tensor<6x8x16xf32>, tensor<6x16x8xf32>) outs(%c : tensor<6x8x8xf32>) -> tensor<6x8x8xf32>
  return %r : tensor<6x8x8xf32>
}

// K = 7: no pairs.
func.func @odd_k(%q: tensor<4x8x7xf32>, %k: tensor<4x7x16xf32>) -> tensor<4x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8x16xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %r = linalg.batch_matmul ins(%q, %k : tensor<4x8x7xf32>, tensor<4x7x16xf32>) outs(%c : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %r : tensor<4x8x16xf32>
}

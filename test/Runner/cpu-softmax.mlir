// amp-run on the CPU runs softmax programs in f32 and after mixed-precision
// has converted them to f16 and bf16, on the same inputs, and compares.
//
// RUN: rm -rf %t && mkdir -p %t
//
// 1. A bare linalg.softmax stays f32: exponentials are never computed low,
// and converting the f32 input only to convert it back would move more
// bytes. The converted programs must give bit-identical results.
// RUN: amp-run %s --entry=softmax --seed=3 --save-inputs=%t/sm --output=%t/sm-f32.npy
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16})' -o %t/f16.mlir
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16})' -o %t/bf16.mlir
// RUN: amp-run %t/f16.mlir --entry=softmax --input=%t/sm/arg0.npy --compare=%t/sm-f32.npy --rtol=0 --atol=0 | FileCheck %s --check-prefix=EXACT
// RUN: amp-run %t/bf16.mlir --entry=softmax --input=%t/sm/arg0.npy --compare=%t/sm-f32.npy --rtol=0 --atol=0 | FileCheck %s --check-prefix=EXACT
// EXACT: compare result 0 (32x256xf32) with '{{.*}}sm-f32.npy': max_abs_err=0.000e+00 {{.*}} out_of_tolerance=0/8192 {{.*}} OK
//
// 2. Attention probabilities softmax(q k): the matmul takes low operands
// (f32 accumulator), the softmax stays f32.
// RUN: amp-run %s --entry=attention_probs --seed=3 --save-inputs=%t/att --output=%t/att-f32.npy
// DEFINE: %{inputs} = --input=%t/att/arg0.npy,%t/att/arg1.npy
// RUN: FileCheck %s --check-prefix=IR -DLOW=f16 < %t/f16.mlir
// RUN: FileCheck %s --check-prefix=IR -DLOW=bf16 < %t/bf16.mlir
//
// Bounds. A logit is a 64-term dot product of values in [-1, 1) whose
// products are off by at most 2u|qk| (u = 2^-11 for f16, 2^-8 for bf16),
// independently: standard deviation 2u sqrt(64/27) = 3.1u, so the largest
// logit error d over 8192 logits is about 5 standard deviations, 16u.
// Softmax turns logit errors into relative errors of the probabilities:
// dp_i / p_i = d_i - sum_j p_j d_j, at most 2 max|d| = 32u. So
// rtol = 32u (f16 1.6e-2, bf16 1.25e-1), atol = 0. Measured: 5.8u and 6.5u.
// RUN: amp-run %t/f16.mlir --entry=attention_probs %{inputs} --compare=%t/att-f32.npy --rtol=1.6e-2 --atol=0 | FileCheck %s --check-prefix=OK
// RUN: amp-run %t/bf16.mlir --entry=attention_probs %{inputs} --compare=%t/att-f32.npy --rtol=1.25e-1 --atol=0 | FileCheck %s --check-prefix=OK
// OK: compare result 0 (32x256xf32) with '{{.*}}att-f32.npy': max_abs_err={{.*}} out_of_tolerance=0/8192 {{.*}} OK
//
// ... and differ from f32 by more than u/2 relative somewhere:
// RUN: not amp-run %t/f16.mlir --entry=attention_probs %{inputs} --compare=%t/att-f32.npy --rtol=2.4e-4 --atol=0 2>&1 | FileCheck %s --check-prefix=LOW
// RUN: not amp-run %t/bf16.mlir --entry=attention_probs %{inputs} --compare=%t/att-f32.npy --rtol=2e-3 --atol=0 2>&1 | FileCheck %s --check-prefix=LOW
// LOW: out_of_tolerance={{[1-9][0-9]*}}/8192 {{.*}} FAIL
// LOW: amp-run: result 0 is out of tolerance
//
// IR-LABEL: func.func @softmax(
// IR:         linalg.softmax dimension(1) ins({{.*}} : tensor<32x256xf32>)
// IR-LABEL: func.func @attention_probs(
// IR:         linalg.matmul ins({{.*}} : tensor<32x64x[[LOW]]>, tensor<64x256x[[LOW]]>) outs({{.*}} : tensor<32x256xf32>)
// IR:         linalg.softmax dimension(1) ins({{.*}} : tensor<32x256xf32>)

func.func @softmax(%x: tensor<32x256xf32>) -> tensor<32x256xf32> {
  %e = tensor.empty() : tensor<32x256xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<32x256xf32>) outs(%e : tensor<32x256xf32>) -> tensor<32x256xf32>
  return %s : tensor<32x256xf32>
}

func.func @attention_probs(%q: tensor<32x64xf32>, %k: tensor<64x256xf32>) -> tensor<32x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<32x256xf32>) -> tensor<32x256xf32>
  %logits = linalg.matmul ins(%q, %k : tensor<32x64xf32>, tensor<64x256xf32>) outs(%acc : tensor<32x256xf32>) -> tensor<32x256xf32>
  %s = linalg.softmax dimension(1) ins(%logits : tensor<32x256xf32>) outs(%e : tensor<32x256xf32>) -> tensor<32x256xf32>
  return %s : tensor<32x256xf32>
}

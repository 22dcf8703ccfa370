// amp-run on the CPU runs a 64x128 * 128x64 matmul in f32 and after
// mixed-precision has converted it (f16 and bf16 operands, f32
// accumulator), on the same inputs; the converted results must agree with
// the f32 ones within the bounds derived below, and must differ from them.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %s --entry=matmul --seed=2 --save-inputs=%t/in --output=%t/f32.npy
// DEFINE: %{inputs} = --input=%t/in/arg0.npy,%t/in/arg1.npy
//
// Bounds. Only the operands are rounded (u = 2^-11 for f16, 2^-8 for
// bf16); products of two low values are exact in f32 and the f32 sums add
// ~1e-6. |a|, |b| < 1, so each of the K = 128 products is off by at most
// 2u|ab|, independently and with mean zero: the standard deviation of an
// element's error is about 2u sqrt(K E[(ab)^2] / 3) = 2u sqrt(128/27) =
// 4.4u, and the largest of 4096 elements stays within ~5 standard
// deviations: atol = 24u (f16 1.2e-2, bf16 9.4e-2), rtol = 0 (elements
// near zero are sums that cancel). The worst case, 256u, needs every
// rounding aligned. Measured: 7.3u and 7u.
//
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16})' -o %t/f16.mlir
// RUN: FileCheck %s --check-prefix=IR -DLOW=f16 < %t/f16.mlir
// RUN: amp-run %t/f16.mlir --entry=matmul %{inputs} --compare=%t/f32.npy --rtol=0 --atol=1.2e-2 | FileCheck %s --check-prefix=OK
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16})' -o %t/bf16.mlir
// RUN: FileCheck %s --check-prefix=IR -DLOW=bf16 < %t/bf16.mlir
// RUN: amp-run %t/bf16.mlir --entry=matmul %{inputs} --compare=%t/f32.npy --rtol=0 --atol=9.4e-2 | FileCheck %s --check-prefix=OK
//
// With f16/bf16 arguments (keep-io-types=false) on the same inputs,
// rounded by amp-run --cast-inputs: the matmul reads the 16-bit buffers
// directly; the operands are rounded where the f32-signature conversion
// rounds them inside, so the same bounds hold. The result is the f32
// accumulator.
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16 keep-io-types=false})' -o %t/f16io.mlir
// RUN: amp-run %t/f16io.mlir --entry=matmul %{inputs} --cast-inputs --compare=%t/f32.npy --rtol=0 --atol=1.2e-2 | FileCheck %s --check-prefix=OKIO
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16 keep-io-types=false})' -o %t/bf16io.mlir
// RUN: amp-run %t/bf16io.mlir --entry=matmul %{inputs} --cast-inputs --compare=%t/f32.npy --rtol=0 --atol=9.4e-2 | FileCheck %s --check-prefix=OKIO
// OKIO: compare result 0 (64x64xf32) with '{{.*}}f32.npy': max_abs_err={{.*}} out_of_tolerance=0/4096 {{.*}} OK
//
// The converted runs differ from f32 by more than u/2 somewhere (an f32
// run would differ by ~1e-6):
// RUN: not amp-run %t/f16.mlir --entry=matmul %{inputs} --compare=%t/f32.npy --rtol=0 --atol=2.4e-4 2>&1 | FileCheck %s --check-prefix=LOW
// RUN: not amp-run %t/bf16.mlir --entry=matmul %{inputs} --compare=%t/f32.npy --rtol=0 --atol=2e-3 2>&1 | FileCheck %s --check-prefix=LOW
//
// OK: compare result 0 (64x64xf32) with '{{.*}}f32.npy': max_abs_err={{.*}} out_of_tolerance=0/4096 {{.*}} OK
// LOW: out_of_tolerance={{[1-9][0-9]*}}/4096 {{.*}} FAIL
// LOW: amp-run: result 0 is out of tolerance against '{{.*}}f32.npy'
//
// IR-LABEL: func.func @matmul(
// IR:         linalg.matmul ins({{.*}} : tensor<64x128x[[LOW]]>, tensor<128x64x[[LOW]]>) outs({{.*}} : tensor<64x64xf32>)

func.func @matmul(%a: tensor<64x128xf32>, %b: tensor<128x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

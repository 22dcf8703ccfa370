// amp-run on the CPU runs an elementwise chain (add, mul, relu, tanh, sub)
// as written in f32 and after mixed-precision has converted it to f16 and
// to bf16, on the same inputs; the converted results must agree with the
// f32 ones within the bounds derived below, and must differ from them (the
// low precision is really used).
//
// f32 reference, on seeded inputs saved for the converted runs:
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %s --entry=chain --seed=1 --save-inputs=%t/in --output=%t/f32.npy
// DEFINE: %{inputs} = --input=%t/in/arg0.npy,%t/in/arg1.npy
//
// Bounds. |a|, |b| < 1 and every low value is off by at most u relative
// (f16 u = 2^-11 = 4.9e-4, bf16 u = 2^-8 = 3.9e-3). a + b (|.| < 2):
// 2u from the rounded inputs + 2u from its own rounding = 4u; times a
// (|.| < 2): 4u + 2u + 2u = 8u; relu adds nothing, tanh (slope <= 1)
// adds its rounding: 9u; minus b: 9u + u + 2u = 12u absolute. The
// subtraction can cancel, so only an absolute bound means anything:
// atol = 12u (f16 5.9e-3, bf16 4.7e-2), rtol = 0. Measured: 3u and 2.5u.
//
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16})' -o %t/f16.mlir
// RUN: FileCheck %s --check-prefix=IR -DLOW=f16 < %t/f16.mlir
// RUN: amp-run %t/f16.mlir --entry=chain %{inputs} --compare=%t/f32.npy --rtol=0 --atol=5.9e-3 | FileCheck %s --check-prefix=OK
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16})' -o %t/bf16.mlir
// RUN: FileCheck %s --check-prefix=IR -DLOW=bf16 < %t/bf16.mlir
// RUN: amp-run %t/bf16.mlir --entry=chain %{inputs} --compare=%t/f32.npy --rtol=0 --atol=4.7e-2 | FileCheck %s --check-prefix=OK
//
// With f16/bf16 arguments and results (keep-io-types=false) on the same
// inputs, rounded by amp-run --cast-inputs: the kernels read and write
// 16-bit buffers; inputs and result are rounded where the f32-signature
// conversion rounds them inside, so the same bounds hold.
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16 keep-io-types=false})' -o %t/f16io.mlir
// RUN: amp-run %t/f16io.mlir --entry=chain %{inputs} --cast-inputs --compare=%t/f32.npy --rtol=0 --atol=5.9e-3 | FileCheck %s --check-prefix=OKIO -DLOW=f16
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16 keep-io-types=false})' -o %t/bf16io.mlir
// RUN: amp-run %t/bf16io.mlir --entry=chain %{inputs} --cast-inputs --compare=%t/f32.npy --rtol=0 --atol=4.7e-2 | FileCheck %s --check-prefix=OKIO -DLOW=bf16
// OKIO: compare result 0 (64x256x[[LOW]]) with '{{.*}}f32.npy': max_abs_err={{.*}} out_of_tolerance=0/16384 {{.*}} OK
//
// The converted runs differ from f32 by more than u/4 somewhere (a run
// that stayed in f32 would differ by nothing: same inputs, same ops):
// RUN: not amp-run %t/f16.mlir --entry=chain %{inputs} --compare=%t/f32.npy --rtol=0 --atol=1.2e-4 2>&1 | FileCheck %s --check-prefix=LOW
// RUN: not amp-run %t/bf16.mlir --entry=chain %{inputs} --compare=%t/f32.npy --rtol=0 --atol=1e-3 2>&1 | FileCheck %s --check-prefix=LOW
//
// OK: compare result 0 (64x256xf32) with '{{.*}}f32.npy': max_abs_err={{.*}} out_of_tolerance=0/16384 {{.*}} OK
// LOW: out_of_tolerance={{[1-9][0-9]*}}/16384 {{.*}} FAIL
// LOW: amp-run: result 0 is out of tolerance against '{{.*}}f32.npy'
//
// IR-LABEL: func.func @chain(
// IR:         linalg.add ins({{.*}} : tensor<64x256x[[LOW]]>, tensor<64x256x[[LOW]]>)
// IR:         return {{.*}} : tensor<64x256xf32>

func.func @chain(%a: tensor<64x256xf32>, %b: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<64x256xf32>
  %zero = arith.constant dense<0.0> : tensor<64x256xf32>
  %0 = linalg.add ins(%a, %b : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %1 = linalg.mul ins(%0, %a : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %2 = linalg.max ins(%1, %zero : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %3 = math.tanh %2 : tensor<64x256xf32>
  %4 = arith.subf %3, %b : tensor<64x256xf32>
  return %4 : tensor<64x256xf32>
}

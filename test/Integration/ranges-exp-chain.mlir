// exp -> max(., 0) -> sqrt -> max between two contractions, run on the CPU
// in f32 and after mixed-precision, on inputs of every magnitude (up to
// 20, tiny values, zeros: Inputs/magnitudes.py).
//
// The contractions compute in f16 and exp stays f32 (it overflows f16
// above 11). Its input is only assumed to fit f16, so its result may reach
// inf, and so may what max and sqrt make of it: amp computes them in f32
// and rounds none of them to f16; the second contraction reads f32 too.
//
// Tolerances: rounding x (|x| <= 20) to f16 moves it by up to 20u (u =
// 2^-11), exp multiplies that into a relative error of 20u = 1%, sqrt
// halves it; the outputs are sums of 16 such values times |w2| <= 1/16, and
// sum|r||w2| <= 1640 on these inputs, so |error| <= 0.5% of 1640 = 8 in
// the worst case (rtol 1e-2, atol 1 hold: measured max 0.9). Without the
// range analysis the output is NaN.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/magnitudes.py %t/in
// DEFINE: %{inputs} = --input=%t/in/arg0.npy,%t/in/arg1.npy,%t/in/arg2.npy
// RUN: amp-run %s --entry=chain %{inputs} --output=%t/f32.npy --calibrate=%t/ranges.json
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16})' -o %t/f16.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/f16.mlir
// IR: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x16xf16>, tensor<16x16xf16>)
// IR: math.exp %{{.+}} : tensor<8x16xf32>
// IR: arith.maximumf %{{.+}}, %{{.+}} : tensor<8x16xf32>
// IR: math.sqrt %{{.+}} : tensor<8x16xf32>
// IR: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x16xf32>, tensor<16x8xf32>)
// RUN: amp-run %t/f16.mlir --entry=chain %{inputs} --compare=%t/f32.npy --rtol=1e-2 --atol=1 | FileCheck %s --check-prefix=OK
// OK: out_of_tolerance=0/64 {{.*}} OK
// RUN: amp-run %t/f16.mlir --entry=chain %{inputs} --find-nonfinite | FileCheck %s --check-prefix=FINITE
// FINITE: no non-finite values
//
// Calibrated on these inputs, exp's result reaches 4.9e8 (it stays f32, as
// do max and sqrt reading it), and sqrt's 22026, which fits f16 even with
// the margin of 2: the second contraction reads it in f16. Its rounding
// adds u relative: the same bounds hold.
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16 ranges=%t/ranges.json explain})' --mlir-print-op-on-diagnostic=false -o %t/calibrated.mlir 2>&1 | FileCheck %s --check-prefix=CALIBRATED
// CALIBRATED: remark: amp: math.sqrt stays f32 (follow, range): reads operand 0, which may exceed f16: calibrated max |x| = 4.85165e+08, beyond f16's largest value 65504 (with a margin of 2)
// CALIBRATED: remark: amp: linalg.matmul runs in 'f16' (allow, model)
// RUN: amp-run %t/calibrated.mlir --entry=chain %{inputs} --compare=%t/f32.npy --rtol=1e-2 --atol=1 | FileCheck %s --check-prefix=OK
//
// In bf16, which has f32's range, nothing overflows; bf16's u = 2^-8 makes
// the bound 8 times larger (rtol 5e-2, atol 64; measured max 7.2).
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16})' -o %t/bf16.mlir
// RUN: amp-run %t/bf16.mlir --entry=chain %{inputs} --compare=%t/f32.npy --rtol=5e-2 --atol=64 | FileCheck %s --check-prefix=OK
//
// What a placement by bytes alone does (stating follow for max and sqrt,
// which overrides the range analysis): exp's result is rounded to f16 and
// becomes inf, and the two rows that reach it NaN (16 of 64 outputs).
// --find-nonfinite names that rounding and the op whose result it rounds,
// and says f32 is finite there.
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16 follow=arith.maximumf,math.sqrt})' --mlir-print-debuginfo -o %t/unsafe.mlir
// RUN: not amp-run %t/unsafe.mlir --entry=chain %{inputs} --compare=%t/f32.npy --rtol=1e-2 --atol=1 | FileCheck %s --check-prefix=UNSAFE
// UNSAFE: out_of_tolerance=16/64 {{.*}} FAIL
// RUN: amp-run %t/unsafe.mlir --entry=chain %{inputs} --find-nonfinite --f32=%s | FileCheck %s --check-prefix=FIRST
// FIRST: first non-finite: arith.truncf at ranges-exp-chain.mlir:[[#EXP:]]:10
// FIRST-NEXT: operand 0: math.exp at ranges-exp-chain.mlir:[[#EXP]]:10 {{.*}} max 4.85165e+08, 0 of 128 inf/nan
// FIRST-NEXT: rounds the result of math.exp at ranges-exp-chain.mlir:[[#EXP]]:10 to a narrower type
// FIRST-NEXT: f32: finite there, max |x| = 4.85165e+08

func.func @chain(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>, %w2: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e16 = tensor.empty() : tensor<8x16xf32>
  %z16 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %h = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z16 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %exp = math.exp %h : tensor<8x16xf32>
  %zeros = arith.constant dense<0.0> : tensor<8x16xf32>
  %m = arith.maximumf %exp, %zeros : tensor<8x16xf32>
  %s = math.sqrt %m : tensor<8x16xf32>
  %floor = arith.constant dense<1.0e-3> : tensor<8x16xf32>
  %r = arith.maximumf %s, %floor : tensor<8x16xf32>
  %e8 = tensor.empty() : tensor<8x8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = linalg.matmul ins(%r, %w2 : tensor<8x16xf32>, tensor<16x8xf32>) outs(%z8 : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

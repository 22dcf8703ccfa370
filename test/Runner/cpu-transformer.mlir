// amp-run on the CPU runs the pre-LayerNorm transformer block @compute of
// test/Integration/mp-transformer.mlir (16x32 sequence, single-head
// attention, tanh-GELU MLP, two residuals) in f32 and after
// mixed-precision has converted it to f16 and bf16, on the same inputs;
// the converted results must agree with the f32 ones within the bounds
// below, and must differ from them.
//
// Inputs: seeded, then scaled like a trained block's (Inputs/
// transformer_inputs.py: LayerNorm scales near 1, weights / sqrt(fan_in)).
// RUN: rm -rf %t && mkdir -p %t
// DEFINE: %{block} = %S/../Integration/mp-transformer.mlir
// RUN: amp-run %{block} --entry=compute --seed=7 --save-inputs=%t/in > /dev/null
// RUN: %python %S/Inputs/transformer_inputs.py %t/in
// DEFINE: %{inputs} = --input=%t/in/arg0.npy,%t/in/arg1.npy,%t/in/arg2.npy,%t/in/arg3.npy,%t/in/arg4.npy,%t/in/arg5.npy,%t/in/arg6.npy,%t/in/arg7.npy,%t/in/arg8.npy,%t/in/arg9.npy,%t/in/arg10.npy,%t/in/arg11.npy
// RUN: amp-run %{block} --entry=compute %{inputs} --output=%t/f32.npy
//
// Bounds, as in mp-transformer.mlir: u is the unit roundoff (f16 2^-11,
// bf16 2^-8) and M = max|y| = 1.51 on these inputs. Every value stored low
// is off by at most u relative; on the way to y the residual adds, the
// projection and MLP outputs (rounded results and rounded operands of 16-
// to 64-term dot products whose errors partly cancel) and the low GELU
// each contribute about u M; with every error aligned about 8u M:
// atol = 8u M (f16 5.9e-3, bf16 4.7e-2), rtol = 0. Measured 1.2u M and
// 1.1u M.
// RUN: amp-opt %{block} -p 'builtin.module(mixed-precision{precision=f16})' -o %t/f16.mlir
// RUN: amp-run %t/f16.mlir --entry=compute %{inputs} --compare=%t/f32.npy --rtol=0 --atol=5.9e-3 | FileCheck %s --check-prefix=OK
// RUN: amp-opt %{block} -p 'builtin.module(mixed-precision{precision=bf16})' -o %t/bf16.mlir
// RUN: amp-run %t/bf16.mlir --entry=compute %{inputs} --compare=%t/f32.npy --rtol=0 --atol=4.7e-2 | FileCheck %s --check-prefix=OK
// OK: compare result 0 (16x32xf32) with '{{.*}}f32.npy': max_abs_err={{.*}} out_of_tolerance=0/512 {{.*}} OK
//
// ... and differ from f32 by more than u M / 10 somewhere (an f32 run
// differs by ~1e-6):
// RUN: not amp-run %t/f16.mlir --entry=compute %{inputs} --compare=%t/f32.npy --rtol=0 --atol=7e-5 2>&1 | FileCheck %s --check-prefix=LOW
// RUN: not amp-run %t/bf16.mlir --entry=compute %{inputs} --compare=%t/f32.npy --rtol=0 --atol=6e-4 2>&1 | FileCheck %s --check-prefix=LOW
// LOW: out_of_tolerance={{[1-9][0-9]*}}/512 {{.*}} FAIL
// LOW: amp-run: result 0 is out of tolerance

// amp-run's Vulkan backend (amp-lower-to-vulkan, libamp_vulkan_runtime.so;
// lavapipe on CPU-only machines) runs the programs of the CPU tests in f32
// and after mixed-precision, and its results are compared with the f32
// results of the CPU backend on the same inputs, within the bounds derived
// in cpu-elementwise.mlir, cpu-matmul.mlir, cpu-softmax.mlir and
// cpu-transformer.mlir.
//
// REQUIRES: vulkan
// RUN: rm -rf %t && mkdir -p %t
//
// f32 on the device agrees with f32 on the CPU up to the order of
// operations and the device's exp/tanh (measured: matmul exact, chain
// 2.4e-7 absolute, softmax 4e-7 relative).
// RUN: amp-run %S/cpu-elementwise.mlir --entry=chain --seed=1 --save-inputs=%t/chain --output=%t/chain.npy
// RUN: amp-run %S/cpu-elementwise.mlir --entry=chain --backend=vulkan --input=%t/chain/arg0.npy,%t/chain/arg1.npy --compare=%t/chain.npy --rtol=0 --atol=1e-6 | FileCheck %s --check-prefix=OK
// RUN: amp-run %S/cpu-softmax.mlir --entry=softmax --seed=3 --save-inputs=%t/sm --output=%t/sm.npy
// RUN: amp-run %S/cpu-softmax.mlir --entry=softmax --backend=vulkan --input=%t/sm/arg0.npy --compare=%t/sm.npy --rtol=1e-5 --atol=0 | FileCheck %s --check-prefix=OK
//
// Elementwise chain (bounds: cpu-elementwise.mlir, atol = 12u).
// DEFINE: %{chain} = --entry=chain --input=%t/chain/arg0.npy,%t/chain/arg1.npy
// RUN: amp-opt %S/cpu-elementwise.mlir -p 'builtin.module(mixed-precision{precision=f16})' -o %t/chain-f16.mlir
// RUN: amp-run %t/chain-f16.mlir %{chain} --backend=vulkan --compare=%t/chain.npy --rtol=0 --atol=5.9e-3 | FileCheck %s --check-prefix=OK
// RUN: amp-opt %S/cpu-elementwise.mlir -p 'builtin.module(mixed-precision{precision=bf16})' -o %t/chain-bf16.mlir
// RUN: amp-run %t/chain-bf16.mlir %{chain} --backend=vulkan --compare=%t/chain.npy --rtol=0 --atol=4.7e-2 | FileCheck %s --check-prefix=OK
// RUN: not amp-run %t/chain-f16.mlir %{chain} --backend=vulkan --compare=%t/chain.npy --rtol=0 --atol=1.2e-4 2>&1 | FileCheck %s --check-prefix=LOW
// RUN: not amp-run %t/chain-bf16.mlir %{chain} --backend=vulkan --compare=%t/chain.npy --rtol=0 --atol=1e-3 2>&1 | FileCheck %s --check-prefix=LOW
//
// Matmul (bounds: cpu-matmul.mlir, atol = 24u).
// DEFINE: %{mm} = --entry=matmul --input=%t/mm/arg0.npy,%t/mm/arg1.npy
// RUN: amp-run %S/cpu-matmul.mlir --entry=matmul --seed=2 --save-inputs=%t/mm --output=%t/mm.npy
// RUN: amp-run %S/cpu-matmul.mlir %{mm} --backend=vulkan --compare=%t/mm.npy --rtol=0 --atol=1e-5 | FileCheck %s --check-prefix=OK
// RUN: amp-opt %S/cpu-matmul.mlir -p 'builtin.module(mixed-precision{precision=f16})' -o %t/mm-f16.mlir
// RUN: amp-run %t/mm-f16.mlir %{mm} --backend=vulkan --compare=%t/mm.npy --rtol=0 --atol=1.2e-2 | FileCheck %s --check-prefix=OK
// RUN: amp-opt %S/cpu-matmul.mlir -p 'builtin.module(mixed-precision{precision=bf16})' -o %t/mm-bf16.mlir
// RUN: amp-run %t/mm-bf16.mlir %{mm} --backend=vulkan --compare=%t/mm.npy --rtol=0 --atol=9.4e-2 | FileCheck %s --check-prefix=OK
// f16 really runs low on the device:
// RUN: not amp-run %t/mm-f16.mlir %{mm} --backend=vulkan --compare=%t/mm.npy --rtol=0 --atol=2.4e-4 2>&1 | FileCheck %s --check-prefix=LOW
//
// Attention probabilities (bounds: cpu-softmax.mlir, rtol = 32u).
// DEFINE: %{att} = --entry=attention_probs --input=%t/att/arg0.npy,%t/att/arg1.npy
// RUN: amp-run %S/cpu-softmax.mlir --entry=attention_probs --seed=3 --save-inputs=%t/att --output=%t/att.npy
// RUN: amp-opt %S/cpu-softmax.mlir -p 'builtin.module(mixed-precision{precision=f16})' -o %t/att-f16.mlir
// RUN: amp-run %t/att-f16.mlir %{att} --backend=vulkan --compare=%t/att.npy --rtol=1.6e-2 --atol=0 | FileCheck %s --check-prefix=OK
// RUN: amp-opt %S/cpu-softmax.mlir -p 'builtin.module(mixed-precision{precision=bf16})' -o %t/att-bf16.mlir
// RUN: amp-run %t/att-bf16.mlir %{att} --backend=vulkan --compare=%t/att.npy --rtol=1.25e-1 --atol=0 | FileCheck %s --check-prefix=OK
// RUN: not amp-run %t/att-f16.mlir %{att} --backend=vulkan --compare=%t/att.npy --rtol=2.4e-4 --atol=0 2>&1 | FileCheck %s --check-prefix=LOW
//
// Transformer block (bounds: cpu-transformer.mlir, atol = 8u M); amp-run
// compiles only @compute, not the f32 driver in the same file.
// DEFINE: %{block} = %S/../Integration/mp-transformer.mlir
// RUN: amp-run %{block} --entry=compute --seed=7 --save-inputs=%t/in > /dev/null
// RUN: %python %S/Inputs/transformer_inputs.py %t/in
// DEFINE: %{inputs} = --entry=compute --input=%t/in/arg0.npy,%t/in/arg1.npy,%t/in/arg2.npy,%t/in/arg3.npy,%t/in/arg4.npy,%t/in/arg5.npy,%t/in/arg6.npy,%t/in/arg7.npy,%t/in/arg8.npy,%t/in/arg9.npy,%t/in/arg10.npy,%t/in/arg11.npy
// RUN: amp-run %{block} %{inputs} --output=%t/block.npy
// RUN: amp-run %{block} %{inputs} --backend=vulkan --compare=%t/block.npy --rtol=0 --atol=1e-6 | FileCheck %s --check-prefix=OK
// RUN: amp-opt %{block} -p 'builtin.module(mixed-precision{precision=f16})' -o %t/block-f16.mlir
// RUN: amp-run %t/block-f16.mlir %{inputs} --backend=vulkan --compare=%t/block.npy --rtol=0 --atol=5.9e-3 | FileCheck %s --check-prefix=OK
// RUN: amp-opt %{block} -p 'builtin.module(mixed-precision{precision=bf16})' -o %t/block-bf16.mlir
// RUN: amp-run %t/block-bf16.mlir %{inputs} --backend=vulkan --compare=%t/block.npy --rtol=0 --atol=4.7e-2 | FileCheck %s --check-prefix=OK
// RUN: not amp-run %t/block-bf16.mlir %{inputs} --backend=vulkan --compare=%t/block.npy --rtol=0 --atol=6e-4 2>&1 | FileCheck %s --check-prefix=LOW
//
// Reductions shuffle within subgroups of the device's size by default; a
// size the device does not have would give wrong sums, so it is an error.
// RUN: not amp-run %S/cpu-softmax.mlir --entry=softmax --backend=vulkan --seed=3 --vulkan-subgroup-size=1024 2>&1 | FileCheck %s --check-prefix=SUBGROUP
// RUN: not amp-run %S/cpu-softmax.mlir --entry=softmax --backend=vulkan --seed=3 --vulkan-subgroup-size=-2 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// SUBGROUP: amp-run: --vulkan-subgroup-size=1024, but the Vulkan device {{shuffles within subgroups of [0-9]+ threads|cannot shuffle in compute shaders}}
// NEGATIVE: amp-run: --vulkan-subgroup-size must be 0 or the device's subgroup size, got -2
//
// OK: compare result 0 ({{.*}}) with '{{.*}}.npy': max_abs_err={{.*}} out_of_tolerance=0/{{[0-9]+}} {{.*}} OK
// LOW: out_of_tolerance={{[1-9][0-9]*}}/{{[0-9]+}} {{.*}} FAIL


// The elementwise chain and the transformer block, converted to f16 and
// bf16, on the Vulkan backend, compared with f32 on the CPU within the
// bounds of cpu-elementwise.mlir and cpu-transformer.mlir.
//
// Expected to fail today: amp-lower-to-vulkan cannot lower math.tanh on
// f16 ("failed to legalize operation 'builtin.unrealized_conversion_cast'";
// the bf16 chain runs, its arithmetic emulated in f32), nor the
// transformer file, whose f32 driver functions take memref<?x?xf32> and
// whose f16 GELU uses tanh. When it can, this test passes and XFAIL must go.
//
// REQUIRES: vulkan
// XFAIL: *
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %S/cpu-elementwise.mlir --entry=chain --seed=1 --save-inputs=%t/chain --output=%t/chain.npy
// RUN: amp-opt %S/cpu-elementwise.mlir -p 'builtin.module(mixed-precision{precision=f16})' -o %t/chain-f16.mlir
// RUN: amp-run %t/chain-f16.mlir --entry=chain --backend=vulkan --input=%t/chain/arg0.npy,%t/chain/arg1.npy --compare=%t/chain.npy --rtol=0 --atol=5.9e-3 | FileCheck %s
// RUN: amp-opt %S/cpu-elementwise.mlir -p 'builtin.module(mixed-precision{precision=bf16})' -o %t/chain-bf16.mlir
// RUN: amp-run %t/chain-bf16.mlir --entry=chain --backend=vulkan --input=%t/chain/arg0.npy,%t/chain/arg1.npy --compare=%t/chain.npy --rtol=0 --atol=4.7e-2 | FileCheck %s
//
// DEFINE: %{block} = %S/../Integration/mp-transformer.mlir
// RUN: amp-run %{block} --entry=compute --seed=7 --save-inputs=%t/in > /dev/null
// RUN: %python %S/Inputs/transformer_inputs.py %t/in
// DEFINE: %{inputs} = --input=%t/in/arg0.npy,%t/in/arg1.npy,%t/in/arg2.npy,%t/in/arg3.npy,%t/in/arg4.npy,%t/in/arg5.npy,%t/in/arg6.npy,%t/in/arg7.npy,%t/in/arg8.npy,%t/in/arg9.npy,%t/in/arg10.npy,%t/in/arg11.npy
// RUN: amp-run %{block} --entry=compute %{inputs} --output=%t/block.npy
// RUN: amp-opt %{block} -p 'builtin.module(mixed-precision{precision=f16})' -o %t/block-f16.mlir
// RUN: amp-run %t/block-f16.mlir --entry=compute --backend=vulkan %{inputs} --compare=%t/block.npy --rtol=0 --atol=5.9e-3 | FileCheck %s
// RUN: amp-opt %{block} -p 'builtin.module(mixed-precision{precision=bf16})' -o %t/block-bf16.mlir
// RUN: amp-run %t/block-bf16.mlir --entry=compute --backend=vulkan %{inputs} --compare=%t/block.npy --rtol=0 --atol=4.7e-2 | FileCheck %s
//
// CHECK: out_of_tolerance=0/{{[0-9]+}} {{.*}} OK

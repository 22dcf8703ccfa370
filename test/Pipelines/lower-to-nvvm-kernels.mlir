// The kernel structure amp-lower-to-nvvm gives contractions (on the SIMT
// units: f32, or f16/bf16 with tensor-cores=false; see
// lower-to-nvvm-tensor-cores.mlir for the rest) and row
// reductions, read from the PTX. Contractions stage their operand tiles in
// shared memory between barriers and keep their accumulators in registers,
// row reductions combine across a warp with shuffles, and ptxas assembles
// every kernel for sm_80 and sm_90 without spilling a byte.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16},amp-lower-to-nvvm{chip=sm_80 format=isa tensor-cores=false})' -o %t/f16-80.mlir
// RUN: %python %S/Inputs/ptx_of.py %t/f16-80 < %t/f16-80.mlir | FileCheck %s --check-prefix=PTX
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16},amp-lower-to-nvvm{chip=sm_80 format=isa tensor-cores=false})' -o %t/bf16-80.mlir
// RUN: %python %S/Inputs/ptx_of.py %t/bf16-80 < %t/bf16-80.mlir | FileCheck %s --check-prefix=PTX
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-nvvm{chip=sm_90 format=isa})' -o %t/f32-90.mlir
// RUN: %python %S/Inputs/ptx_of.py %t/f32-90 < %t/f32-90.mlir | FileCheck %s --check-prefix=PTX
//
// RUN: %if ptxas %{ %python %S/Inputs/ptx_of.py --ptxas ptxas --arch sm_80 %t/f16-80 < %t/f16-80.mlir | FileCheck %s --check-prefix=NOSPILL %}
// RUN: %if ptxas %{ %python %S/Inputs/ptx_of.py --ptxas ptxas --arch sm_80 %t/bf16-80 < %t/bf16-80.mlir | FileCheck %s --check-prefix=NOSPILL %}
// RUN: %if ptxas %{ %python %S/Inputs/ptx_of.py --ptxas ptxas --arch sm_90 %t/f32-90 < %t/f32-90.mlir | FileCheck %s --check-prefix=NOSPILL %}
//
// The contraction kernel: its tiles staged in shared memory, a barrier
// before the k loop and one per step, fused multiply-adds into f32
// registers (the kernels before it convert the operands to f16/bf16).
// PTX:       binary matmul_kernel{{(_[0-9]+)?}}: st.shared={{[1-9][0-9]*}} ld.shared={{[1-9][0-9]*}} bar.sync=2 shfl.sync=0 fma.rn.f32={{[1-9][0-9]*}}
// A large product gets 128x128 tiles of 8x8 accumulators per thread: 64
// fused multiply-adds per k for each thread, and no spill (NOSPILL).
// PTX:       binary matmul_large_kernel{{(_[0-9]+)?}}: st.shared={{[1-9][0-9]*}} ld.shared={{[1-9][0-9]*}} bar.sync=2 shfl.sync=0 fma.rn.f32={{[1-9][0-9][0-9][0-9]+}}
// The softmax (max, exp, sum, divide) is one kernel that reads each row
// once (amp-fuse-rows-in-workgroups). Each of its two reductions: five
// shuffles within each warp, the 8 warps' results through shared memory
// after one barrier, three more shuffles.
// PTX:       binary softmax_kernel{{(_[0-9]+)?}}: st.shared=2 ld.shared=2 bar.sync=2 shfl.sync=16
// PTX-NOT:   binary softmax_kernel
//
// NOSPILL-NOT: spill_stores={{[1-9]}}
// NOSPILL-NOT: spill_loads={{[1-9]}}
// NOSPILL:     ptxas: matmul_kernel registers={{[0-9]+}} spill_stores=0 spill_loads=0 smem={{[1-9][0-9]*}}
// NOSPILL:     ptxas: matmul_large_kernel registers={{[0-9]+}} spill_stores=0 spill_loads=0 smem={{16960|33920}}
// NOSPILL:     ptxas: softmax_kernel registers={{[0-9]+}} spill_stores=0 spill_loads=0 smem={{[1-9][0-9]*}}
// NOSPILL-NOT: spill_stores={{[1-9]}}
// NOSPILL-NOT: spill_loads={{[1-9]}}

func.func @matmul(%a: tensor<1000x129xf32>, %b: tensor<129x63xf32>) -> tensor<1000x63xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000x63xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x63xf32>) -> tensor<1000x63xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1000x129xf32>, tensor<129x63xf32>) outs(%f : tensor<1000x63xf32>) -> tensor<1000x63xf32>
  return %r : tensor<1000x63xf32>
}

func.func @matmul_large(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x2048xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32>) outs(%f : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}

func.func @softmax(%x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %e = tensor.empty() : tensor<64x1000xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<64x1000xf32>) outs(%e : tensor<64x1000xf32>) -> tensor<64x1000xf32>
  return %r : tensor<64x1000xf32>
}

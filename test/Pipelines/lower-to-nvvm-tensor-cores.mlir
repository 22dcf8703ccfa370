// f16 and bf16 contractions with f32 accumulators on tensor cores, read
// from the PTX amp-lower-to-nvvm makes for sm_80: each kernel moves its
// operand tiles with 16-byte cp.async copies, reads its fragments with
// ldmatrix and multiplies with mma.sync m16n8k16 of the operands' type into
// f32, and stores each thread's pairs of neighbouring results as vectors
// of two; no SIMT fused multiply-add is left. ptxas assembles every kernel for
// sm_80 and sm_90 without spilling a byte. (Their results are checked on
// Vulkan with the warp-level ops emulated, and on an NVIDIA GPU where there
// is one: test/Runner/gpu-contractions.py --tensor-cores.)
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-nvvm{chip=sm_80 format=isa})' -o %t/f16-80.mlir
// RUN: %python %S/Inputs/ptx_of.py %t/f16-80 < %t/f16-80.mlir | FileCheck %s --check-prefix=F16
// RUN: sed 's/f16/bf16/g' %s > %t/bf16.mlir
// RUN: amp-opt %t/bf16.mlir -p 'builtin.module(amp-lower-to-nvvm{chip=sm_80 format=isa})' -o %t/bf16-80.mlir
// RUN: %python %S/Inputs/ptx_of.py %t/bf16-80 < %t/bf16-80.mlir | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-nvvm{chip=sm_90 format=isa})' -o %t/f16-90.mlir
// RUN: amp-opt %t/bf16.mlir -p 'builtin.module(amp-lower-to-nvvm{chip=sm_90 format=isa})' -o %t/bf16-90.mlir
//
// RUN: %if ptxas %{ %python %S/Inputs/ptx_of.py --ptxas ptxas --arch sm_80 %t/f16-80 < %t/f16-80.mlir | FileCheck %s --check-prefix=NOSPILL %}
// RUN: %if ptxas %{ %python %S/Inputs/ptx_of.py --ptxas ptxas --arch sm_80 %t/bf16-80 < %t/bf16-80.mlir | FileCheck %s --check-prefix=NOSPILL %}
// RUN: %if ptxas %{ %python %S/Inputs/ptx_of.py --ptxas ptxas --arch sm_90 %t/f16-90 < %t/f16-90.mlir | FileCheck %s --check-prefix=NOSPILL %}
// RUN: %if ptxas %{ %python %S/Inputs/ptx_of.py --ptxas ptxas --arch sm_90 %t/bf16-90 < %t/bf16-90.mlir | FileCheck %s --check-prefix=NOSPILL %}
//
// f32 stays exact on the SIMT kernel unless tf32=true asks for TF32
// tensor cores (m16n8k8, operands rounded as they are staged: through
// registers, so no cp.async):
// RUN: sed 's/f16/f32/g' %s > %t/f32.mlir
// RUN: amp-opt %t/f32.mlir -p 'builtin.module(amp-lower-to-nvvm{chip=sm_80 format=isa tf32=true})' -o %t/tf32-80.mlir
// RUN: %python %S/Inputs/ptx_of.py %t/tf32-80 < %t/tf32-80.mlir | FileCheck %s --check-prefix=TF32
// RUN: %if ptxas %{ %python %S/Inputs/ptx_of.py --ptxas ptxas --arch sm_80 %t/tf32-80 < %t/tf32-80.mlir | FileCheck %s --check-prefix=NOSPILL %}
// RUN: amp-opt %t/f32.mlir -p 'builtin.module(amp-lower-to-nvvm{chip=sm_80 format=isa})' -o %t/f32-80.mlir
// RUN: %python %S/Inputs/ptx_of.py %t/f32-80 < %t/f32-80.mlir | FileCheck %s --check-prefix=EXACT
// TF32:  binary matmul_kernel{{(_[0-9]+)?}}: st.shared={{[1-9][0-9]*}} ld.shared={{[1-9][0-9]*}} bar.sync={{[1-9][0-9]*}} shfl.sync=0 fma.rn.f32=0 mma.f16=0 mma.bf16=0 ldmatrix=0 cp.async=0 st.global.v2={{[1-9][0-9]*}} mma.tf32={{[1-9][0-9]*}}
// TF32:  binary batch_matmul_kernel{{.*}} mma.tf32={{[1-9][0-9]*}}
// TF32:  binary conv3x3_kernel{{.*}} mma.tf32={{[1-9][0-9]*}}
// EXACT: binary matmul_kernel{{(_[0-9]+)?}}: st.shared={{[1-9][0-9]*}} ld.shared={{[1-9][0-9]*}} bar.sync=2 shfl.sync=0 fma.rn.f32={{[1-9][0-9]*}} mma.f16=0 mma.bf16=0 ldmatrix=0 cp.async=0 st.global.v2=0 mma.tf32=0
//
// Below sm_80 (no m16n8k16 for 16-bit operands) the SIMT kernel stays:
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-nvvm{chip=sm_75 format=isa})' -o %t/f16-75.mlir
// RUN: %python %S/Inputs/ptx_of.py %t/f16-75 < %t/f16-75.mlir | FileCheck %s --check-prefix=SIMT
//
// The 1024^3 matmul: 64x64 tiles of 4 warps (a grid of 256 workgroups;
// 128x128 tiles would leave only 64), each warp 32x32 of the output (2x4
// mma tiles: 8 mma.sync per 16 k).
// F16:  binary matmul_kernel{{(_[0-9]+)?}}: st.shared=0 ld.shared=0 bar.sync={{[1-9][0-9]*}} shfl.sync=0 fma.rn.f32=0 mma.f16={{[1-9][0-9]*}} mma.bf16=0 ldmatrix={{[1-9][0-9]*}} cp.async={{[1-9][0-9]*}} st.global.v2={{[1-9][0-9]*}}
// F16:  binary batch_matmul_kernel{{(_[0-9]+)?}}: st.shared=0 ld.shared=0 bar.sync={{[1-9][0-9]*}} shfl.sync=0 fma.rn.f32=0 mma.f16={{[1-9][0-9]*}} mma.bf16=0 ldmatrix={{[1-9][0-9]*}} cp.async={{[1-9][0-9]*}} st.global.v2={{[1-9][0-9]*}}
// The 3x3 convolution as an implicit GEMM: the image's 16-byte chunks of
// channels are copied from where the filter window puts them.
// F16:  binary conv3x3_kernel{{(_[0-9]+)?}}: st.shared=0 ld.shared=0 bar.sync={{[1-9][0-9]*}} shfl.sync=0 fma.rn.f32=0 mma.f16={{[1-9][0-9]*}} mma.bf16=0 ldmatrix={{[1-9][0-9]*}} cp.async={{[1-9][0-9]*}} st.global.v2={{[1-9][0-9]*}}
// F16-NOT: binary
// BF16: binary matmul_kernel{{(_[0-9]+)?}}: st.shared=0 ld.shared=0 bar.sync={{[1-9][0-9]*}} shfl.sync=0 fma.rn.f32=0 mma.f16=0 mma.bf16={{[1-9][0-9]*}} ldmatrix={{[1-9][0-9]*}} cp.async={{[1-9][0-9]*}} st.global.v2={{[1-9][0-9]*}}
// BF16: binary batch_matmul_kernel{{(_[0-9]+)?}}: st.shared=0 ld.shared=0 bar.sync={{[1-9][0-9]*}} shfl.sync=0 fma.rn.f32=0 mma.f16=0 mma.bf16={{[1-9][0-9]*}} ldmatrix={{[1-9][0-9]*}} cp.async={{[1-9][0-9]*}} st.global.v2={{[1-9][0-9]*}}
// BF16: binary conv3x3_kernel{{(_[0-9]+)?}}: st.shared=0 ld.shared=0 bar.sync={{[1-9][0-9]*}} shfl.sync=0 fma.rn.f32=0 mma.f16=0 mma.bf16={{[1-9][0-9]*}} ldmatrix={{[1-9][0-9]*}} cp.async={{[1-9][0-9]*}} st.global.v2={{[1-9][0-9]*}}
// BF16-NOT: binary
// SIMT: binary matmul_kernel{{(_[0-9]+)?}}: st.shared={{[1-9][0-9]*}} ld.shared={{[1-9][0-9]*}} bar.sync=2 shfl.sync=0 fma.rn.f32={{[1-9][0-9]*}} mma.f16=0 mma.bf16=0 ldmatrix=0 cp.async=0
//
// NOSPILL-NOT: spill_stores={{[1-9]}}
// NOSPILL-NOT: spill_loads={{[1-9]}}
// NOSPILL:     ptxas: matmul_kernel registers={{[0-9]+}} spill_stores=0 spill_loads=0 smem={{[1-9][0-9]*}}
// NOSPILL:     ptxas: batch_matmul_kernel registers={{[0-9]+}} spill_stores=0 spill_loads=0 smem={{[1-9][0-9]*}}
// NOSPILL:     ptxas: conv3x3_kernel registers={{[0-9]+}} spill_stores=0 spill_loads=0 smem={{[1-9][0-9]*}}
// NOSPILL-NOT: spill_stores={{[1-9]}}
// NOSPILL-NOT: spill_loads={{[1-9]}}

func.func @matmul(%a: tensor<1024x1024xf16>, %b: tensor<1024x1024xf16>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}

func.func @batch_matmul(%a: tensor<16x256x64xf16>, %b: tensor<16x64x256xf16>) -> tensor<16x256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<16x256x64xf16>, tensor<16x64x256xf16>) outs(%f : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
  return %r : tensor<16x256x256xf32>
}

func.func @conv3x3(%x: tensor<8x34x34x64xf16>, %w: tensor<3x3x64x64xf16>) -> tensor<8x32x32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32x32x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32x32x64xf32>) -> tensor<8x32x32x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<8x34x34x64xf16>, tensor<3x3x64x64xf16>) outs(%f : tensor<8x32x32x64xf32>) -> tensor<8x32x32x64xf32>
  return %r : tensor<8x32x32x64xf32>
}

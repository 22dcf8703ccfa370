//===- Passes.td - lowering passes for GPU kernels ---------*- tablegen -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_GPU_PASSES_TD
#define AMP_BACKEND_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def ContiguousKernelBuffers : Pass<"amp-contiguous-kernel-buffers"> {
  let summary = "Give linalg ops on buffers identity-layout operands, copying "
                "strided views in and out";
  let description = [{
    For GPU kernels whose buffers are passed as bare pointers (amp's Vulkan
    calling convention: a buffer is its aligned pointer and its size in
    bytes), a view with an offset or strides (a `memref.subview` of a
    `tensor.extract_slice`, a strided `expand_shape`) would reach the kernel
    without its offset and with too few bytes. This pass replaces every
    operand of a linalg op on buffers whose layout is not the identity by a
    new identity-layout buffer of the same shape: the view is copied into it
    before the op (`memref.copy`, on the host) unless the op only overwrites
    it, copied back after the op when the op writes it, and the buffer is
    freed. A value used by several operands of one op gets one buffer. Ops
    with dynamic shapes are left alone.

    Before:
    ```mlir
    %v = memref.subview %a[0, 128] [450, 64] [1, 1]
        : memref<450x256xf32> to memref<450x64xf32, strided<[256, 1], offset: 128>>
    linalg.generic ... ins(%v : memref<450x64xf32, strided<[256, 1], offset: 128>>)
                       outs(%o : memref<450x64xf32>)
    ```
    After:
    ```mlir
    %c = memref.alloc() : memref<450x64xf32>
    memref.copy %v, %c : memref<450x64xf32, strided<[256, 1], offset: 128>> to memref<450x64xf32>
    linalg.generic ... ins(%c : memref<450x64xf32>) outs(%o : memref<450x64xf32>)
    memref.dealloc %c : memref<450x64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def ReductionLoopsInnermost : Pass<"amp-reduction-loops-innermost"> {
  let summary = "Move the reduction dimensions of linalg ops after their "
                "parallel dimensions";
  let description = [{
    Permutes the loop dimensions of every structured linalg op that has a
    reduction dimension before a parallel one, so that its parallel
    dimensions come first and its reduction dimensions last, each group in
    its original order (named ops are generalized to `linalg.generic`
    first). `convert-linalg-to-parallel-loops` then makes one `scf.parallel`
    over all the parallel dimensions with the reductions as `scf.for` loops
    inside it, which `gpu-map-parallel-loops` and
    `convert-parallel-loops-to-gpu` turn into one kernel. Without it, a
    reduction over a middle axis (`tosa.reduce_sum` over axis 1 of a 4-d
    tensor, a global average pool written as sums) becomes an `scf.parallel`
    inside an `scf.for` inside an `scf.parallel`, which cannot be mapped to
    GPU threads.

    Each output element still sums its terms in the same order (the
    reduction dimensions keep their relative order), so results do not
    change.

    Before:
    ```mlir
    linalg.generic {indexing_maps = [(n, r, c) -> (n, r, c), (n, r, c) -> (n, c)],
                    iterator_types = ["parallel", "reduction", "parallel"]} ...
    ```
    After:
    ```mlir
    linalg.generic {indexing_maps = [(n, c, r) -> (n, r, c), (n, c, r) -> (n, c)],
                    iterator_types = ["parallel", "parallel", "reduction"]} ...
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def TileParallelLoopsForGPU : Pass<"amp-tile-parallel-loops-for-gpu"> {
  let summary = "Split outermost scf.parallel loops into workgroups of "
                "invocations";
  let description = [{
    Tiles every outermost `scf.parallel` loop with static trip counts so that
    `gpu-map-parallel-loops` maps the outer loop to the grid and the inner
    one to the invocations of a workgroup (GPU threads). Tile sizes are
    chosen per loop, from the innermost dimension outwards: each dimension
    gets the largest divisor of its trip count that keeps the product of
    the sizes at most `workgroup-size`, so that tiles are full and no
    invocation is idle (a prime trip count larger than the budget gets a
    tile of 1). Only the first three dimensions, which
    `gpu-map-parallel-loops` maps to the x, y and z ids, take part: the
    others run sequentially in every invocation and get tiles of 1.
    Loops that are already nested in a parallel loop, that
    reduce (have results), or whose bounds or steps are not constant, are
    left alone.

    Devices cap the workgroups of a dispatch per dimension (Vulkan's
    `maxComputeWorkGroupCount`, 65535 on many GPUs and on lavapipe). A
    dimension of the workgroup loop with more than `max-workgroups`
    iterations is split into two, `a * f + b` with both within the cap,
    when the loop has fewer than three dimensions (a 1-D loop over 8M
    elements: 131072 workgroups become 32768 x 4); otherwise the launch
    reports the excess.

    Before:
    ```mlir
    scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c128) step (%c1, %c1) { ... }
    ```
    After (`workgroup-size=64`):
    ```mlir
    scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c128) step (%c1, %c64) {
      scf.parallel (%ii, %jj) = (%c0, %c0) to (%c1, %c64) step (%c1, %c1) {
        ... (guarded by %j + %jj < 128, always true here)
      }
    }
    ```
  }];
  let options = [
    Option<"workgroupSize", "workgroup-size", "int64_t", /*default=*/"64",
           "Most invocations per workgroup (1 leaves the loops alone)">,
    Option<"maxWorkgroups", "max-workgroups", "int64_t", /*default=*/"65535",
           "Most workgroups along one dimension of the grid">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def WorkgroupAllocsToAttributions
    : Pass<"amp-workgroup-allocs-to-attributions"> {
  let summary = "Turn workgroup-memory allocations in GPU kernels into "
                "workgroup attributions";
  let description = [{
    A `memref.alloc` in `#gpu.address_space<workgroup>` inside a `gpu.func`
    (the staged operand tiles of amp's contraction kernels) would lower to
    a `malloc` call on NVVM. This pass makes each such allocation of static
    shape in the function's entry block a workgroup attribution of the
    function, which the NVVM lowering emits as a `.shared` array, and
    erases its deallocations. Other allocations are left alone.

    Before:
    ```mlir
    gpu.func @k() kernel {
      %s = memref.alloc() : memref<2x64x17xf16, #gpu.address_space<workgroup>>
      ...
    }
    ```
    After:
    ```mlir
    gpu.func @k() workgroup(%s : memref<2x64x17xf16, #gpu.address_space<workgroup>>) kernel {
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TileContractionsForTensorCores
    : Pass<"amp-tile-contractions-for-tensor-cores"> {
  let summary = "Turn f16/bf16 contractions with f32 accumulators into "
                "tensor-core kernels (mma.sync, ldmatrix, cp.async)";
  let description = [{
    Replaces every contraction on buffers that the GPU contraction strategy
    takes (matmul, batch matmul, transposed operands, the products of
    attention, convolutions as implicit GEMMs) whose two operands are f16
    or both bf16 and whose body adds their extended product to an f32
    accumulator by a `gpu.launch` that computes it on NVIDIA's tensor cores
    (sm_80 and later):

    - a workgroup per output tile (128x128 with 8 warps, 64x64 or 32x32 with
      4, chosen by the grid's size against `min-workgroups`), the batch on
      the grid's z;
    - operand tiles moved from global to shared memory by
      `nvgpu.device_async_copy` (cp.async, 16 bytes a copy, bypassing L1),
      `stages` k steps in flight; an operand gathered through its map (a
      convolution's image), computed by a fused prologue, or whose rows are
      no multiple of 16 bytes goes through registers instead; rows padded by
      16 bytes so that ldmatrix reads hit distinct banks;
    - per warp, `nvgpu.ldmatrix` fragments (transposed for a tile stored
      k-major) and `nvgpu.mma.sync` m16n8k16 into f32 accumulators that stay
      in registers across the whole reduction;
    - masked edges: rows past the operands' ends read their last row and
      are not stored, k past the end is zero-filled;
    - the fill before the op starts the accumulators, the elementwise op
      after it is applied before the single store of each output.

    The launch carries its tiling as `amp.lowering_config =
    {workgroup = array<i64: M, N, K>, warps = array<i64: M, N>, stages =
    S}`; an op that carries such an attribute is tiled with it, or the pass
    fails with the reason. Other contractions (f32, integers, a body that is
    not a multiply-add) are left to `amp-tile-contractions-for-gpu`.

    f32 contractions stay exact unless `tf32=true`: then those whose body
    adds the plain product are computed on TF32 tensor cores
    (`mma.sync.m16n8k8...tf32`), their operands rounded to TF32 (10
    mantissa bits, to nearest, ties away: `cvt.rna`) as they are staged
    through registers, their fragments read element by element.
  }];
  let options = [
    Option<"minWorkgroups", "min-workgroups", "int64_t", /*default=*/"128",
           "Smallest grid for which larger output tiles are chosen">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "Also f32 contractions, in TF32 (mma.sync m16n8k8): each operand "
           "rounded to 10 mantissa bits as it is staged, products summed "
           "in f32">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def ConvertBF16MMAToNVVM : Pass<"amp-convert-bf16-mma-to-nvvm"> {
  let summary = "Lower nvgpu.mma.sync on bf16 operands to nvvm.mma.sync";
  let description = [{
    `convert-nvgpu-to-nvvm` of MLIR 22 cannot lower `nvgpu.mma.sync` with
    bf16 operands ("failed to deduce operand PTX types"), while the NVVM op
    and ptxas take them. This pass rewrites each m16n8k16 bf16 x bf16 + f32
    `nvgpu.mma.sync` into an `nvvm.mma.sync` whose fragment rows (pairs of
    bf16) are bitcast to i32 registers, with its four f32 results gathered
    back into the accumulator vector. f16 and tf32 ops are left to
    `convert-nvgpu-to-nvvm`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def EmulateTensorCores : Pass<"amp-emulate-tensor-cores"> {
  let summary = "Run the warp-level NVGPU ops of tensor-core kernels on any "
                "GPU, for testing";
  let description = [{
    Rewrites, in every `gpu.launch`, the ops of the tensor-core kernels
    (`nvgpu.device_async_copy`, `nvgpu.device_async_create_group`,
    `nvgpu.device_async_wait`, `nvgpu.ldmatrix`, `nvgpu.mma.sync`
    m16n8k16 on 16-bit operands, m16n8k8 in TF32 on operands already
    rounded to TF32) into loads, stores, arithmetic and
    workgroup barriers that any GPU backend lowers. What the lanes of a warp
    (32 consecutive threads) exchange goes through workgroup memory: each
    lane publishes the row address it gives ldmatrix or the fragments it
    holds, and reads back what PTX's fragment layouts say it receives. The
    copies become synchronous; elements past `srcElements` are zeros. The
    products are exact in f32 and summed in f32, in the order k = 0..15.

    This is how amp checks its tensor-core kernels' indexing (tiles,
    stages, zero fill, fragment layouts, transposition, epilogues) on a
    machine without an NVIDIA GPU: `amp-lower-to-vulkan{tensor-core-
    emulation=true}` builds the NVVM backend's kernels and runs them on any
    Vulkan device. Speed means nothing there. Launches must have a constant
    number of threads, a multiple of 32, and reach every barrier together
    (the kernels call these ops in uniform control flow).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // AMP_BACKEND_GPU_PASSES_TD

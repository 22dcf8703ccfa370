//===- Passes.td - lowering passes for Vulkan (SPIR-V) -----*- tablegen -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_SPIRV_PASSES_TD
#define AMP_BACKEND_SPIRV_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttachSPIRVEntryPointABI : Pass<"amp-attach-spirv-entry-point-abi"> {
  let summary = "Give GPU kernels the SPIR-V entry point ABI of their block size";
  let description = [{
    Sets `spirv.entry_point_abi` on every `gpu.func` kernel that has none,
    with the workgroup size of its `known_block_size` (1x1x1 when unknown),
    so that `convert-gpu-to-spirv` turns it into a SPIR-V entry point.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
}

def NestSPIRVModules : Pass<"amp-nest-spirv-modules", "::mlir::ModuleOp"> {
  let summary = "Move each kernel's spirv.module into its gpu.module";
  let description = [{
    For Vulkan (`Shader`) targets, `convert-gpu-to-spirv` places the
    `spirv.module @__spv__<name>` it makes for `gpu.module @<name>` beside
    it, while `gpu-module-to-binary` serialises the `spirv.module` found
    inside a `gpu.module`. This pass moves every such `spirv.module` into
    the `gpu.module` it was made from, so that the kernels can be
    serialised into `gpu.binary` ops for a runtime. A `spirv.module` whose
    `gpu.module` cannot be found is an error.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::spirv::SPIRVDialect"];
}

def EmulateBF16Storage : Pass<"amp-emulate-bf16-storage", "::mlir::ModuleOp"> {
  let summary = "Make bf16 storage-only in GPU kernels: i16 in memory, f32 "
                "arithmetic, bit-exact conversions";
  let description = [{
    For targets without bf16 (SPIR-V for Vulkan, e.g. Mesa's lavapipe),
    rewrites every `gpu.module` so that no bf16 type remains, while the
    kernels compute what the bf16 program computes:

    1. bf16 arithmetic (`arith`) and math functions (`math`) run in f32
       with their results rounded to bf16 (upstream
       `arith-emulate-unsupported-floats` and
       `math-extend-to-supported-types` patterns). For +, -, *, / and sqrt
       this rounding gives exactly the bf16 result.
    2. bf16 values and buffers become i16 holding the same bits. The casts
       become integer code that is exact on every input:
       `extf` bf16 -> f32 shifts the 16 bits into the high half of an f32;
       `truncf` f32 -> bf16 rounds to nearest, ties to even, on the bits,
       keeps infinities, and turns a NaN into a quiet NaN of the same sign
       and leading payload bits (as hardware conversions do).
       bf16 constants become i16 constants of their bits.
    3. Launches of the rewritten kernels pass their bf16 buffers through a
       `builtin.unrealized_conversion_cast` to the i16 buffer type (the same
       bytes); `reconcile-unrealized-casts` removes it once the host is in
       the LLVM dialect.

    Host code is left alone: it keeps bf16 buffers and computes whatever
    bf16 it has with the CPU's own conversions.

    Before (in a kernel):
    ```mlir
    %x = memref.load %in[%i] : memref<64xbf16>
    %y = arith.addf %x, %x : bf16
    memref.store %y, %out[%i] : memref<64xbf16>
    ```
    After:
    ```mlir
    %x = memref.load %in[%i] : memref<64xi16>
    %w = arith.extui %x : i16 to i32
    ... (shift, bitcast to f32) ...
    %s = arith.addf %xf, %xf : f32
    ... (round to nearest even on the bits, NaN check) ...
    memref.store %y, %out[%i] : memref<64xi16>
    ```
    A kernel op that would still need bf16 (one that is neither arithmetic,
    math, a cast, a constant nor data movement) is an error.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::vector::VectorDialect"];
}

def ExpandFloorCeilDiv : Pass<"amp-expand-floor-ceil-div"> {
  let summary = "Expand rounding integer divisions into plain ones";
  let description = [{
    Rewrites `arith.floordivsi`, `arith.ceildivsi` and `arith.ceildivui`
    into `arith.divsi`/`divui` with comparisons and selects (upstream
    MLIR's patterns), for targets without such instructions: SPIR-V, where
    the index arithmetic of a bilinear `tosa.resize` kernel otherwise fails
    to lower ("failed to legalize operation 'arith.floordivsi'"). Other
    `arith` ops, including the min/max ops that `arith-expand` would also
    rewrite, are left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def WorkgroupAllocsToSPIRV : Pass<"amp-workgroup-allocs-to-spirv"> {
  let summary = "Put workgroup-memory allocations of GPU kernels in SPIR-V's "
                "Workgroup storage class";
  let description = [{
    The GPU-to-SPIR-V conversion turns a `memref.alloc` in
    `#spirv.storage_class<Workgroup>` inside a kernel into a Workgroup
    `spirv.GlobalVariable`, but does not map `#gpu.address_space<
    workgroup>`, the memory space amp's contraction kernels (and the GPU
    dialect) use. This pass gives every such allocation inside a `gpu.func`
    the SPIR-V storage class; loads and stores of it are unchanged. Other
    uses than loads, stores and deallocations are an error.

    Before:
    ```mlir
    %s = memref.alloc() : memref<2x64x17xf16, #gpu.address_space<workgroup>>
    ```
    After:
    ```mlir
    %s = memref.alloc() : memref<2x64x17xf16, #spirv.storage_class<Workgroup>>
    ```
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
}

def SetSPIRVSubgroupSize : Pass<"amp-set-spirv-subgroup-size",
                                "::mlir::ModuleOp"> {
  let summary = "Give the SPIR-V targets of GPU modules the device's "
                "subgroup size";
  let description = [{
    `spirv-attach-target` attaches a `#spirv.target_env` with default
    resource limits, whose subgroup size (32) is what the GPU-to-SPIR-V
    conversion requires of every `gpu.shuffle`'s width. When amp's kernels
    shuffle within subgroups of the device's size
    (`amp-lower-to-spirv{subgroup-size=N}`), this pass sets `subgroup_size =
    N` in the resource limits of every SPIR-V target of every `gpu.module`,
    so the shuffles convert to `spirv.GroupNonUniformShuffleXor`.
  }];
  let options = [
    Option<"size", "size", "int64_t", /*default=*/"32",
           "The device's subgroup size (a power of two)">,
  ];
}

def TileContractionsForCooperativeMatrices
    : Pass<"amp-tile-contractions-for-cooperative-matrices"> {
  let summary = "Turn f16/bf16 contractions with f32 accumulators into "
                "kernels on a Vulkan device's cooperative matrices";
  let description = [{
    The tensor-core strategy of the NVVM backend
    (`amp-tile-contractions-for-tensor-cores`, which takes the same ops)
    with `gpu.subgroup_mma_*` ops instead of NVGPU ones, for Vulkan devices
    whose target env has the `CooperativeMatrixKHR` capability
    (`convert-gpu-to-spirv` then emits `spirv.KHR.CooperativeMatrixLoad`,
    `MulAdd` and `Store`): a workgroup of 4 or 8 subgroups of
    `subgroup-size` threads per output tile, operand tiles staged through
    registers into 2 or 3 stages of shared memory (rows padded by 16
    bytes), each subgroup loading 16x16 fragments from them (column-major
    where a tile is stored the other way round) and keeping 16x16 f32
    accumulator matrices, started from the fill before the op, across the
    reduction. The results go through a shared tile, from which each
    thread applies the fused epilogue and stores its elements (guarded at
    the edges). Contractions without a fill before them are left alone.

    Cooperative matrices are subgroup operations: `subgroup-size` must be
    the size the device runs the kernel with (amp-lower-to-vulkan sets it
    as the target's required size). Mesa 22's lavapipe runs no cooperative
    matrices and spirv-val 2023.1 rejects the capability, so these kernels
    are checked by their structure and a SPIR-V serialization round trip
    only.
  }];
  let options = [
    Option<"subgroupSize", "subgroup-size", "int64_t", /*default=*/"32",
           "Threads of a subgroup on the device">,
    Option<"minWorkgroups", "min-workgroups", "int64_t", /*default=*/"128",
           "Smallest grid for which larger output tiles are chosen">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // AMP_BACKEND_SPIRV_PASSES_TD

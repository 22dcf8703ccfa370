//===- TensorCoreContractions.h - Contractions on tensor cores --*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The kernel strategy of the NVVM backend for contractions whose operands
// are f16 or bf16 and whose accumulator is f32: NVIDIA's tensor cores
// through `mma.sync.aligned.m16n8k16` (sm_80 and later). A workgroup
// computes a tile of the output with several warps; operand tiles move from
// global to shared memory with `cp.async` (or through registers where an
// operand is gathered or computed by a fused prologue), several k steps in
// flight; warps read their fragments with `ldmatrix` and keep their f32
// accumulators in registers across the whole reduction; the fused epilogue
// is applied to each accumulator before its single store.
//
// The kernel is built from NVGPU ops (nvgpu.device_async_copy,
// nvgpu.ldmatrix, nvgpu.mma.sync); populateBF16MMAToNVVMPatterns supplies
// the bf16 lowering of nvgpu.mma.sync that MLIR 22 lacks. On request f32
// contractions run in TF32 (m16n8k8). The same kernel skeleton with
// gpu.subgroup_mma_* ops serves Vulkan's cooperative matrices
// (MatrixUnit::CooperativeMatrix, the SPIR-V backend's pass).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_GPU_TENSORCORECONTRACTIONS_H
#define AMP_BACKEND_GPU_TENSORCORECONTRACTIONS_H

#include "amp/Backend/Common/GPUContractionStrategy.h"

#include <optional>

namespace mlir {
class RewritePatternSet;

namespace amp {

/// The matrix unit a kernel computes on.
enum class MatrixUnit {
  /// NVIDIA's tensor cores through NVGPU ops (mma.sync m16n8k16, ldmatrix,
  /// cp.async): the NVVM backend.
  MmaSync,
  /// Whatever a Vulkan device's cooperative matrices run on, through
  /// gpu.subgroup_mma_* ops (16x16x16 tiles per subgroup), which
  /// convert-gpu-to-spirv makes spirv.KHR.CooperativeMatrix* where the
  /// target env has the CooperativeMatrixKHR capability.
  CooperativeMatrix,
};

/// Tile sizes of a tensor-core contraction kernel: each workgroup computes a
/// tileM x tileN block of the output with warpsM x warpsN warps, each warp
/// a (tileM / warpsM) x (tileN / warpsN) block of 16x8 mma tiles; the
/// reduction advances tileK at a time with `stages` k steps staged in
/// shared memory.
struct TensorCoreConfig {
  int64_t tileM = 128, tileN = 128, tileK = 32;
  int64_t warpsM = 2, warpsN = 4;
  int64_t stages = 2;
  /// Threads of a warp (NVIDIA: 32) or of a subgroup (a Vulkan device's
  /// size); not part of the attribute.
  int64_t laneCount = 32;

  int64_t warpTileM() const { return tileM / warpsM; }
  int64_t warpTileN() const { return tileN / warpsN; }
  int64_t threads() const { return laneCount * warpsM * warpsN; }

  /// As the `amp.lowering_config` attribute: `{workgroup = array<i64: M, N,
  /// K>, warps = array<i64: M, N>, stages = S : i64}`.
  DictionaryAttr toAttr(MLIRContext *context) const;
  /// Reads `attr`; std::nullopt (with a message in `error`) when it is not
  /// a dictionary of that form.
  static std::optional<TensorCoreConfig> fromAttr(Attribute attr,
                                                  std::string &error);
  /// Whether `attr` is meant as a TensorCoreConfig (it has `warps`).
  static bool isTensorCoreAttr(Attribute attr);
};

/// The element type of `c`'s operands when tensor cores can compute it:
/// both inputs f16 or both bf16, an f32 output, and a body that adds the
/// product of the extended inputs to the accumulator; with `allowTF32`
/// also f32 inputs whose product the body adds (computed in TF32: the
/// operands rounded to 10 mantissa bits). Otherwise failure, with the
/// reason.
FailureOr<Type> matchTensorCoreContraction(const GPUContraction &c,
                                           std::string *reason = nullptr,
                                           bool allowTF32 = false);

/// The tilings of `c` in order of preference: 128x128x32 tiles of 8 warps
/// (2 stages), 64x64x32 of 4 warps (3 stages) and 32x32x32 of 4 warps (3
/// stages), from the largest whose grid has at least `minWorkgroups`
/// workgroups (else the smallest) down.
SmallVector<TensorCoreConfig> chooseTensorCoreConfigs(const GPUContraction &c,
                                                      int64_t minWorkgroups);

/// Why `config` cannot tile `c` on `unit` (warp tiles that are no multiple
/// of the unit's tiles, threads, shared memory, grid limits; cooperative
/// matrices also need the fill that starts the accumulators), or
/// std::nullopt.
std::optional<std::string>
checkTensorCoreConfig(const GPUContraction &c, const TensorCoreConfig &config,
                      MatrixUnit unit = MatrixUnit::MmaSync);

/// Replaces the contraction (and its fill, prologues and epilogue) by a
/// gpu.launch computing it on `unit` with `config` (which
/// checkTensorCoreConfig accepted). With cooperative matrices the operand
/// tiles go through registers, each subgroup loads 16x16 fragments from
/// them and keeps 16x16 f32 accumulator matrices across the reduction, and
/// the results pass through shared memory to the epilogue and the guarded
/// stores.
FailureOr<gpu::LaunchOp>
tileTensorCoreContraction(RewriterBase &rewriter, const GPUContraction &c,
                          const TensorCoreConfig &config,
                          MatrixUnit unit = MatrixUnit::MmaSync);

/// Tiles every contraction on buffers under `root` that `unit` can compute
/// (matchGPUContraction and matchTensorCoreContraction) with
/// the first of chooseTensorCoreConfigs(minWorkgroups) it can use, warps or
/// subgroups of `laneCount` threads (f32 ones too, in TF32, with `allowTF32` on
/// MmaSync), or with the TensorCoreConfig an op carries as
/// `amp.lowering_config` (an error if it cannot be used). Ops inside
/// kernels, and ops carrying a configuration of the SIMT kernel, are left
/// alone.
LogicalResult tileContractionsOnMatrixUnits(Operation *root, MatrixUnit unit,
                                            int64_t minWorkgroups,
                                            int64_t laneCount,
                                            bool allowTF32 = false);

/// nvgpu.mma.sync on bf16 operands as nvvm.mma.sync (the packed pairs of
/// bf16 as i32 registers), ahead of convert-nvgpu-to-nvvm, which does not
/// lower them.
void populateBF16MMAToNVVMPatterns(RewritePatternSet &patterns);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_GPU_TENSORCORECONTRACTIONS_H

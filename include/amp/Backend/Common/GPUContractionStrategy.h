//===- GPUContractionStrategy.h - Tiled contractions on GPUs ----*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The kernel strategy both GPU backends (NVVM and SPIR-V) use for
// contractions: which ops it takes, the tile sizes it picks for a shape
// (one function, carried on the op as `amp.lowering_config` so that users
// and tests can see or override it), and the rewrite of a contraction on
// buffers into a gpu.launch whose workgroups stage operand tiles in
// workgroup memory, double-buffered, and whose threads keep a register
// tile of accumulators through the whole reduction.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_COMMON_GPUCONTRACTIONSTRATEGY_H
#define AMP_BACKEND_COMMON_GPUCONTRACTIONSTRATEGY_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir {
class DictionaryAttr;
namespace gpu {
class LaunchOp;
} // namespace gpu

namespace amp {

/// Tile sizes of a contraction kernel: each workgroup computes a
/// tileM x tileN block of the output (of one batch element), stepping
/// through the reduction tileK at a time; each of its
/// (tileM / threadM) * (tileN / threadN) threads accumulates
/// threadM x threadN outputs in registers.
struct GPUContractionConfig {
  int64_t tileM = 64, tileN = 64, tileK = 16;
  int64_t threadM = 4, threadN = 4;

  int64_t threadsM() const { return tileM / threadM; }
  int64_t threadsN() const { return tileN / threadN; }
  int64_t threads() const { return threadsM() * threadsN(); }

  /// As the `amp.lowering_config` attribute:
  /// `{workgroup = array<i64: M, N, K>, thread = array<i64: M, N>}`.
  DictionaryAttr toAttr(MLIRContext *context) const;
  /// Reads `attr`; std::nullopt (with a message in `error`) when it is not
  /// a dictionary of that form.
  static std::optional<GPUContractionConfig> fromAttr(Attribute attr,
                                                      std::string &error);
};

/// The name of the attribute carrying a GPUContractionConfig on an op.
inline constexpr llvm::StringLiteral kLoweringConfigAttrName =
    "amp.lowering_config";

/// A contraction the strategy takes: a linalg op on identity-layout buffers
/// of static shape with two inputs and one init, whose loops are batch
/// dimensions (any number), one m, one n and one k dimension
/// (linalg::inferContractionDims), and whose body is any side-effect-free
/// computation of the new output from the two inputs and the old output
/// (the kernel applies it for k = 0, 1, ... in order, as the loop nest
/// would). That covers matmul, batch matmul, transposed operands and the
/// two products of attention.
struct GPUContraction {
  linalg::LinalgOp op;
  /// Which input is the m x k operand (0 or 1); the other is k x n.
  unsigned lhs = 0;
  SmallVector<unsigned, 2> batchDims;
  unsigned mDim = 0, nDim = 0, kDim = 0;
  SmallVector<int64_t> loopSizes;

  int64_t batch() const;
  int64_t sizeM() const { return loopSizes[mDim]; }
  int64_t sizeN() const { return loopSizes[nDim]; }
  int64_t sizeK() const { return loopSizes[kDim]; }
};

/// `op` as a contraction the strategy takes, or failure with the reason.
FailureOr<GPUContraction> matchGPUContraction(Operation *op,
                                              std::string *reason = nullptr);

/// The tiling of `contraction`: 64x64 output tiles of 4x4 per thread where
/// the grid has at least `minWorkgroups` workgroups, smaller tiles (and
/// register tiles) where it would not, each shrunk to the problem where a
/// dimension is smaller than its tile; k steps of 16.
GPUContractionConfig chooseGPUContractionConfig(const GPUContraction &c,
                                                int64_t minWorkgroups);

/// Why `config` cannot tile `contraction` (threads per workgroup, workgroup
/// memory, grid limits), or std::nullopt when it can.
std::optional<std::string>
checkGPUContractionConfig(const GPUContraction &c,
                          const GPUContractionConfig &config);

/// Replaces the contraction by a gpu.launch computing it with `config`
/// (which checkGPUContractionConfig accepted). A linalg.fill of the init
/// buffer right before the op becomes the accumulators' initial value.
FailureOr<gpu::LaunchOp> tileGPUContraction(RewriterBase &rewriter,
                                            const GPUContraction &c,
                                            const GPUContractionConfig &config);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_COMMON_GPUCONTRACTIONSTRATEGY_H

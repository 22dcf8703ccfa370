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

/// Whether a GPU kernel strategy can index `type` directly: a memref of
/// static shape with the identity layout in the default (global) memory
/// space.
bool isGPUKernelBuffer(Type type);

/// The value `op` writes to every element of its one output, if it is a
/// fill (on buffers or on tensors): a linalg.fill, or the generic it
/// generalizes to (no inputs, parallel loops, yielding a value from outside
/// its body).
Value getFilledValue(Operation *op);

/// Whether `op`'s body computes its one result from its block arguments
/// alone: no side effects, no linalg.index, no regions. A GPU kernel
/// strategy then clones it wherever it computes an element.
bool hasPlainBody(linalg::LinalgOp op);

/// The name of the attribute carrying a GPUContractionConfig on an op.
inline constexpr llvm::StringLiteral kLoweringConfigAttrName =
    "amp.lowering_config";

/// A contraction the strategy takes, as a batch of GEMMs: a linalg op on
/// identity-layout buffers of static shape with two inputs and one init
/// whose loops are batch dimensions (the grid's z), m dimensions (rows of
/// the lhs and the output), n dimensions (columns of the rhs and the
/// output) and k dimensions (the reduction), each group possibly of several
/// loops, and whose body is any side-effect-free computation of the new
/// output from the two inputs and the old output (the kernel applies it for
/// the k loops in their order, as the loop nest would).
///
/// Contractions (linalg::inferContractionDims) cover matmul, batch matmul,
/// transposed operands, the two products of attention and products of
/// n-d activations with a weight. Convolutions
/// (linalg::inferConvolutionDims) are implicit GEMMs: m = batch and output
/// image dimensions, n = output channels, k = filter window and input
/// channels; the lhs tile is gathered from the (padded) image through the
/// op's indexing map, never materialised as an im2col buffer. Depthwise
/// convolutions (no output channel loop) are not taken.
struct GPUContraction {
  linalg::LinalgOp op;
  /// Which input has the m dimensions (0 or 1); the other has n.
  unsigned lhs = 0;
  SmallVector<unsigned, 2> batchDims, mDims, nDims, kDims;
  SmallVector<int64_t> loopSizes;
  /// The fill of the output right before the op (a linalg.fill or its
  /// generic form) and the value it writes: the accumulators' start.
  Operation *fill = nullptr;
  Value fillValue;
  /// The elementwise op right after the op that reads its output (bias,
  /// activation, residual, the cast to f16/bf16): applied to each
  /// accumulator before the single store, into its own output.
  linalg::LinalgOp epilogue;
  /// Per input, the elementwise op that computes it into a temporary that
  /// only the contraction reads (the rounding of an f32 argument to
  /// f16/bf16): applied as the tiles are loaded, from its own inputs, so
  /// the temporary is never written.
  linalg::LinalgOp prologues[2];

  int64_t product(ArrayRef<unsigned> dims) const;
  int64_t batch() const { return product(batchDims); }
  int64_t sizeM() const { return product(mDims); }
  int64_t sizeN() const { return product(nDims); }
  int64_t sizeK() const { return product(kDims); }
};

/// `op` as a contraction the strategy takes, or failure with the reason.
FailureOr<GPUContraction> matchGPUContraction(Operation *op,
                                              std::string *reason = nullptr);

/// The tiling of `contraction`: the largest of 128x128 output tiles of 8x8
/// per thread, 64x64 of 4x4, 32x64 of 2x4 and 32x32 of 2x2 (256 threads
/// each) whose grid has at least `minWorkgroups` workgroups, else the
/// smallest; each shrunk to the problem where a dimension is smaller than
/// its tile; k steps of 16.
GPUContractionConfig chooseGPUContractionConfig(const GPUContraction &c,
                                                int64_t minWorkgroups);

/// Why `config` cannot tile `contraction` (threads per workgroup, workgroup
/// memory, grid limits), or std::nullopt when it can.
std::optional<std::string>
checkGPUContractionConfig(const GPUContraction &c,
                          const GPUContractionConfig &config);

/// Replaces the contraction (and its fill, prologues and epilogue) by a
/// gpu.launch
/// computing it with `config` (which checkGPUContractionConfig accepted).
FailureOr<gpu::LaunchOp> tileGPUContraction(RewriterBase &rewriter,
                                            const GPUContraction &c,
                                            const GPUContractionConfig &config);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_COMMON_GPUCONTRACTIONSTRATEGY_H

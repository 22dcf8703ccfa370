//===- GPUReductionStrategy.h - Row reductions across a workgroup -*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The strategy both GPU backends use for row reductions (softmax's max and
// sum, layer norm's mean and variance, linalg.reduce, pools written as
// sums): a workgroup per row, whose threads each reduce a strided share of
// the row in a register, then combine their partial results across the
// subgroup with shuffles (where the target has them) and across the
// workgroup through workgroup memory.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_COMMON_GPUREDUCTIONSTRATEGY_H
#define AMP_BACKEND_COMMON_GPUREDUCTIONSTRATEGY_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gpu {
class LaunchOp;
} // namespace gpu

namespace amp {

/// A row reduction the strategy takes: a linalg op on identity-layout
/// buffers of static shape with one init, whose last loop is its only
/// reduction loop (amp-reduction-loops-innermost puts it there), and whose
/// body yields `combiner(x, acc)` (or `combiner(acc, x)`), where the
/// combiner is an associative, commutative float op (addf, mulf, maximumf,
/// minimumf, maxnumf, minnumf), `acc` is the output's block argument used
/// only there, and `x` is any side-effect-free function of the inputs.
struct GPURowReduction {
  linalg::LinalgOp op;
  /// The combining op in the body.
  Operation *combiner = nullptr;
  /// Which operand of the combiner is the accumulator.
  unsigned accOperand = 0;
  SmallVector<int64_t> loopSizes;

  int64_t rows() const;
  int64_t rowSize() const { return loopSizes.back(); }
};

/// `op` as a row reduction the strategy takes (rows of at least
/// `minRowSize` elements), or failure.
FailureOr<GPURowReduction> matchGPURowReduction(Operation *op,
                                                int64_t minRowSize);

/// Replaces the reduction by a gpu.launch with one workgroup of
/// `workgroupSize` threads (a power of two) per row. With `subgroupSize`
/// (a power of two, 0 for none) the threads of a subgroup first combine
/// their partial results with `gpu.shuffle xor`.
///
/// The partial results are combined in another order than the loop's, so
/// sums differ from a sequential sum by rounding (they are usually more
/// accurate: a tree of depth log2(n) instead of a chain of n additions).
FailureOr<gpu::LaunchOp> reduceRowsInWorkgroups(RewriterBase &rewriter,
                                                const GPURowReduction &r,
                                                int64_t workgroupSize,
                                                int64_t subgroupSize);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_COMMON_GPUREDUCTIONSTRATEGY_H

//===- GPUReductionStrategy.h - Row reductions across a workgroup -*- C++
//-*-===//
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

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
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

/// The identity of `combiner` (addf: -0, mulf: 1, maximumf/maxnumf: -inf,
/// minimumf/minnumf: +inf) in `type`, or null for any other op.
TypedAttr getCombinerIdentity(Operation *combiner, FloatType type);

/// Combines each thread's `partial` across the workgroup of
/// `workgroupSize` threads (a power of two; thread `tid`) with `combine`,
/// and returns the result in every thread. With `subgroupSize` S > 1: xor
/// shuffles within each subgroup, then the subgroups' results through
/// workgroup memory after one barrier; with 0: a tree through workgroup
/// memory with a barrier per level.
Value combineAcrossWorkgroup(OpBuilder &b, Location loc, Value partial,
                             Value tid, int64_t workgroupSize,
                             int64_t subgroupSize,
                             function_ref<Value(Value, Value)> combine);

/// A gpu.launch with one workgroup of `threads` threads per row of a
/// `rowDims`-shaped set of rows (rows on the grid's x dimension, and on y
/// past 65535), and where its body starts.
struct RowLaunch {
  gpu::LaunchOp launch;
  /// The thread's index in the workgroup.
  Value tid;
  /// Whether the workgroup has a row (the grid may be padded); the indices
  /// of a padded workgroup are the last row's, so it reads in bounds and
  /// must not store.
  Value validRow;
  SmallVector<Value> rowIvs;
};

/// Creates the launch (with its terminator) at `b`'s insertion point and
/// leaves `b` inside its body, after the row's indices.
RowLaunch createRowLaunch(OpBuilder &b, Location loc, ArrayRef<int64_t> rowDims,
                          int64_t threads);

/// Checks the options the row kernels share (a power of two from 1 to 1024
/// threads, subgroups of 0 or a power of two, rows of at least 1), with
/// an error naming `pass` at UnknownLoc.
LogicalResult verifyRowKernelOptions(MLIRContext *context, StringRef pass,
                                     int64_t workgroupSize,
                                     int64_t subgroupSize, int64_t minRowSize);

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

/// A run of consecutive ops on the same rows that one workgroup per row can
/// compute with each row read once (softmax: max, exp, sum, divide; layer
/// norm: sum, mean, squared deviations, sum, normalisation): ops on buffers
/// of static shape whose loops are the row dimensions P (and the row's
/// elements, last), each of them
/// - a fill of a P-shaped buffer,
/// - a row reduction (GPURowReduction) over the row's R elements,
/// - an elementwise op over (P, R), or
/// - an elementwise op over P (per-row values: a mean from a sum),
/// whose operands are indexed by the row (and the element): identity maps
/// or the projection on P. It holds at least one reduction.
struct GPURowSequence {
  SmallVector<linalg::LinalgOp> ops;
  SmallVector<int64_t> rowDims;
  int64_t rowSize = 0;

  int64_t rows() const;
};

/// The longest run that starts at `first` and that a workgroup of
/// `workgroupSize` threads can hold in registers (at most
/// `maxElementsPerThread` elements of a row per thread), with rows of at
/// least `minRowSize` elements; failure when there is none or it holds no
/// reduction.
FailureOr<GPURowSequence> matchGPURowSequence(Operation *first,
                                              int64_t minRowSize,
                                              int64_t workgroupSize,
                                              int64_t maxElementsPerThread);

/// Replaces the run by one gpu.launch with a workgroup of `workgroupSize`
/// threads per row: thread t keeps elements t, t + workgroupSize, ... of
/// each row-sized value in registers, reductions combine across the
/// workgroup (combineAcrossWorkgroup) and give every thread the row's
/// value, and only buffers read after the run are stored (temporaries
/// that only the run used are erased).
FailureOr<gpu::LaunchOp> fuseRowsInWorkgroups(RewriterBase &rewriter,
                                              const GPURowSequence &sequence,
                                              int64_t workgroupSize,
                                              int64_t subgroupSize);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_COMMON_GPUREDUCTIONSTRATEGY_H

//===- VectorizeReductions.h - Kernels for innermost reductions -*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_CPU_VECTORIZEREDUCTIONS_H
#define AMP_BACKEND_CPU_VECTORIZEREDUCTIONS_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir {
class Operation;
class RewriterBase;
namespace linalg {
class LinalgOp;
} // namespace linalg
namespace amp {

/// A reduction along the innermost index of its inputs (a row sum, the sum
/// of squares of a layer norm, a softmax's maximum), as
/// vectorizeInnerReduction takes it.
struct InnerReduction {
  /// The reduction loop dimension and the lanes each step reads along it.
  unsigned dim;
  int64_t lanes;
  /// The body's `combiner(acc, term)` (arith.addf, mulf, maxnumf, minnumf,
  /// maximumf or minimumf) and its operand that is not the accumulator.
  Operation *combiner;
  Value term;
  /// The output's innermost dimension and how many of its consecutive
  /// indices (rows) one step reduces together: a power of two up to
  /// min(`lanes`, 8) that divides its range, 1 when none does.
  unsigned rowDim;
  int64_t rows;
};

/// `op` as an innermost reduction, or nullopt: an op on buffers with static
/// loop ranges, one reduction dimension `r`, one float output indexed by
/// all parallel dimensions (not `r`), inputs that index `r` (at least one
/// does) only as their innermost index, and a body of scalar elementwise
/// ops yielding `combiner(acc, term)`, where `acc` (the output's element)
/// is used only there. `lanes` is the largest power of two within
/// `vectorSize` that divides the range of `r`, at least 4.
std::optional<InnerReduction> matchInnerReduction(linalg::LinalgOp op,
                                                  int64_t vectorSize);

/// Replaces `op` (see matchInnerReduction) with loops over its output
/// elements, each reducing `lanes` partial results at a time: the term is
/// computed on vectors of `lanes` elements read along `r`, combined lane by
/// lane, and the lanes are combined (`vector.reduction` with `reassoc`)
/// into the output element at the end; with `rows` > 1, the partial vectors
/// of that many consecutive output elements are combined together, halving
/// each row's lanes per step (the lanes i and i + w/2 of a row of w lanes,
/// as `vector.reduction` pairs them), into one vector of results, read and
/// written as a vector. A sum thus adds its terms in a
/// different order than the op's loops (`lanes` interleaved partial sums,
/// then a tree), which is as accurate; the order does not depend on the
/// thread count. A fill of the output right before `op` (getInitFill) is
/// folded.
LogicalResult vectorizeInnerReduction(RewriterBase &rewriter,
                                      linalg::LinalgOp op, int64_t vectorSize);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_CPU_VECTORIZEREDUCTIONS_H

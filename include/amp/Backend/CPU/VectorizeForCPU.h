//===- VectorizeForCPU.h - Vector-sized tiles of linalg ops -----*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_VECTORIZEFORCPU_H
#define AMP_TRANSFORMS_VECTORIZEFORCPU_H

#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir {
class RewriterBase;
namespace linalg {
class LinalgOp;
} // namespace linalg
namespace amp {

/// The loop dimension of `op` to vectorize and its tile (lanes), or nullopt
/// when `op` has dynamic loop ranges or no dimension that can be one: the
/// dimension that is the innermost index of the most data, among those
/// whose range has a power-of-two divisor in [2, vectorSize] (the tile is
/// the largest such divisor).
std::optional<std::pair<unsigned, int64_t>>
chooseVectorDimension(linalg::LinalgOp op, int64_t vectorSize);

/// The parallel loop dimension of `op`, other than `vectorDim`, that is the
/// innermost index of the largest operand that `vectorDim` indexes with a
/// stride (a transpose's input or output), with its tile (the largest
/// power of two in [4, vectorSize] dividing its range); nullopt when there
/// is none.
std::optional<std::pair<unsigned, int64_t>>
chooseTransposedDimension(linalg::LinalgOp op, unsigned vectorDim,
                          int64_t vectorSize);

/// Tiles `op` (on buffers) to tiles of 1 element in every loop dimension but
/// the vector dimension, and vectorizes the tile. Fails, leaving `op` as it
/// is, when `op` is not on buffers, accesses i1 buffers, has no vector
/// dimension, its vector dimension is a reduction, or the vectorizer rejects
/// it.
LogicalResult vectorizeForCPU(RewriterBase &rewriter, linalg::LinalgOp op,
                              int64_t vectorSize);

} // namespace amp
} // namespace mlir

#endif // AMP_TRANSFORMS_VECTORIZEFORCPU_H

//===- VectorizeContractions.h - Register-tiled contraction kernels -*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_CPU_VECTORIZECONTRACTIONS_H
#define AMP_BACKEND_CPU_VECTORIZECONTRACTIONS_H

#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir {
class RewriterBase;
namespace linalg {
class LinalgOp;
} // namespace linalg
namespace amp {

/// The register tile of a contraction kernel: `rows` output vectors of
/// `lanes` elements, along the loop dimensions `vectorDim` (the output's
/// innermost) and `rowDim` (absent when `rows` is 1).
struct ContractionTile {
  unsigned vectorDim;
  int64_t lanes;
  std::optional<unsigned> rowDim;
  int64_t rows;
};

/// The register tile for `op`, or nullopt when `op` is not a contraction
/// amp emits a kernel for: an op on buffers with static loop ranges, one
/// output whose indexing map is a projected permutation of the parallel
/// dimensions ending in the vector dimension, at least one reduction, inputs
/// that index the vector dimension (if at all) only as their innermost index,
/// and a body of scalar elementwise ops (no `linalg.index`). A vector has
/// at most `lanes` elements (fewer when the range is smaller); `rows` is the
/// largest divisor of the row dimension's range within `maxRows`.
std::optional<ContractionTile> chooseContractionTile(linalg::LinalgOp op,
                                                     int64_t lanes,
                                                     int64_t maxRows);

/// Replaces `op` (see chooseContractionTile) with loops around a register
/// tile: the tile's output vectors are loaded once, carried through the
/// reduction loops, and stored once; in the innermost loop each input is
/// read once per tile (as a vector when it indexes the vector dimension,
/// else as a broadcast scalar) unless it indexes the row dimension, and the
/// body is applied to whole vectors, a product added to the accumulator
/// becoming one fused multiply-add. Reductions run in the op's order.
LogicalResult vectorizeContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                                   int64_t lanes, int64_t maxRows);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_CPU_VECTORIZECONTRACTIONS_H

//===- ContractionTile.cpp - The register tile of a contraction kernel
//------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The register tile of amp-vectorize-contractions: the vector and row
// dimensions, rows, columns and lanes, chosen from the op's loops.
//
//===----------------------------------------------------------------------===//

#include "ContractionKernels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

std::optional<amp::ContractionTile>
amp::chooseContractionTile(linalg::LinalgOp op, int64_t lanes, int64_t maxRows,
                           int64_t maxCols, bool bf16Dot) {
  if (lanes < 1 || maxRows < 1 || maxCols < 1 || !op.hasPureBufferSemantics() ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, [](int64_t range) {
        return ShapedType::isDynamic(range) || range == 0;
      }))
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !isVectorMemoryType(type.getElementType()))
      return std::nullopt;
  }
  if (!isScalarElementwiseBody(*op.getBlock()))
    return std::nullopt;

  // The output: every index a parallel dimension, the innermost one the
  // vector dimension.
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outMap.getNumResults() == 0 || !outMap.isProjectedPermutation())
    return std::nullopt;
  for (AffineExpr index : outMap.getResults())
    if (iterators[cast<AffineDimExpr>(index).getPosition()] !=
        utils::IteratorType::parallel)
      return std::nullopt;
  unsigned vectorDim =
      cast<AffineDimExpr>(outMap.getResults().back()).getPosition();

  ContractionTile tile{vectorDim, std::min(lanes, ranges[vectorDim]),
                       std::nullopt, 1, std::nullopt};
  // vdpbf16ps on 512, 256 or 128 bits: the widest that fits, what remains
  // (a multiple of 4) in narrower ones.
  int64_t dotLanes = 0;
  if (ranges[vectorDim] % 4 == 0)
    for (int64_t candidate : {16, 8, 4})
      if (!dotLanes && ranges[vectorDim] >= candidate)
        dotLanes = candidate;
  std::optional<unsigned> lastReduction;
  for (auto [dim, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::reduction)
      lastReduction = dim;
  std::optional<unsigned> pairInput =
      bf16Dot ? getBF16PairInput(op) : std::nullopt;
  if (pairInput && !dotLanes)
    return std::nullopt;
  // A plain input's pairs are made in the kernel when they fill vectors.
  if (bf16Dot && !pairInput && dotLanes && ranges[*lastReduction] % 2 == 0) {
    pairInput = getBF16InterleavedInput(op);
    tile.interleaved = pairInput.has_value();
  }
  SmallVector<AffineMap> inputMaps;
  if (pairInput) {
    tile.lanes = dotLanes;
    tile.pairDim = lastReduction;
    for (OpOperand *input : op.getDpsInputOperands())
      inputMaps.push_back(op.getMatchingIndexingMap(input));
  } else {
    // Inputs read vectors only along their innermost index.
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      for (auto [position, index] : llvm::enumerate(map.getResults()))
        if (index.isFunctionOfDim(vectorDim) &&
            (position + 1 != map.getNumResults() || !isa<AffineDimExpr>(index)))
          return std::nullopt;
      inputMaps.push_back(map);
    }
  }

  // The row dimension: the rows of a tile share the reads of the inputs that
  // do not index it, best the vector ones; then the most rows per tile on
  // average, ties to the inner dimension. Its tiles are the fewest of at
  // most `maxRows` rows, all but the last of the same rows, as even as that
  // makes them.
  bool sharesVectors = false;
  auto tiles = [&](unsigned dim) {
    return llvm::divideCeil(ranges[dim], maxRows);
  };
  for (AffineExpr index : outMap.getResults().drop_back()) {
    unsigned dim = cast<AffineDimExpr>(index).getPosition();
    // (A tile reads one vector of pairs for all its rows.)
    if (maxRows < 2 || ranges[dim] < 2 ||
        (pairInput && inputMaps[*pairInput].isFunctionOfDim(dim)))
      continue;
    bool shares = llvm::any_of(inputMaps, [&](AffineMap map) {
      return map.isFunctionOfDim(vectorDim) && !map.isFunctionOfDim(dim);
    });
    if (tile.rowDim && (sharesVectors && !shares))
      continue;
    if (tile.rowDim && shares == sharesVectors &&
        ranges[dim] * tiles(*tile.rowDim) < ranges[*tile.rowDim] * tiles(dim))
      continue;
    tile.rowDim = dim;
    tile.rows = llvm::divideCeil(ranges[dim], tiles(dim));
    sharesVectors = shares;
  }
  // Vectors side by side: each read of an input that does not index the
  // vector dimension then serves them all. Only for reductions of more
  // steps than the tile has accumulators: a shorter one spends its time
  // loading and storing them (measured slower).
  int64_t steps = 1;
  for (auto [dim, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::reduction)
      steps *= dim == tile.pairDim ? ranges[dim] / 2 : ranges[dim];
  int64_t cols = std::min(maxCols, ranges[vectorDim] / tile.lanes);
  if (cols > 1 && steps > tile.rows * cols)
    tile.cols = cols;
  return tile;
}

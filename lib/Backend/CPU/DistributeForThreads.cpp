//===- DistributeForThreads.cpp - One slice of each op per thread ---------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/Passes.h"
#include "amp/Backend/CPU/VectorizeContractions.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_DISTRIBUTEFORTHREADS
#include "amp/Backend/CPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// The outermost parallel loop dimension of `op` whose range `threads`
/// divides, if the op is on buffers, has static ranges and at least
/// `minIterations` iterations.
static std::optional<unsigned> chooseSplitDimension(linalg::LinalgOp op,
                                                    int64_t threads,
                                                    int64_t minIterations) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t iterations = 1;
  for (int64_t range : ranges) {
    if (ShapedType::isDynamic(range))
      return std::nullopt;
    iterations = range != 0 && iterations > INT64_MAX / range
                     ? INT64_MAX
                     : iterations * range;
  }
  if (iterations < minIterations)
    return std::nullopt;
  for (auto [dim, kind] : llvm::enumerate(op.getIteratorTypesArray()))
    if (kind == utils::IteratorType::parallel && ranges[dim] >= threads &&
        ranges[dim] % threads == 0)
      return static_cast<unsigned>(dim);
  return std::nullopt;
}

namespace {
struct DistributeForThreads
    : amp::impl::DistributeForThreadsBase<DistributeForThreads> {
  using Base::Base;
  void runOnOperation() override {
    if (threads < 1 || threads > 1024) {
      getOperation()->emitError("amp-distribute-for-threads: threads must be "
                                "in [1, 1024], got ")
          << static_cast<int64_t>(threads);
      return signalPassFailure();
    }
    if (threads == 1)
      return;
    IRRewriter rewriter(&getContext());
    // Copies bufferization made (into a padded buffer's interior, of a
    // value two ops write in place) are split as the ops are: as
    // linalg.copy, which amp-vectorize-for-cpu turns into vector loops.
    getOperation()->walk([&](memref::CopyOp copy) {
      auto type = dyn_cast<MemRefType>(copy.getSource().getType());
      if (!type || !type.hasStaticShape() ||
          type.getNumElements() < minIterations ||
          !isa<MemRefType>(copy.getTarget().getType()))
        return;
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    });
    // Only ops at the level of their function, not slices of slices.
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
        ops.push_back(linalgOp);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    for (linalg::LinalgOp op : ops) {
      std::optional<unsigned> dim =
          chooseSplitDimension(op, threads, minIterations);
      if (!dim)
        continue;
      // A fill of the op's output right before it goes into the op's
      // slices (each fills its part), where the kernel folds it.
      auto next = dyn_cast_or_null<linalg::LinalgOp>(
          amp::getAdjacentEffectfulOp(op, /*forward=*/true));
      if (next && amp::getInitFill(next) == op &&
          chooseSplitDimension(next, threads, minIterations))
        continue;
      linalg::LinalgOp fill = amp::getInitFill(op);
      SmallVector<int64_t> tileSizes(op.getNumLoops(), 0);
      tileSizes[*dim] = op.getStaticLoopRanges()[*dim] / threads;
      scf::SCFTilingOptions options;
      options.setTileSizes(
          getAsIndexOpFoldResult(rewriter.getContext(), tileSizes));
      options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled))
        continue;
      if (fill) {
        Operation *slice = tiled->tiledOps.front();
        rewriter.setInsertionPoint(slice);
        IRMapping mapping;
        mapping.map(fill.getDpsInitOperand(0)->get(),
                    cast<linalg::LinalgOp>(slice).getDpsInitOperand(0)->get());
        rewriter.clone(*fill, mapping);
        rewriter.eraseOp(fill);
      }
      rewriter.eraseOp(op);
    }
  }
};
} // namespace

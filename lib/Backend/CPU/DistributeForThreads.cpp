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
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"

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

/// `op` as `scf.forall` slices of `size` along its loop dimension `dim`.
static FailureOr<scf::SCFTilingResult> sliceOp(RewriterBase &rewriter,
                                               linalg::LinalgOp op,
                                               unsigned dim, int64_t size) {
  SmallVector<int64_t> tileSizes(op.getNumLoops(), 0);
  tileSizes[dim] = size;
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op.getContext(), tileSizes));
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  rewriter.setInsertionPoint(op);
  return scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()),
                           options);
}

/// The epilogue of `op` (amp::getContractionEpilogue) when `op` has
/// reductions and slices along `dim` write whole slices of its output: its
/// output map is a projected permutation that has `dim`. Slice `i` of the
/// epilogue then reads only what slice `i` of `op` wrote.
static linalg::GenericOp getSliceEpilogue(linalg::LinalgOp op, unsigned dim) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1)
    return nullptr;
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!outMap.isProjectedPermutation() ||
      !outMap.getResultPosition(getAffineDimExpr(dim, op.getContext())))
    return nullptr;
  return amp::getContractionEpilogue(op);
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
    // Only ops at the level of their function, not slices of slices (nor
    // the slices of an earlier run: the pass is idempotent).
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<scf::ForallOp>(op))
        return WalkResult::skip();
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
        ops.push_back(linalgOp);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    DenseSet<Operation *> erased;
    for (linalg::LinalgOp op : ops) {
      if (erased.contains(op))
        continue;
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
      linalg::GenericOp epilogue = getSliceEpilogue(op, *dim);
      int64_t sliceSize = op.getStaticLoopRanges()[*dim] / threads;
      FailureOr<scf::SCFTilingResult> tiled =
          sliceOp(rewriter, op, *dim, sliceSize);
      if (failed(tiled))
        continue;
      // The epilogue's slices run in the op's, each after its part of the
      // op (no barrier between them), where the kernel applies it.
      if (epilogue) {
        AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
        unsigned position =
            *outMap.getResultPosition(rewriter.getAffineDimExpr(*dim));
        FailureOr<scf::SCFTilingResult> epilogueTiled =
            sliceOp(rewriter, epilogue, position, sliceSize);
        if (succeeded(epilogueTiled)) {
          auto first = cast<scf::ForallOp>(tiled->loops.front().getOperation());
          auto second =
              cast<scf::ForallOp>(epilogueTiled->loops.front().getOperation());
          rewriter.moveOpBefore(first, second);
          rewriter.setInsertionPoint(first.getBody()->getTerminator());
          IRMapping mapping;
          mapping.map(second.getInductionVars(), first.getInductionVars());
          for (Operation &inner : second.getBody()->without_terminator())
            rewriter.clone(inner, mapping);
          rewriter.eraseOp(second);
          rewriter.eraseOp(epilogue);
          erased.insert(epilogue);
          // One view of the op's output slice, which the epilogue reads.
          DominanceInfo dominance;
          eliminateCommonSubExpressions(rewriter, dominance, first);
        }
      }
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

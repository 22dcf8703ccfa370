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
/// How the slices of an `scf.forall` the pass made access a buffer: the
/// buffer operand, whether they write it, and the position of the indexing
/// map's result that is the split loop dimension itself (none if no result
/// is), for a map that is a projected permutation (constant 0 results,
/// indexing dimensions of size 1, allowed).
struct SliceAccess {
  Value buffer;
  bool writes;
  std::optional<unsigned> position;
};
} // namespace

/// The accesses of `op` sliced along its loop dimension `dim`.
static void collectSliceAccesses(linalg::LinalgOp op, unsigned dim,
                                 SmallVectorImpl<SliceAccess> &accesses) {
  AffineExpr split = getAffineDimExpr(dim, op.getContext());
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    std::optional<unsigned> position;
    if (map.isProjectedPermutation(/*allowZeroInResults=*/true))
      position = map.getResultPosition(split);
    accesses.push_back({operand.get(), op.isDpsInit(&operand), position});
  }
}

/// Whether buffers `a` and `b` may share memory: views of one buffer, or
/// two buffers that are not both allocated here (arguments may alias).
static bool mayAlias(Value a, Value b) {
  Value rootA = amp::getRootBuffer(a), rootB = amp::getRootBuffer(b);
  if (rootA == rootB)
    return true;
  auto allocated = [](Value root) {
    return isa_and_present<memref::AllocOp, memref::AllocaOp>(
        root.getDefiningOp());
  };
  return !allocated(rootA) && !allocated(rootB);
}

/// Whether slice `i` of `second` may run right after slice `i` of `first`
/// on the same thread, with no barrier between: where one writes what the
/// other accesses, both access the same view through the split dimension
/// at the same position, so that slice `i` of each touches only the part
/// slice `i` of the other does.
static bool slicesAreAligned(ArrayRef<SliceAccess> first,
                             ArrayRef<SliceAccess> second) {
  for (const SliceAccess &a : first)
    for (const SliceAccess &b : second) {
      if ((!a.writes && !b.writes) || !mayAlias(a.buffer, b.buffer))
        continue;
      if (a.buffer != b.buffer || !a.position || a.position != b.position)
        return false;
    }
  return true;
}

/// Runs the slices of `second` in those of `first` (same bounds), each
/// after `first`'s: its body goes at the end of `first`'s, and `second`
/// is erased. Views both take of a slice become one.
static void appendSlices(RewriterBase &rewriter, scf::ForallOp first,
                         scf::ForallOp second) {
  rewriter.setInsertionPoint(first.getBody()->getTerminator());
  IRMapping mapping;
  mapping.map(second.getInductionVars(), first.getInductionVars());
  for (Operation &inner : second.getBody()->without_terminator())
    rewriter.clone(inner, mapping);
  rewriter.eraseOp(second);
  DominanceInfo dominance;
  eliminateCommonSubExpressions(rewriter, dominance, first);
}

/// Whether `op`, between two sliced ops, may move before the first: an
/// allocation, or a pure op without regions.
static bool canHoistAboveSlices(Operation *op) {
  if (isa<memref::AllocOp, memref::AllocaOp>(op))
    return true;
  return op->getNumRegions() == 0 && isPure(op);
}

/// Merges each `scf.forall` of `sliced` (in `order`) into the one before it
/// when both have the same slices and their accesses are aligned:
/// consecutive ops then run on each thread one after the other, with no
/// barrier between them (`scf.forall` slices of equal bounds go to the
/// same threads).
static void
mergeAlignedSlices(RewriterBase &rewriter, ArrayRef<Operation *> order,
                   DenseMap<Operation *, SmallVector<SliceAccess>> &sliced) {
  for (Operation *op : order) {
    if (!sliced.count(op))
      continue;
    auto first = cast<scf::ForallOp>(op);
    while (true) {
      SmallVector<Operation *> between;
      Operation *next = first->getNextNode();
      for (; next && canHoistAboveSlices(next); next = next->getNextNode())
        between.push_back(next);
      auto second = dyn_cast_or_null<scf::ForallOp>(next);
      if (!second || !sliced.count(second) ||
          first.getMixedLowerBound() != second.getMixedLowerBound() ||
          first.getMixedUpperBound() != second.getMixedUpperBound() ||
          first.getMixedStep() != second.getMixedStep() ||
          !slicesAreAligned(sliced[first], sliced[second]))
        break;
      for (Operation *op : between)
        rewriter.moveOpBefore(op, first);
      SmallVector<SliceAccess> merged = sliced.lookup(second);
      llvm::append_range(sliced[first], merged);
      sliced.erase(second);
      appendSlices(rewriter, first, second);
    }
  }
}

namespace {
struct DistributeForThreads
    : amp::impl::DistributeForThreadsBase<DistributeForThreads> {
  using Base::Base;
  LogicalResult initialize(MLIRContext *context) override {
    if (threads < 1 || threads > 1024) {
      return emitError(UnknownLoc::get(context),
                       "amp-distribute-for-threads: threads must be "
                       "in [1, 1024], got ")
             << static_cast<int64_t>(threads);
    }
    return success();
  }

  void runOnOperation() override {
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
    DenseMap<Operation *, SmallVector<SliceAccess>> sliced;
    SmallVector<Operation *> order;
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
      SmallVector<SliceAccess> accesses;
      collectSliceAccesses(op, *dim, accesses);
      FailureOr<scf::SCFTilingResult> tiled =
          sliceOp(rewriter, op, *dim, sliceSize);
      if (failed(tiled))
        continue;
      Operation *forall = tiled->loops.front().getOperation();
      // The epilogue's slices run in the op's, each after its part of the
      // op (no barrier between them), where the kernel applies it.
      if (epilogue) {
        AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
        unsigned position =
            *outMap.getResultPosition(rewriter.getAffineDimExpr(*dim));
        FailureOr<scf::SCFTilingResult> epilogueTiled =
            sliceOp(rewriter, epilogue, position, sliceSize);
        if (succeeded(epilogueTiled)) {
          collectSliceAccesses(epilogue, position, accesses);
          auto first = cast<scf::ForallOp>(forall);
          auto second =
              cast<scf::ForallOp>(epilogueTiled->loops.front().getOperation());
          rewriter.moveOpBefore(first, second);
          // (One view of the op's output slice, which the epilogue reads.)
          appendSlices(rewriter, first, second);
          rewriter.eraseOp(epilogue);
          erased.insert(epilogue);
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
      sliced[forall] = std::move(accesses);
      order.push_back(forall);
    }
    mergeAlignedSlices(rewriter, order, sliced);
  }
};
} // namespace

//===- TileParallelLoopsForGPU.cpp - Workgroups of invocations ------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/GPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_TILEPARALLELLOOPSFORGPU
#include "amp/Backend/GPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// The loop dimensions gpu-map-parallel-loops maps to the x, y and z ids of
/// the hardware; it runs the others sequentially.
static constexpr int64_t kMappedDims = 3;

/// Tile sizes for loops of `tripCounts` with at most `budget` invocations per
/// tile: from the innermost mapped dimension outwards, the largest divisor of
/// the trip count that fits in what is left of the budget. Dimensions past
/// the mapped ones get tiles of 1 (invocations along them would run one
/// after another anyway).
static SmallVector<int64_t> chooseTileSizes(ArrayRef<int64_t> tripCounts,
                                            int64_t budget) {
  SmallVector<int64_t> sizes(tripCounts.size(), 1);
  int64_t mapped = std::min<int64_t>(tripCounts.size(), kMappedDims);
  for (int64_t d = mapped - 1; d >= 0; --d) {
    int64_t best = 1;
    for (int64_t t = std::min(tripCounts[d], budget); t > 1; --t)
      if (tripCounts[d] % t == 0) {
        best = t;
        break;
      }
    sizes[d] = best;
    budget /= best;
  }
  return sizes;
}

/// Splits each dimension of the workgroup loop `grid` (of `counts`
/// iterations, from `grid`'s bounds and steps) that has more than `limit`
/// iterations into two, a * f + b with both parts within `limit`, while the
/// loop has fewer than three dimensions: devices cap the workgroups per
/// dimension (Vulkan's maxComputeWorkGroupCount, often 65535). The new
/// dimensions come last; a dimension without such a factorization is left
/// as it is.
static void foldGrid(RewriterBase &rewriter, scf::ParallelOp grid,
                     ArrayRef<int64_t> counts, int64_t limit) {
  SmallVector<int64_t> factors(counts.size(), 1);
  int64_t dims = counts.size();
  for (auto [count, factor] : llvm::zip(counts, factors)) {
    if (count <= limit || dims >= kMappedDims)
      continue;
    for (int64_t f = (count + limit - 1) / limit; f <= limit; ++f)
      if (count % f == 0) {
        factor = f;
        ++dims;
        break;
      }
  }
  if (llvm::all_of(factors, [](int64_t f) { return f == 1; }))
    return;

  Location loc = grid.getLoc();
  rewriter.setInsertionPoint(grid);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  Value zero = constant(0), one = constant(1);
  SmallVector<Value> lbs, ubs, steps;
  for (auto [count, factor] : llvm::zip(counts, factors)) {
    lbs.push_back(zero);
    ubs.push_back(constant(count / factor));
    steps.push_back(one);
  }
  for (int64_t factor : factors)
    if (factor > 1) {
      lbs.push_back(zero);
      ubs.push_back(constant(factor));
      steps.push_back(one);
    }
  auto folded = scf::ParallelOp::create(rewriter, loc, lbs, ubs, steps);

  // The original induction variables: lb + (a * f + b) * step.
  rewriter.setInsertionPointToStart(folded.getBody());
  ValueRange ivs = folded.getInductionVars();
  SmallVector<Value> replacements;
  unsigned extra = counts.size();
  for (auto [d, factor] : llvm::enumerate(factors)) {
    Value k = ivs[d];
    if (factor > 1)
      k = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, k, constant(factor)),
          ivs[extra++]);
    Value offset = arith::MulIOp::create(rewriter, loc, k, grid.getStep()[d]);
    replacements.push_back(
        arith::AddIOp::create(rewriter, loc, grid.getLowerBound()[d], offset));
  }
  rewriter.eraseOp(folded.getBody()->getTerminator());
  rewriter.mergeBlocks(grid.getBody(), folded.getBody(), replacements);
  rewriter.eraseOp(grid);
}

namespace {
struct TileParallelLoopsForGPU
    : amp::impl::TileParallelLoopsForGPUBase<TileParallelLoopsForGPU> {
  using Base::Base;
  LogicalResult initialize(MLIRContext *context) override {
    if (workgroupSize < 1) {
      return emitError(UnknownLoc::get(context),
                       "amp-tile-parallel-loops-for-gpu: "
                       "workgroup-size must be at least 1, got ")
             << static_cast<int64_t>(workgroupSize);
    }
    if (maxWorkgroups < 1) {
      return emitError(UnknownLoc::get(context),
                       "amp-tile-parallel-loops-for-gpu: "
                       "max-workgroups must be at least 1, got ")
             << static_cast<int64_t>(maxWorkgroups);
    }
    return success();
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<scf::ParallelOp> outermost;
    getOperation()->walk([&](scf::ParallelOp loop) {
      // Loops with reductions (results) are not mapped to threads.
      if (!loop->getParentOfType<scf::ParallelOp>() &&
          loop.getNumResults() == 0)
        outermost.push_back(loop);
    });
    for (scf::ParallelOp loop : outermost) {
      SmallVector<int64_t> tripCounts;
      // Upstream's trip count (StaticValueUtils.h): constant bounds and
      // step, or an upper bound a constant offset above the lower one.
      for (auto [lb, ub, step] : llvm::zip(
               loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
        std::optional<APInt> count = constantTripCount(
            lb, ub, step, /*isSigned=*/true, scf::computeUbMinusLb);
        if (!count || count->isZero() || count->getActiveBits() > 62)
          break;
        tripCounts.push_back(count->getSExtValue());
      }
      if (tripCounts.size() != loop.getNumLoops())
        continue;
      SmallVector<int64_t> sizes = chooseTileSizes(tripCounts, workgroupSize);
      scf::ParallelOp grid = loop;
      if (llvm::any_of(sizes, [](int64_t s) { return s != 1; })) {
        // Constant inner bounds (guarded by an scf.if), which
        // convert-parallel-loops-to-gpu needs for the workgroup size.
        grid =
            scf::tileParallelLoop(loop, sizes, /*noMinMaxBounds=*/true).first;
      }
      // The tiles divide the trip counts.
      SmallVector<int64_t> workgroups;
      for (auto [count, size] : llvm::zip(tripCounts, sizes))
        workgroups.push_back(count / size);
      foldGrid(rewriter, grid, workgroups, maxWorkgroups);
    }
  }
};
} // namespace

//===- TileParallelLoopsForGPU.cpp - Workgroups of invocations ------------===//

#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_TILEPARALLELLOOPSFORGPU
#include "amp/Transforms/Passes.h.inc"
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

namespace {
struct TileParallelLoopsForGPU
    : amp::impl::TileParallelLoopsForGPUBase<TileParallelLoopsForGPU> {
  using Base::Base;
  void runOnOperation() override {
    if (workgroupSize < 1) {
      getOperation()->emitError("amp-tile-parallel-loops-for-gpu: "
                                "workgroup-size must be at least 1, got ")
          << static_cast<int64_t>(workgroupSize);
      return signalPassFailure();
    }
    SmallVector<scf::ParallelOp> outermost;
    getOperation()->walk([&](scf::ParallelOp loop) {
      // Loops with reductions (results) are not mapped to threads.
      if (!loop->getParentOfType<scf::ParallelOp>() && loop.getNumResults() == 0)
        outermost.push_back(loop);
    });
    for (scf::ParallelOp loop : outermost) {
      SmallVector<int64_t> tripCounts;
      for (auto [lb, ub, step] :
           llvm::zip(loop.getLowerBound(), loop.getUpperBound(),
                     loop.getStep())) {
        std::optional<int64_t> l = getConstantIntValue(lb),
                               u = getConstantIntValue(ub),
                               s = getConstantIntValue(step);
        if (!l || !u || !s || *s <= 0 || *u <= *l)
          break;
        tripCounts.push_back((*u - *l + *s - 1) / *s);
      }
      if (tripCounts.size() != loop.getNumLoops())
        continue;
      SmallVector<int64_t> sizes = chooseTileSizes(tripCounts, workgroupSize);
      if (llvm::all_of(sizes, [](int64_t s) { return s == 1; }))
        continue;
      // Constant inner bounds (guarded by an scf.if), which
      // convert-parallel-loops-to-gpu needs for the workgroup size.
      scf::tileParallelLoop(loop, sizes, /*noMinMaxBounds=*/true);
    }
  }
};
} // namespace

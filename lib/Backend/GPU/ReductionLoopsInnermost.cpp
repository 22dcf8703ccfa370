//===- ReductionLoopsInnermost.cpp - Reductions after parallel loops ------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/GPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_REDUCTIONLOOPSINNERMOST
#include "amp/Backend/GPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// The loop order that puts the parallel dimensions of `op` first and its
/// reduction dimensions after them, each group in its original order (as
/// `interchangeGenericOp` takes it: new dimension i is old dimension
/// result[i]). Empty when no reduction comes before a parallel dimension.
static SmallVector<unsigned> reductionsLastOrder(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> parallel, reduction;
  for (auto [d, iterator] : llvm::enumerate(iterators))
    (iterator == utils::IteratorType::reduction ? reduction : parallel)
        .push_back(d);
  if (reduction.empty() || parallel.empty() ||
      reduction.front() > parallel.back())
    return {};
  SmallVector<unsigned> order = parallel;
  llvm::append_range(order, reduction);
  return order;
}

namespace {
struct ReductionLoopsInnermost
    : amp::impl::ReductionLoopsInnermostBase<ReductionLoopsInnermost> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!reductionsLastOrder(op).empty())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      SmallVector<unsigned> order = reductionsLastOrder(op);
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        // Every upstream named op has a generic form; an op of another
        // dialect that implements LinalgOp may not.
        FailureOr<linalg::GenericOp> generalized =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized)) {
          op->emitError("amp-reduction-loops-innermost: cannot move the "
                        "reduction loops of this op after its parallel "
                        "loops (it has no linalg.generic form)");
          return signalPassFailure();
        }
        generic = *generalized;
      }
      FailureOr<linalg::GenericOp> permuted =
          linalg::interchangeGenericOp(rewriter, generic, order);
      assert(succeeded(permuted) && "order is a permutation of the loops");
      (void)permuted;
    }
  }
};
} // namespace

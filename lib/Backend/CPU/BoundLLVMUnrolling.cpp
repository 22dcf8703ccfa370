//===- BoundLLVMUnrolling.cpp - No LLVM unrolling of unrolled kernels -----===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/BoundLLVMUnrolling.h"
#include "amp/Backend/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_BOUNDLLVMUNROLLING
#include "amp/Backend/CPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// The name under which convert-scf-to-cf carries a loop's annotation to
/// its latch branch.
static constexpr llvm::StringLiteral kLoopAnnotation = "llvm.loop_annotation";

LLVM::LoopAnnotationAttr
mlir::amp::getNoUnrollAnnotation(MLIRContext *context) {
  auto disable = LLVM::LoopUnrollAttr::get(
      context, /*disable=*/BoolAttr::get(context, true), /*count=*/nullptr,
      /*runtimeDisable=*/nullptr, /*full=*/nullptr,
      /*followupUnrolled=*/nullptr,
      /*followupRemainder=*/nullptr, /*followupAll=*/nullptr);
  return LLVM::LoopAnnotationAttr::get(
      context, /*disableNonforced=*/nullptr, /*vectorize=*/nullptr,
      /*interleave=*/nullptr, /*unroll=*/disable, /*unrollAndJam=*/nullptr,
      /*licm=*/nullptr, /*distribute=*/nullptr, /*pipeline=*/nullptr,
      /*peeled=*/nullptr, /*unswitch=*/nullptr, /*mustProgress=*/nullptr,
      /*isVectorized=*/nullptr, /*startLoc=*/nullptr, /*endLoc=*/nullptr,
      /*parallelAccesses=*/{});
}

bool mlir::amp::isUnrollingBounded(scf::ForOp loop, int64_t minTrips) {
  bool nested = false;
  loop.getBody()->walk([&](LoopLikeOpInterface) {
    nested = true;
    return WalkResult::interrupt();
  });
  if (!nested)
    return false;
  std::optional<llvm::APInt> trips = loop.getStaticTripCount();
  return !trips || trips->getSExtValue() >= minTrips;
}

int64_t mlir::amp::boundLLVMUnrolling(Operation *root, int64_t minTrips) {
  LLVM::LoopAnnotationAttr annotation =
      getNoUnrollAnnotation(root->getContext());
  int64_t marked = 0;
  root->walk([&](scf::ForOp loop) {
    if (loop->hasAttr(kLoopAnnotation) || !isUnrollingBounded(loop, minTrips))
      return;
    loop->setAttr(kLoopAnnotation, annotation);
    ++marked;
  });
  return marked;
}

void mlir::amp::attachLoopAnnotations(Operation *root) {
  auto take = [](Operation *op) {
    auto annotation =
        op->getAttrOfType<LLVM::LoopAnnotationAttr>(kLoopAnnotation);
    if (annotation)
      op->removeAttr(kLoopAnnotation);
    return annotation;
  };
  root->walk([&](Operation *op) {
    if (auto branch = dyn_cast<LLVM::BrOp>(op)) {
      if (auto annotation = take(op))
        branch.setLoopAnnotationAttr(annotation);
    } else if (auto branch = dyn_cast<LLVM::CondBrOp>(op)) {
      if (auto annotation = take(op))
        branch.setLoopAnnotationAttr(annotation);
    }
  });
}

namespace {
struct BoundLLVMUnrolling
    : amp::impl::BoundLLVMUnrollingBase<BoundLLVMUnrolling> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    if (minTrips < 1)
      return emitError(UnknownLoc::get(context))
             << "amp-bound-llvm-unrolling: min-trips must be at least 1, got "
             << minTrips.getValue();
    return success();
  }

  void runOnOperation() override {
    amp::boundLLVMUnrolling(getOperation(), minTrips);
    amp::attachLoopAnnotations(getOperation());
  }
};
} // namespace

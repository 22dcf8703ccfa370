//===- SplitCastsForFusion.cpp - One copy of a tensor cast per user -------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_SPLITCASTSFORFUSION
#include "amp/Backend/Common/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
struct SplitCastsForFusion
    : amp::impl::SplitCastsForFusionBase<SplitCastsForFusion> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<Operation *> casts;
    getOperation()->walk([&](Operation *op) {
      if (isa<arith::ExtFOp, arith::TruncFOp>(op) &&
          isa<RankedTensorType>(op->getResult(0).getType()) &&
          !op->hasOneUse() && !op->use_empty())
        casts.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *cast : casts) {
      // Every use but the first gets a copy placed right before its user.
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : cast->getUses())
        uses.push_back(&use);
      for (OpOperand *use : llvm::drop_begin(uses)) {
        Operation *user = use->getOwner();
        if (user->getBlock() != cast->getBlock())
          continue;
        rewriter.setInsertionPoint(user);
        Operation *copy = rewriter.clone(*cast);
        rewriter.modifyOpInPlace(user, [&] { use->set(copy->getResult(0)); });
      }
    }
  }
};
} // namespace

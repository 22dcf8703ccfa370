//===- ExpandFloorCeilDiv.cpp - Rounding divisions as plain ones ----------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/SPIRV/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_EXPANDFLOORCEILDIV
#include "amp/Backend/SPIRV/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
struct ExpandFloorCeilDiv
    : amp::impl::ExpandFloorCeilDivBase<ExpandFloorCeilDiv> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      getOperation()->emitError(
          "amp-expand-floor-ceil-div: the rewrite did not reach a fixed point");
      return signalPassFailure();
    }
  }
};
} // namespace

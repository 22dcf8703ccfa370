//===- LowerScalarTransfers.cpp - 0-d transfers as loads and stores -------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/LowerScalarTransfers.h"
#include "amp/Backend/CPU/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_LOWERSCALARTRANSFERS
#include "amp/Backend/CPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {

/// One element read: a load, broadcast to the 0-d vector.
struct ScalarTransferRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    if (read.getVectorType().getRank() != 0 || read.getMask() ||
        !isa<MemRefType>(read.getBase().getType()))
      return failure();
    Value element = memref::LoadOp::create(rewriter, read.getLoc(),
                                           read.getBase(), read.getIndices());
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, read.getVectorType(),
                                                     element);
    return success();
  }
};

/// One element written: an extract and a store.
struct ScalarTransferWrite : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferWriteOp write,
                                PatternRewriter &rewriter) const override {
    if (write.getVectorType().getRank() != 0 || write.getMask() ||
        !isa<MemRefType>(write.getBase().getType()))
      return failure();
    Value element = vector::ExtractOp::create(
        rewriter, write.getLoc(), write.getVector(), ArrayRef<int64_t>{});
    memref::StoreOp::create(rewriter, write.getLoc(), element, write.getBase(),
                            write.getIndices());
    rewriter.eraseOp(write);
    return success();
  }
};

struct LowerScalarTransfers
    : amp::impl::LowerScalarTransfersBase<LowerScalarTransfers> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    amp::populateScalarTransferLoweringPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::amp::populateScalarTransferLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ScalarTransferRead, ScalarTransferWrite>(patterns.getContext());
}

//===- PadInPlace.cpp - Padded tensors written in place -------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/PadInPlace.h"
#include "amp/Backend/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_PADINPLACE
#include "amp/Backend/Common/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

OpOperand *amp::getOverwrittenInit(Value value) {
  auto result = dyn_cast<OpResult>(value);
  if (!result)
    return nullptr;
  auto op = dyn_cast<linalg::LinalgOp>(result.getOwner());
  if (!op || !op.hasPureTensorSemantics() ||
      op.getNumParallelLoops() != op.getNumLoops())
    return nullptr;
  OpOperand *init = op.getDpsInitOperand(result.getResultNumber());
  if (op.payloadUsesValueFromOperand(init) ||
      !op.getMatchingIndexingMap(init).isPermutation())
    return nullptr;
  return init;
}

Value amp::fillBorder(OpBuilder &b, Location loc, Value padded,
                      ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                      Value value) {
  auto type = cast<RankedTensorType>(padded.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  auto fillSlab = [&](int64_t dim, int64_t offset, int64_t size) {
    SmallVector<int64_t> offsets(rank, 0);
    SmallVector<int64_t> sizes(shape);
    offsets[dim] = offset;
    sizes[dim] = size;
    SmallVector<OpFoldResult> offsetValues =
        getAsIndexOpFoldResult(b.getContext(), offsets);
    SmallVector<OpFoldResult> sizeValues =
        getAsIndexOpFoldResult(b.getContext(), sizes);
    Value slab = tensor::ExtractSliceOp::create(b, loc, padded, offsetValues,
                                                sizeValues, strides);
    Value filled = linalg::FillOp::create(b, loc, value, slab).getResult(0);
    padded = tensor::InsertSliceOp::create(b, loc, filled, padded, offsetValues,
                                           sizeValues, strides);
  };
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (low[dim] > 0)
      fillSlab(dim, 0, low[dim]);
    if (high[dim] > 0)
      fillSlab(dim, shape[dim] - high[dim], high[dim]);
  }
  return padded;
}

namespace {
struct PadInPlacePattern : OpRewritePattern<tensor::PadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::PadOp pad,
                                PatternRewriter &rewriter) const override {
    RankedTensorType sourceType = pad.getSourceType();
    RankedTensorType type = pad.getResultType();
    if (!sourceType.hasStaticShape() || !type.hasStaticShape() ||
        !pad.getLow().empty() || !pad.getHigh().empty() || pad.getNofold())
      return rewriter.notifyMatchFailure(pad, "dynamic or nofold padding");
    Value padValue = pad.getConstantPaddingValue();
    TypedAttr padAttr;
    if (!padValue || !matchPattern(padValue, m_Constant(&padAttr)))
      return rewriter.notifyMatchFailure(pad, "padding is not a constant");
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    ArrayRef<int64_t> shape = type.getShape();
    int64_t rank = type.getRank();

    // Everything the interior's writer needs is created before it: the
    // source's elementwise producer, when nothing else reads the source.
    OpOperand *init = pad.getSource().hasOneUse()
                          ? amp::getOverwrittenInit(pad.getSource())
                          : nullptr;
    Location loc = pad.getLoc();
    rewriter.setInsertionPoint(init ? init->getOwner() : pad.getOperation());
    Value value = arith::ConstantOp::create(rewriter, loc, padAttr);
    Value padded = amp::fillBorder(
        rewriter, loc,
        tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType(),
                                type.getEncoding()),
        low, high, value);
    MLIRContext *context = rewriter.getContext();
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    auto extract = [&](Value from, ArrayRef<int64_t> offsets,
                       ArrayRef<int64_t> sizes) -> Value {
      return tensor::ExtractSliceOp::create(
          rewriter, loc, from, getAsIndexOpFoldResult(context, offsets),
          getAsIndexOpFoldResult(context, sizes), strides);
    };
    auto insert = [&](Value from, Value into, ArrayRef<int64_t> offsets,
                      ArrayRef<int64_t> sizes) -> Value {
      return tensor::InsertSliceOp::create(
          rewriter, loc, from, into, getAsIndexOpFoldResult(context, offsets),
          getAsIndexOpFoldResult(context, sizes), strides);
    };
    if (init) {
      Value interior = extract(padded, low, sourceType.getShape());
      rewriter.modifyOpInPlace(init->getOwner(), [&] { init->set(interior); });
    }
    rewriter.setInsertionPoint(pad);
    rewriter.replaceOp(
        pad, insert(pad.getSource(), padded, low, sourceType.getShape()));
    return success();
  }
};

struct PadInPlace : amp::impl::PadInPlaceBase<PadInPlace> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    amp::populatePadInPlacePatterns(patterns);
    // Each pad is rewritten once, by itself: no folding around it.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace

void amp::populatePadInPlacePatterns(RewritePatternSet &patterns) {
  patterns.add<PadInPlacePattern>(patterns.getContext());
}

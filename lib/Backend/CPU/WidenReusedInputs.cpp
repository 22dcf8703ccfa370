//===- WidenReusedInputs.cpp - Widen re-read low inputs once --------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/WidenReusedInputs.h"
#include "amp/Backend/CPU/Passes.h"
#include "amp/Backend/CPU/VectorizeContractions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_WIDENREUSEDINPUTS
#include "amp/Backend/CPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

std::optional<double> amp::getReadsPerElement(linalg::GenericOp op,
                                              OpOperand *input) {
  auto type = dyn_cast<RankedTensorType>(input->get().getType());
  if (!type || !type.hasStaticShape() || type.getNumElements() == 0)
    return std::nullopt;
  double iterations = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return std::nullopt;
    iterations *= range;
  }
  return iterations / type.getNumElements();
}

std::optional<double> amp::getWideningsPerElement(linalg::GenericOp op,
                                                  OpOperand *input,
                                                  int64_t tileRows) {
  std::optional<double> reads = getReadsPerElement(op, input);
  if (!reads || op.getNumDpsInits() != 1)
    return reads;
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  AffineMap map = op.getMatchingIndexingMap(input);
  if (outMap.getNumResults() == 0 || !outMap.isProjectedPermutation())
    return reads;
  unsigned vectorDim =
      cast<AffineDimExpr>(outMap.getResults().back()).getPosition();
  if (!map.isFunctionOfDim(vectorDim))
    return reads; // a broadcast scalar: a whole vector widened per read
  // The rows that share each vector read: along the longest output
  // dimension the input does not index, at most a tile's.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t rows = 1;
  for (AffineExpr index : outMap.getResults().drop_back()) {
    unsigned dim = cast<AffineDimExpr>(index).getPosition();
    if (!map.isFunctionOfDim(dim))
      rows = std::max(rows, std::min(tileRows, ranges[dim]));
  }
  return *reads / rows;
}

/// The type every use of `arg` widens it to with `arith.extf`, or null when
/// it has no use or one that is not such a widening.
static FloatType getWidenedType(BlockArgument arg) {
  FloatType wide;
  for (Operation *user : arg.getUsers()) {
    auto ext = dyn_cast<arith::ExtFOp>(user);
    auto type = ext ? dyn_cast<FloatType>(ext.getType()) : nullptr;
    if (!type || (wide && type != wide))
      return nullptr;
    wide = type;
  }
  return wide;
}

/// `low` (a ranked tensor) with its elements widened to `wide`: the pad of
/// the widened source where `low` pads with a constant, otherwise an
/// elementwise `linalg.generic`.
static Value widenTensor(RewriterBase &rewriter, Location loc, Value low,
                         FloatType wide) {
  auto type = cast<RankedTensorType>(low.getType());
  auto wideType = type.clone(wide);
  FloatAttr padValue;
  auto pad = low.getDefiningOp<tensor::PadOp>();
  if (pad && pad.getSourceType().hasStaticShape() &&
      pad.getConstantPaddingValue() &&
      matchPattern(pad.getConstantPaddingValue(), m_Constant(&padValue))) {
    // Widening is exact: the widened pad value is the pad value.
    APFloat value = padValue.getValue();
    bool lost = false;
    value.convert(wide.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &lost);
    Value widePad =
        arith::ConstantOp::create(rewriter, loc, FloatAttr::get(wide, value));
    Value source = widenTensor(rewriter, loc, pad.getSource(), wide);
    return tensor::PadOp::create(rewriter, loc, wideType, source,
                                 pad.getMixedLowPad(), pad.getMixedHighPad(),
                                 widePad, pad.getNofold())
        .getResult();
  }
  Value init =
      tensor::EmptyOp::create(rewriter, loc, type.getShape(), wide).getResult();
  AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto widen = linalg::GenericOp::create(
      rewriter, loc, TypeRange{wideType}, ValueRange{low}, ValueRange{init},
      ArrayRef<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
        Value value = arith::ExtFOp::create(b, bodyLoc, wide, args[0]);
        linalg::YieldOp::create(b, bodyLoc, value);
      });
  return widen.getResult(0);
}

LogicalResult amp::widenReusedInputs(RewriterBase &rewriter,
                                     linalg::GenericOp op, double minWidenings,
                                     int64_t tileRows, bool keepBF16Products) {
  if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() == 0)
    return failure();
  Type bf16 = BFloat16Type::get(op.getContext());
  bool bf16Products = keepBF16Products && op.getNumDpsInputs() == 2 &&
                      amp::isWidenedProductSum(*op.getBlock(), bf16);
  bool changed = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(input);
    FloatType wide = getWidenedType(arg);
    std::optional<double> widenings =
        getWideningsPerElement(op, input, tileRows);
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (!wide || !type || type.getEncoding() || !widenings ||
        *widenings < minWidenings || (bf16Products && arg.getType() == bf16))
      continue;
    // Right after the value, so that what comes right before the op (the
    // fill of its output, which its kernel folds) still does.
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfterValue(input->get());
    Value low = input->get();
    Value widened = widenTensor(rewriter, op.getLoc(), low, wide);
    rewriter.modifyOpInPlace(op, [&] {
      input->set(widened);
      arg.setType(wide);
    });
    // A pad of the low value that nothing else reads goes, and so does its
    // padding value if nothing else uses it.
    if (auto pad = low.getDefiningOp<tensor::PadOp>();
        pad && pad->use_empty()) {
      Operation *padValue = pad.getConstantPaddingValue().getDefiningOp();
      if (padValue && pad->isProperAncestor(padValue))
        padValue = nullptr; // goes with the pad
      rewriter.eraseOp(pad);
      if (padValue && padValue->use_empty() && isPure(padValue))
        rewriter.eraseOp(padValue);
    }
    for (Operation *ext : llvm::make_early_inc_range(arg.getUsers()))
      rewriter.replaceOp(ext, arg);
    changed = true;
  }
  return success(changed);
}

namespace {
struct WidenReusedInputs : amp::impl::WidenReusedInputsBase<WidenReusedInputs> {
  using Base::Base;
  LogicalResult initialize(MLIRContext *context) override {
    if (!(minWidenings >= 1) || tileRows < 1) { // NaN too
      return emitError(UnknownLoc::get(context),
                       "amp-widen-reused-inputs: min-widenings "
                       "must be at least 1 and tile-rows at least "
                       "1, not ")
             << static_cast<double>(minWidenings) << " and "
             << static_cast<int64_t>(tileRows);
    }
    return success();
  }

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation()->walk([&](linalg::GenericOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : ops)
      (void)amp::widenReusedInputs(rewriter, op, minWidenings, tileRows,
                                   keepBF16Products);
  }
};
} // namespace

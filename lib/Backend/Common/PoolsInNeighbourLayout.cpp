//===- PoolsInNeighbourLayout.cpp - Pools without transposes --------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/PoolsInNeighbourLayout.h"
#include "amp/Backend/Common/GPUContractionStrategy.h"
#include "amp/Backend/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_POOLSINNEIGHBOURLAYOUT
#include "amp/Backend/Common/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// The permutation through which `op` reads its one input, when `op` is
/// elementwise on tensors (all loops parallel), of one input and one output
/// written through the identity, and reads the input through a
/// permutation; with `copy`, its body must yield the input element as it
/// is (a transpose).
static std::optional<AffineMap> getPermutedInputMap(linalg::GenericOp op,
                                                    bool copy) {
  if (!op || !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumParallelLoops() != op.getNumLoops())
    return std::nullopt;
  AffineMap in = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!out.isIdentity() || !in.isPermutation() || in.isIdentity())
    return std::nullopt;
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (copy && (body.getOperations().size() != 1 ||
               yield.getValues().front() != body.getArgument(0)))
    return std::nullopt;
  return in;
}

/// Whether `op` is a window reduction: a generic on tensors with reduction
/// loops, one output, and one input read in its body, which it combines
/// into the output with maxima, minima or sums only (a pool; a convolution
/// multiplies, and is left to the contraction kernels' layout). Its other
/// inputs (the window's shape) are not read.
static OpOperand *getPooledInput(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0)
    return nullptr;
  OpOperand *pooled = nullptr;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (op.getMatchingBlockArgument(input).use_empty())
      continue;
    if (pooled)
      return nullptr;
    pooled = input;
  }
  Block &body = op.getRegion().front();
  for (Operation &inner : body.without_terminator())
    if (!isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp, arith::AddFOp>(inner))
      return nullptr;
  return pooled;
}

namespace {
/// A pool between a transpose and its inverse, computed in the layout of
/// the transposes' other side (see the amp-pools-in-neighbour-layout pass).
struct PoolInNeighbourLayout : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp pool,
                                PatternRewriter &rewriter) const override {
    OpOperand *pooled = getPooledInput(pool);
    if (!pooled)
      return rewriter.notifyMatchFailure(pool, "not a window reduction");
    // The input, or its padding (a ceil-mode pool's, explicit pads).
    Value source = pooled->get();
    auto pad = source.getDefiningOp<tensor::PadOp>();
    if (pad) {
      if (!pad->hasOneUse() || !pad.getConstantPaddingValue())
        return rewriter.notifyMatchFailure(pool, "not a constant padding");
      source = pad.getSource();
    }
    auto before = source.getDefiningOp<linalg::GenericOp>();
    std::optional<AffineMap> beforeMap =
        getPermutedInputMap(before, /*copy=*/true);
    if (!beforeMap || !before->hasOneUse())
      return rewriter.notifyMatchFailure(pool, "input is not a transpose");
    Value result = pool.getResult(0);
    if (!result.hasOneUse())
      return rewriter.notifyMatchFailure(pool, "result has several users");
    auto after = dyn_cast<linalg::GenericOp>(*result.getUsers().begin());
    std::optional<AffineMap> afterMap =
        getPermutedInputMap(after, /*copy=*/false);
    if (!afterMap || *afterMap != inversePermutation(*beforeMap))
      return rewriter.notifyMatchFailure(
          pool, "user does not read it through the inverse transpose");
    Value fillValue =
        amp::getFilledValue(pool.getDpsInitOperand(0)->get().getDefiningOp());
    if (!fillValue)
      return rewriter.notifyMatchFailure(pool, "output is not filled");

    // The input in the layout the transpose read, padded there.
    Location loc = pool.getLoc();
    Value input = before.getDpsInputs().front();
    if (pad) {
      SmallVector<OpFoldResult> low, high;
      SmallVector<OpFoldResult> padLow = pad.getMixedLowPad();
      SmallVector<OpFoldResult> padHigh = pad.getMixedHighPad();
      for (unsigned dim = 0, e = beforeMap->getNumResults(); dim < e; ++dim) {
        unsigned transposed = beforeMap->getDimPosition(dim);
        low.push_back(padLow[transposed]);
        high.push_back(padHigh[transposed]);
      }
      input = tensor::PadOp::create(rewriter, loc, Type(), input, low, high,
                                    pad.getConstantPaddingValue());
    }

    // The pool reads where the transpose read what the pool read, and
    // writes where its user reads what the pool wrote.
    SmallVector<AffineMap> maps = pool.getIndexingMapsArray();
    maps[pooled->getOperandNumber()] =
        beforeMap->compose(maps[pooled->getOperandNumber()]);
    OpOperand *init = pool.getDpsInitOperand(0);
    maps[init->getOperandNumber()] =
        inversePermutation(*afterMap).compose(maps[init->getOperandNumber()]);
    SmallVector<Value> inputs = pool.getDpsInputs();
    inputs[pooled->getOperandNumber()] = input;

    auto resultType = RankedTensorType::get(
        cast<RankedTensorType>(after.getResult(0).getType()).getShape(),
        cast<RankedTensorType>(result.getType()).getElementType());
    Value empty = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                          resultType.getElementType());
    Value filled =
        linalg::FillOp::create(rewriter, loc, fillValue, empty).getResult(0);
    auto moved = linalg::GenericOp::create(rewriter, loc, TypeRange{resultType},
                                           inputs, ValueRange{filled}, maps,
                                           pool.getIteratorTypesArray());
    rewriter.inlineRegionBefore(pool.getRegion(), moved.getRegion(),
                                moved.getRegion().begin());
    // The user reads the pool's result in its own layout (a copy then
    // folds away).
    rewriter.modifyOpInPlace(after, [&] {
      after.getDpsInputOperand(0)->set(moved.getResult(0));
      SmallVector<AffineMap> afterMaps = after.getIndexingMapsArray();
      afterMaps[0] =
          AffineMap::getMultiDimIdentityMap(after.getNumLoops(), getContext());
      after.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(afterMaps));
    });
    rewriter.eraseOp(pool);

    // Loops in the order of the output's layout, window loops innermost:
    // each row of the output is computed along its own elements.
    SmallVector<unsigned> order;
    for (AffineExpr index :
         moved.getMatchingIndexingMap(moved.getDpsInitOperand(0)).getResults())
      order.push_back(cast<AffineDimExpr>(index).getPosition());
    for (unsigned dim = 0, e = moved.getNumLoops(); dim < e; ++dim)
      if (!llvm::is_contained(order, dim))
        order.push_back(dim);
    rewriter.setInsertionPoint(moved);
    (void)linalg::interchangeGenericOp(rewriter, moved, order);
    return success();
  }
};

struct PoolsInNeighbourLayout
    : amp::impl::PoolsInNeighbourLayoutBase<PoolsInNeighbourLayout> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    amp::populatePoolsInNeighbourLayoutPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void amp::populatePoolsInNeighbourLayoutPatterns(RewritePatternSet &patterns) {
  patterns.add<PoolInNeighbourLayout>(patterns.getContext());
}

//===- PropagateLayouts.cpp - Results in the layout of inputs -------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/PropagateLayouts.h"
#include "amp/Backend/Common/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_PROPAGATELAYOUTS
#include "amp/Backend/Common/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// The elements of `op`'s operands, with `maps` in place of its indexing
/// maps, read or written one at a time by a vectorized kernel: those whose
/// innermost index is not the loop most of the others are innermost along
/// (the loop a kernel runs its vectors along). An operand whose innermost
/// index is a reduction loop is read along it (a row reduction's row, a
/// contraction's dot products), and counts for neither.
static int64_t countCrossAccesses(linalg::GenericOp op,
                                  ArrayRef<AffineMap> maps) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> contiguous(op.getNumLoops(), 0);
  int64_t total = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    AffineMap map = maps[operand.getOperandNumber()];
    if (!type || !type.hasStaticShape() || map.getNumResults() == 0)
      continue;
    auto index = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (index &&
        iterators[index.getPosition()] == utils::IteratorType::reduction)
      continue;
    total += type.getNumElements();
    if (index)
      contiguous[index.getPosition()] += type.getNumElements();
  }
  return total - *llvm::max_element(contiguous);
}

/// Whether `op` multiplies inputs along a reduction loop (a matmul, a
/// convolution): two of its inputs are indexed by one.
static bool isContraction(linalg::GenericOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  return llvm::count_if(op.getDpsInputOperands(), [&](OpOperand *input) {
           AffineMap map = op.getMatchingIndexingMap(input);
           return llvm::any_of(map.getResults(), [&](AffineExpr index) {
             auto dim = dyn_cast<AffineDimExpr>(index);
             return dim && iterators[dim.getPosition()] ==
                               utils::IteratorType::reduction;
           });
         }) >= 2;
}

namespace {
/// A result of an elementwise generic stored in the layout its largest input
/// is read in (see the amp-propagate-layouts pass).
struct PropagateResultLayout : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() ||
        op.getNumParallelLoops() != op.getNumLoops())
      return rewriter.notifyMatchFailure(op, "not elementwise on tensors");
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (llvm::any_of(ranges, ShapedType::isDynamic))
      return rewriter.notifyMatchFailure(op, "dynamic loop ranges");
    // The layout of the largest input read through a permutation.
    AffineMap target;
    int64_t largest = -1;
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      AffineMap map = op.getMatchingIndexingMap(input);
      if (type && type.hasStaticShape() && map.isPermutation() &&
          type.getNumElements() > largest) {
        largest = type.getNumElements();
        target = map;
      }
    }
    if (!target)
      return rewriter.notifyMatchFailure(op, "no input read in a layout");
    for (OpResult result : op->getResults()) {
      OpOperand *init = op.getDpsInitOperand(result.getResultNumber());
      AffineMap out = op.getMatchingIndexingMap(init);
      if (out == target || !out.isPermutation() || result.use_empty() ||
          op.payloadUsesValueFromOperand(init) ||
          !init->get().getDefiningOp<tensor::EmptyOp>())
        continue;
      SmallVector<linalg::GenericOp> users;
      bool allGenericInputs =
          llvm::all_of(result.getUses(), [&](OpOperand &use) {
            auto user = dyn_cast<linalg::GenericOp>(use.getOwner());
            if (!user || user == op || !user.hasPureTensorSemantics() ||
                !user.isDpsInput(&use))
              return false;
            if (!llvm::is_contained(users, user))
              users.push_back(user);
            return true;
          });
      if (!allGenericInputs)
        continue;
      // The result in the new layout at `permutation(index)` holds what it
      // held at `index`.
      AffineMap permutation = target.compose(inversePermutation(out));
      SmallVector<AffineMap> opMaps = op.getIndexingMapsArray();
      int64_t before = countCrossAccesses(op, opMaps);
      opMaps[init->getOperandNumber()] = target;
      int64_t after = countCrossAccesses(op, opMaps);
      // A contraction's kernel reads each operand along the loop its
      // layout has innermost (A along k, B along the output's columns):
      // that loop stays innermost.
      bool keepsDotProducts = true;
      SmallVector<SmallVector<AffineMap>> userMaps;
      for (linalg::GenericOp user : users) {
        SmallVector<AffineMap> maps = user.getIndexingMapsArray();
        before += countCrossAccesses(user, maps);
        bool contraction = isContraction(user);
        for (OpOperand &operand : user->getOpOperands()) {
          if (operand.get() != result)
            continue;
          AffineMap &map = maps[operand.getOperandNumber()];
          AffineMap permuted = permutation.compose(map);
          if (contraction &&
              (map.getNumResults() == 0 ||
               permuted.getResults().back() != map.getResults().back()))
            keepsDotProducts = false;
          map = permuted;
        }
        after += countCrossAccesses(user, maps);
        userMaps.push_back(std::move(maps));
      }
      if (!keepsDotProducts || after >= before)
        continue;

      auto type = cast<RankedTensorType>(result.getType());
      SmallVector<int64_t> shape;
      for (AffineExpr index : target.getResults())
        shape.push_back(ranges[cast<AffineDimExpr>(index).getPosition()]);
      rewriter.setInsertionPoint(op);
      Value empty = tensor::EmptyOp::create(rewriter, op.getLoc(), shape,
                                            type.getElementType());
      rewriter.modifyOpInPlace(op, [&] {
        init->set(empty);
        result.setType(cast<RankedTensorType>(empty.getType()));
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(opMaps));
      });
      for (auto [user, maps] : llvm::zip_equal(users, userMaps))
        rewriter.modifyOpInPlace(user, [&] {
          user.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
        });
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no result gains from a layout");
  }
};

/// An elementwise generic whose outputs are written through one permutation
/// of its loops iterates in the outputs' order: its loops are interchanged
/// so that the outputs' map is the identity (see the amp-propagate-layouts
/// pass).
struct IterateInOutputOrder : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() == 0 ||
        op.getNumParallelLoops() != op.getNumLoops())
      return rewriter.notifyMatchFailure(op, "not elementwise on tensors");
    AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (!out.isPermutation() || out.isIdentity() ||
        llvm::any_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
          return op.getMatchingIndexingMap(&init) != out;
        }))
      return rewriter.notifyMatchFailure(op, "no one permuted output map");
    SmallVector<unsigned> order;
    for (AffineExpr index : out.getResults())
      order.push_back(cast<AffineDimExpr>(index).getPosition());
    return linalg::interchangeGenericOp(rewriter, op, order);
  }
};

struct PropagateLayouts : amp::impl::PropagateLayoutsBase<PropagateLayouts> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    amp::populatePropagateLayoutsPatterns(patterns);
    // Producers before their users.
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace

void amp::populatePropagateLayoutsPatterns(RewritePatternSet &patterns) {
  patterns.add<PropagateResultLayout, IterateInOutputOrder>(
      patterns.getContext());
}

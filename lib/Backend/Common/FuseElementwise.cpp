//===- FuseElementwise.cpp - Elementwise fusion without recomputation -----===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/FuseElementwise.h"
#include "amp/Backend/Common/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "amp/Backend/Common/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

bool amp::fusionRecomputes(OpOperand *operand) {
  auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
  return consumer && consumer.getNumReductionLoops() != 0 &&
         !consumer.getMatchingIndexingMap(operand).isPermutation();
}

bool amp::shouldFuseElementwise(OpOperand *fusedOperand) {
  Operation *producer = fusedOperand->get().getDefiningOp();
  return producer && producer->hasOneUse() && !fusionRecomputes(fusedOperand);
}

bool amp::shouldFoldReshape(OpOperand *operand) {
  Operation *producer = operand->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  // A reduction whose result's innermost dimension an expand_shape splits.
  auto expand = dyn_cast<tensor::ExpandShapeOp>(operand->getOwner());
  auto reduction = dyn_cast<linalg::LinalgOp>(producer);
  if (!expand || !reduction || reduction.getNumReductionLoops() == 0)
    return true;
  ArrayRef<int64_t> shape = expand.getResultType().getShape();
  ReassociationIndices innermost = expand.getReassociationIndices().back();
  return llvm::count_if(innermost,
                        [&](int64_t dim) { return shape[dim] != 1; }) <= 1;
}

namespace {
/// A transpose of a concatenation: each piece transposed on its own, into
/// its place in the transposed result, where it fuses with the piece's
/// producer (see the amp-fuse-elementwise pass).
struct TransposeConcatenation : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    // (A body reading its loop indices would read the pieces' own.)
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
        op.getNumDpsInits() != 1 || op.hasIndexSemantics() ||
        op.getNumParallelLoops() != op.getNumLoops())
      return rewriter.notifyMatchFailure(op, "not a one-input elementwise op");
    OpOperand *input = op.getDpsInputOperand(0);
    OpOperand *init = op.getDpsInitOperand(0);
    AffineMap inMap = op.getMatchingIndexingMap(input);
    if (!op.getMatchingIndexingMap(init).isIdentity() ||
        !inMap.isPermutation() || inMap.isIdentity() ||
        op.payloadUsesValueFromOperand(init) ||
        !init->get().getDefiningOp<tensor::EmptyOp>())
      return rewriter.notifyMatchFailure(op, "not a transpose");
    // The concatenation: static inserts into an empty tensor, each result
    // used by the next one only.
    SmallVector<tensor::InsertSliceOp> inserts;
    Value value = input->get();
    while (auto insert = value.getDefiningOp<tensor::InsertSliceOp>()) {
      if (!value.hasOneUse() || !insert.hasUnitStride() ||
          ShapedType::isDynamicShape(insert.getStaticOffsets()) ||
          ShapedType::isDynamicShape(insert.getStaticSizes()))
        return rewriter.notifyMatchFailure(op, "not a static concatenation");
      inserts.push_back(insert);
      value = insert.getDest();
    }
    if (inserts.empty() || !value.getDefiningOp<tensor::EmptyOp>())
      return rewriter.notifyMatchFailure(op, "input is not a concatenation");

    MLIRContext *context = rewriter.getContext();
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getResult(0).getType());
    int64_t rank = type.getRank();
    rewriter.setInsertionPoint(op);
    Value result = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                           type.getElementType());
    // Input dimension j is read at loop (and result dimension) inMap's j-th.
    for (tensor::InsertSliceOp insert : llvm::reverse(inserts)) {
      llvm::SmallBitVector dropped = insert.getDroppedDims();
      SmallVector<int64_t> offsets(rank), sizes(rank);
      SmallVector<int64_t> readAt(rank); // input dimension read at a loop
      for (int64_t j = 0; j < rank; ++j) {
        unsigned loop = inMap.getDimPosition(j);
        offsets[loop] = insert.getStaticOffsets()[j];
        sizes[loop] = insert.getStaticSizes()[j];
        readAt[loop] = j;
      }
      // The piece's loops: the result dimensions of the source's (not the
      // unit dimensions the insert drops), in the result's order.
      SmallVector<int64_t> shape, loopOf(rank, -1);
      for (int64_t loop = 0; loop < rank; ++loop)
        if (!dropped.test(readAt[loop])) {
          loopOf[readAt[loop]] = shape.size();
          shape.push_back(sizes[loop]);
        }
      SmallVector<AffineExpr> reads;
      for (int64_t j = 0; j < rank; ++j)
        if (!dropped.test(j))
          reads.push_back(getAffineDimExpr(loopOf[j], context));
      unsigned loops = shape.size();
      Value empty =
          tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
      auto piece = linalg::GenericOp::create(
          rewriter, loc, TypeRange{empty.getType()},
          ValueRange{insert.getSource()}, ValueRange{empty},
          ArrayRef<AffineMap>{
              AffineMap::get(loops, 0, reads, context),
              AffineMap::getMultiDimIdentityMap(loops, context)},
          SmallVector<utils::IteratorType>(loops,
                                           utils::IteratorType::parallel));
      rewriter.cloneRegionBefore(op.getRegion(), piece.getRegion(),
                                 piece.getRegion().end());
      SmallVector<int64_t> strides(rank, 1);
      result = tensor::InsertSliceOp::create(
          rewriter, loc, piece.getResult(0), result,
          getAsIndexOpFoldResult(context, offsets),
          getAsIndexOpFoldResult(context, sizes),
          getAsIndexOpFoldResult(context, strides));
    }
    rewriter.replaceOp(op, result);
    for (tensor::InsertSliceOp insert : inserts)
      rewriter.eraseOp(insert);
    return success();
  }
};
} // namespace

void amp::populateAmpElementwiseFusionPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  linalg::ControlFusionFn control = shouldFuseElementwise;
  linalg::populateElementwiseOpsFusionPatterns(patterns, control);
  patterns.add<TransposeConcatenation>(context);
  linalg::populateFoldReshapeOpsByExpansionPatterns(patterns,
                                                    shouldFoldReshape);
  linalg::populateConstantFoldLinalgOperations(patterns, control);
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
  linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
  context->getLoadedDialect<linalg::LinalgDialect>()
      ->getCanonicalizationPatterns(patterns);
}

namespace {
struct FuseElementwise : amp::impl::FuseElementwiseBase<FuseElementwise> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    amp::populateAmpElementwiseFusionPatterns(patterns);
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    // Fusion is an optimization: where the driver stops before a fixed
    // point, the IR is valid and merely less fused.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }
};
} // namespace

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
  return llvm::count_if(innermost, [&](int64_t dim) {
           return shape[dim] != 1;
         }) <= 1;
}

void amp::populateAmpElementwiseFusionPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  linalg::ControlFusionFn control = shouldFuseElementwise;
  linalg::populateElementwiseOpsFusionPatterns(patterns, control);
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

//===- WideConvolutionResults.cpp - Convolution sums in f32 ---------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/WideConvolutionResults.h"
#include "amp/Backend/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_WIDECONVOLUTIONRESULTS
#include "amp/Backend/CPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// Whether `op` is a TOSA convolution that sums in f32 and returns a tensor
/// of a low type `widen` accepts. (Each takes input, weight, bias and the
/// two zero points, the bias third.)
static bool isNarrowedSum(Operation *op, function_ref<bool(FloatType)> widen) {
  if (!isa<tosa::Conv2DOp, tosa::Conv3DOp, tosa::DepthwiseConv2DOp,
           tosa::TransposeConv2DOp>(op))
    return false;
  auto acc = op->getAttrOfType<TypeAttr>("acc_type");
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  auto low = result ? dyn_cast<FloatType>(result.getElementType()) : nullptr;
  return acc && acc.getValue().isF32() && low && low.getWidth() < 32 &&
         widen(low);
}

/// `value`'s ranked tensor type with f32 elements.
static RankedTensorType getF32Like(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  return type.clone(Float32Type::get(value.getContext()));
}

unsigned
mlir::amp::widenConvolutionResults(Operation *root,
                                   function_ref<bool(FloatType)> widen) {
  SmallVector<arith::ExtFOp> widenings;
  root->walk([&](arith::ExtFOp ext) {
    if (isa<RankedTensorType>(ext.getType()) &&
        getElementTypeOrSelf(ext.getType()).isF32())
      widenings.push_back(ext);
  });
  unsigned changed = 0;
  for (arith::ExtFOp ext : widenings) {
    // The ops that only move the sums on their way to the widening.
    SmallVector<Operation *> between;
    Value value = ext.getIn();
    Operation *producer = value.getDefiningOp();
    while (producer && isa<tosa::TransposeOp, tosa::ReshapeOp>(producer) &&
           value.hasOneUse()) {
      between.push_back(producer);
      value = producer->getOperand(0);
      producer = value.getDefiningOp();
    }
    if (!producer || !value.hasOneUse() || !isNarrowedSum(producer, widen) ||
        !isa<RankedTensorType>(producer->getOperand(2).getType()) ||
        !llvm::all_of(between, [](Operation *op) {
          return isa<RankedTensorType>(op->getResult(0).getType());
        }))
      continue;

    OpBuilder builder(producer);
    Location loc = producer->getLoc();
    Value bias = producer->getOperand(2);
    Value wideBias =
        arith::ExtFOp::create(builder, loc, getF32Like(bias), bias);
    Operation *sums = builder.clone(*producer);
    sums->setOperand(2, wideBias);
    sums->getResult(0).setType(getF32Like(producer->getResult(0)));
    Value moved = sums->getResult(0);
    for (Operation *op : llvm::reverse(between)) {
      builder.setInsertionPoint(op);
      Operation *wide = builder.clone(*op);
      wide->setOperand(0, moved);
      wide->getResult(0).setType(getF32Like(op->getResult(0)));
      moved = wide->getResult(0);
    }
    ext.replaceAllUsesWith(moved);
    ext.erase();
    for (Operation *op : between)
      op->erase();
    producer->erase();
    ++changed;
  }
  return changed;
}

namespace {

struct WideConvolutionResults
    : amp::impl::WideConvolutionResultsBase<WideConvolutionResults> {
  using WideConvolutionResultsBase::WideConvolutionResultsBase;
  void runOnOperation() override {
    amp::widenConvolutionResults(getOperation(), [&](FloatType type) {
      return (bf16 && type.isBF16()) || (f16 && type.isF16());
    });
  }
};

} // namespace

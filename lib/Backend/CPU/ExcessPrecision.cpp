//===- ExcessPrecision.cpp - Low-precision arithmetic in f32 --------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/ExcessPrecision.h"
#include "amp/Backend/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_EXCESSPRECISION
#include "amp/Backend/CPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// The low float type all of `op`'s float operands and results have, when
/// `op` is elementwise arithmetic on scalars or vectors that `widen` takes.
static FloatType getWidenedType(Operation *op,
                                function_ref<bool(FloatType)> widen) {
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
      !isa<vector::FMAOp>(op))
    return {};
  if ((!op->hasTrait<OpTrait::Elementwise>() && !isa<arith::SelectOp>(op)) ||
      isa<CastOpInterface>(op) || op->getNumRegions() != 0)
    return {};
  FloatType low;
  auto accepts = [&](Type type) {
    if (!type.isIntOrIndexOrFloat() && !isa<VectorType>(type))
      return false;
    auto element = dyn_cast<FloatType>(getElementTypeOrSelf(type));
    if (!element)
      return true;
    if (!low)
      low = element;
    return element == low;
  };
  if (!llvm::all_of(op->getOperandTypes(), accepts) ||
      !llvm::all_of(op->getResultTypes(), accepts) || !low || !widen(low))
    return {};
  return low;
}

/// `type` with its float element type replaced by f32.
static Type getF32Like(Type type) {
  Type f32 = Float32Type::get(type.getContext());
  if (auto vector = dyn_cast<VectorType>(type))
    return isa<FloatType>(vector.getElementType()) ? vector.clone(f32) : type;
  return isa<FloatType>(type) ? f32 : type;
}

void mlir::amp::computeInExcessPrecision(Operation *root,
                                         function_ref<bool(FloatType)> widen) {
  SmallVector<Operation *> arithmetic;
  root->walk([&](Operation *op) {
    if (getWidenedType(op, widen))
      arithmetic.push_back(op);
  });
  // The roundings this creates, and one widening per value widened.
  llvm::SmallPtrSet<Operation *, 16> roundings;
  DenseMap<Value, Value> widened;
  auto getF32 = [&](Value value) -> Value {
    if (auto rounding = value.getDefiningOp<arith::TruncFOp>())
      if (roundings.contains(rounding))
        return rounding.getIn();
    Value &wide = widened[value];
    if (!wide) {
      OpBuilder builder(value.getContext());
      builder.setInsertionPointAfterValue(value);
      wide = arith::ExtFOp::create(builder, value.getLoc(),
                                   getF32Like(value.getType()), value);
    }
    return wide;
  };
  for (Operation *op : arithmetic) {
    OperationState state(op->getLoc(), op->getName());
    for (Value operand : op->getOperands())
      state.operands.push_back(
          getF32Like(operand.getType()) == operand.getType() ? operand
                                                             : getF32(operand));
    for (Type type : op->getResultTypes())
      state.types.push_back(getF32Like(type));
    state.addAttributes(op->getAttrs());
    OpBuilder builder(op);
    Operation *wide = builder.create(state);
    for (auto [result, wideResult] :
         llvm::zip_equal(op->getResults(), wide->getResults())) {
      if (result.getType() == wideResult.getType()) {
        result.replaceAllUsesWith(wideResult);
        continue;
      }
      auto rounding = arith::TruncFOp::create(builder, op->getLoc(),
                                              result.getType(), wideResult);
      roundings.insert(rounding);
      result.replaceAllUsesWith(rounding.getResult());
    }
    op->erase();
  }
  // Roundings whose users all compute in f32 now go.
  for (Operation *rounding : roundings)
    if (rounding->use_empty())
      rounding->erase();
}

namespace {

struct ExcessPrecision : amp::impl::ExcessPrecisionBase<ExcessPrecision> {
  using ExcessPrecisionBase::ExcessPrecisionBase;
  void runOnOperation() override {
    amp::computeInExcessPrecision(getOperation(), [&](FloatType type) {
      return (bf16 && type.isBF16()) || (f16 && type.isF16());
    });
  }
};

} // namespace

//===- ArithModels.cpp - AmpOpInterface models for arith ------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ModelSupport.h"
#include "amp/Interfaces/ExternalModels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

CategoryInfo arithCategory(Operation *op) {
  return llvm::TypeSwitch<Operation *, CategoryInfo>(op)
      .Case<arith::ConstantOp>([](auto) {
        return category(Policy::Follow,
                        "constants take their users' precision and are "
                        "converted at compile time");
      })
      .Case<arith::ExtFOp, arith::TruncFOp>([](auto) {
        return category(Policy::Follow,
                        "a cast: amp places and folds casts itself");
      })
      .Case<arith::BitcastOp, arith::ScalingExtFOp, arith::ScalingTruncFOp>(
          [](auto) {
            return category(Policy::Never,
                            "its float type is part of what it computes");
          })
      .Case<arith::SIToFPOp, arith::UIToFPOp, arith::FPToSIOp, arith::FPToUIOp>(
          [](auto) {
            return category(
                Policy::Follow,
                "integer conversion: takes its neighbours' precision");
          })
      .Default([](auto) { return followsElementwise(); });
}

/// Elementwise arithmetic, comparisons, select and constants: every float
/// operand and result changes together; constants convert their value.
template <typename OpT>
struct ArithRetypingModel : RetypingModel<ArithRetypingModel<OpT>, OpT> {
  CategoryInfo getDefaultCategory(Operation *op, FloatType) const {
    return arithCategory(op);
  }
};

/// Ops whose float types are their meaning (casts, bitcasts): amp decides
/// their operands' precision but never rewrites the op itself.
template <typename OpT>
struct ArithFixedTypeModel
    : AmpOpInterface::ExternalModel<ArithFixedTypeModel<OpT>, OpT> {
  CategoryInfo getDefaultCategory(Operation *op, FloatType) const {
    return arithCategory(op);
  }
  // A bitcast's operand and result types are its meaning; a cast's operand
  // is data amp may retype, its result type is what it casts to.
  bool isDataOperand(Operation *op, unsigned index) const {
    return isa<arith::ExtFOp, arith::TruncFOp>(op) &&
           amp::detail::isFloatData(op->getOperand(index).getType());
  }
  bool isDataResult(Operation *, unsigned) const { return false; }
  std::optional<std::string> getRewriteBlocker(Operation *, FloatType,
                                               FloatType) const {
    return std::string("the op's float types are fixed by what it computes");
  }
  FailureOr<Operation *> convertToPrecision(Operation *op,
                                            RewriterBase &rewriter, FloatType,
                                            FloatType) const {
    return rewriter.notifyMatchFailure(
        op, "the op's float types are fixed by what it computes");
  }
};

} // namespace

void mlir::amp::registerArithExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    attachModels<ArithRetypingModel, arith::AddFOp, arith::SubFOp,
                 arith::MulFOp, arith::DivFOp, arith::RemFOp, arith::NegFOp,
                 arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
                 arith::MinNumFOp, arith::CmpFOp, arith::SelectOp,
                 arith::ConstantOp, arith::SIToFPOp, arith::UIToFPOp,
                 arith::FPToSIOp, arith::FPToUIOp>(ctx);
    attachModels<ArithFixedTypeModel, arith::ExtFOp, arith::TruncFOp,
                 arith::BitcastOp, arith::ScalingExtFOp,
                 arith::ScalingTruncFOp>(ctx);
  });
}

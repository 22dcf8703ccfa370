//===- ModelSupport.h - Shared pieces of amp's external models --*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_INTERFACES_MODELSUPPORT_H
#define AMP_LIB_INTERFACES_MODELSUPPORT_H

#include "amp/Interfaces/AmpOpInterface.h"

#include "amp/Target/TargetCapabilities.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir {
namespace amp {

/// Attaches `Model<OpT>` to every op in `OpTs`.
template <template <typename> class Model, typename... OpTs>
void attachModels(MLIRContext *ctx) {
  (OpTs::template attachInterface<Model<OpTs>>(*ctx), ...);
}

/// Returns `{policy, reason}`; shorthand for model tables.
inline CategoryInfo category(Policy policy, StringRef reason) {
  return {policy, reason};
}

/// Categories shared by ops with the same numerics in several dialects.
inline CategoryInfo followsElementwise() {
  return {Policy::Follow,
          "elementwise arithmetic is accurate in low precision"};
}
inline CategoryInfo followsDataMovement() {
  return {Policy::Follow, getDataMovementReason()};
}
inline CategoryInfo followsStructure() {
  return {Policy::Follow,
          "control flow: takes the precision of the values it carries"};
}

/// The operand and result types `op` gets when every data operand and result
/// takes `elementType`.
inline void getRetypedTypes(Operation *op, FloatType elementType,
                            SmallVectorImpl<Type> &operandTypes,
                            SmallVectorImpl<Type> &resultTypes) {
  for (OpOperand &operand : op->getOpOperands())
    operandTypes.push_back(
        isDataOperand(op, operand.getOperandNumber())
            ? withFloatElementType(operand.get().getType(), elementType)
            : operand.get().getType());
  for (OpResult result : op->getResults())
    resultTypes.push_back(
        isDataResult(op, result.getResultNumber())
            ? withFloatElementType(result.getType(), elementType)
            : result.getType());
}

/// What an accumulation's combiner computes (`acc = acc <op> x`): the one
/// classification the linalg and scf models share.
inline AccumulationKind classifyCombiner(Operation *combiner) {
  if (isa<arith::AddFOp, arith::SubFOp>(combiner))
    return AccumulationKind::Sum;
  if (isa<arith::MulFOp>(combiner))
    return AccumulationKind::Product;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combiner))
    return AccumulationKind::Max;
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(combiner))
    return AccumulationKind::Min;
  return AccumulationKind::Other;
}

/// Ranks accumulation kinds by how much they lose, so that an op with
/// several accumulators reports its worst: exact max/min < sum < product <
/// anything else.
inline int lossRank(AccumulationKind kind) {
  switch (kind) {
  case AccumulationKind::Max:
  case AccumulationKind::Min:
    return 0;
  case AccumulationKind::Sum:
    return 1;
  case AccumulationKind::Product:
    return 2;
  case AccumulationKind::Other:
    return 3;
  }
  llvm_unreachable("unknown accumulation kind");
}

/// A model that retypes its op generically (every float operand, result and
/// block argument), with the category given by `Derived::category`.
/// `Derived` may override any other interface method.
template <typename Derived, typename OpT>
struct RetypingModel : AmpOpInterface::ExternalModel<Derived, OpT> {
  FailureOr<Operation *> convertToPrecision(Operation *op,
                                            RewriterBase &rewriter,
                                            FloatType lowType,
                                            FloatType accType) const {
    SmallVector<Type> operandTypes, resultTypes;
    getRetypedTypes(op, lowType, operandTypes, resultTypes);
    return convertByRetypingWith(rewriter, op, operandTypes, resultTypes,
                                 lowType);
  }
};

/// Ops that carry or move values rather than compute on them: retyped
/// generically, and run wherever the target can store the type.
template <typename Derived, typename OpT>
struct MovingModel : RetypingModel<Derived, OpT> {
  bool canComputeIn(Operation *, FloatType type, Attribute target) const {
    return targetSupports(target, TargetOpKind::Storage, type);
  }
};

/// Control flow, calls and returns: they take their values' precision.
template <typename OpT>
struct StructureModel : MovingModel<StructureModel<OpT>, OpT> {
  CategoryInfo getDefaultCategory(Operation *, FloatType) const {
    return followsStructure();
  }
};

/// Data movement: the element type passes through unchanged.
template <typename OpT>
struct DataMovementModel : MovingModel<DataMovementModel<OpT>, OpT> {
  CategoryInfo getDefaultCategory(Operation *, FloatType) const {
    return followsDataMovement();
  }
};

/// Bitcasts reinterpret bits: their float types are their meaning, so they
/// have no data amp may retype and stay as they are.
template <typename OpT>
struct BitcastModel : AmpOpInterface::ExternalModel<BitcastModel<OpT>, OpT> {
  CategoryInfo getDefaultCategory(Operation *, FloatType) const {
    return category(Policy::Never,
                    "reinterprets bits: its float types are its meaning");
  }
  bool isDataOperand(Operation *, unsigned) const { return false; }
  bool isDataResult(Operation *, unsigned) const { return false; }
  std::optional<std::string> getRewriteBlocker(Operation *, FloatType,
                                               FloatType) const {
    return std::string("a bitcast keeps its types");
  }
  FailureOr<Operation *> convertToPrecision(Operation *op,
                                            RewriterBase &rewriter, FloatType,
                                            FloatType) const {
    return rewriter.notifyMatchFailure(op, "a bitcast keeps its types");
  }
};

} // namespace amp
} // namespace mlir

#endif // AMP_LIB_INTERFACES_MODELSUPPORT_H

//===- TensorModels.cpp - AmpOpInterface models for tensor ----------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ModelSupport.h"
#include "amp/Interfaces/ExternalModels.h"
#include "amp/Target/TargetCapabilities.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

/// tensor.pad and tensor.generate yield their elements from a body, which
/// is converted with the op.
template <typename OpT>
struct TensorBodyModel : MovingModel<TensorBodyModel<OpT>, OpT> {
  CategoryInfo getDefaultCategory(Operation *, FloatType) const {
    return followsDataMovement();
  }
  FailureOr<Operation *> convertToPrecision(Operation *op,
                                            RewriterBase &rewriter,
                                            FloatType lowType,
                                            FloatType) const {
    SmallVector<Type> operandTypes, resultTypes;
    getRetypedTypes(op, lowType, operandTypes, resultTypes);
    return convertWithBody(rewriter, op, operandTypes, resultTypes, lowType);
  }
};

/// tensor.dim and tensor.rank read a shape, never the elements.
template <typename OpT>
struct ShapeQueryModel
    : AmpOpInterface::ExternalModel<ShapeQueryModel<OpT>, OpT> {
  CategoryInfo getDefaultCategory(Operation *, FloatType) const {
    return category(Policy::Follow, "reads only the shape");
  }
  bool isDataOperand(Operation *, unsigned) const { return false; }
  bool isDataResult(Operation *, unsigned) const { return false; }
  FailureOr<Operation *> convertToPrecision(Operation *op, RewriterBase &,
                                            FloatType, FloatType) const {
    return op;
  }
};

} // namespace

void mlir::amp::registerTensorExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    attachModels<DataMovementModel, tensor::CastOp, tensor::CollapseShapeOp,
                 tensor::ConcatOp, tensor::EmptyOp, tensor::ExpandShapeOp,
                 tensor::ExtractOp, tensor::ExtractSliceOp,
                 tensor::FromElementsOp, tensor::GatherOp, tensor::InsertOp,
                 tensor::InsertSliceOp, tensor::ParallelInsertSliceOp,
                 tensor::ReshapeOp, tensor::ScatterOp, tensor::SplatOp,
                 tensor::YieldOp>(ctx);
    attachModels<TensorBodyModel, tensor::PadOp, tensor::GenerateOp>(ctx);
    tensor::BitcastOp::attachInterface<BitcastModel<tensor::BitcastOp>>(*ctx);
    attachModels<ShapeQueryModel, tensor::DimOp, tensor::RankOp>(ctx);
  });
}

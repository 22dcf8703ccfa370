//===- ComplexModels.cpp - AmpOpInterface models for complex --------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// complex<f32> scalars convert like f32 scalars: their parts take the low
// type (complex<f16>, complex<bf16>), and amp casts them part by part.
//
//===----------------------------------------------------------------------===//

#include "ModelSupport.h"
#include "amp/Interfaces/ExternalModels.h"

#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

CategoryInfo complexCategory(Operation *op, FloatType lowType) {
  return llvm::TypeSwitch<Operation *, CategoryInfo>(op)
      .Case<complex::ExpOp, complex::Expm1Op, complex::PowOp, complex::PowiOp>(
          [&](auto) {
            return lowType.isF16()
                       ? category(Policy::Never,
                                  "complex exp and pow overflow f16")
                       : category(Policy::Never,
                                  "complex exp and pow amplify bf16's input "
                                  "rounding");
          })
      .Case<complex::LogOp, complex::Log1pOp, complex::RsqrtOp, complex::TanOp,
            complex::AngleOp, complex::Atan2Op>([](auto) {
        return category(Policy::Never,
                        "log, rsqrt, tan and angles of complex values need "
                        "f32 accuracy");
      })
      .Case<complex::CreateOp, complex::ReOp, complex::ImOp>(
          [](auto) { return followsDataMovement(); })
      .Default([](auto) { return followsElementwise(); });
}

template <typename OpT>
struct ComplexModel : RetypingModel<ComplexModel<OpT>, OpT> {
  CategoryInfo getDefaultCategory(Operation *op, FloatType lowType) const {
    return complexCategory(op, lowType);
  }
};

/// complex.constant holds its parts in an array attribute.
struct ComplexConstantModel
    : AmpOpInterface::ExternalModel<ComplexConstantModel, complex::ConstantOp> {
  CategoryInfo getDefaultCategory(Operation *, FloatType) const {
    return category(Policy::Follow,
                    "constants take their users' precision and are "
                    "converted at compile time");
  }
  std::optional<std::string> getRewriteBlocker(Operation *op, FloatType lowType,
                                               FloatType) const {
    for (Attribute part : cast<complex::ConstantOp>(op).getValue())
      if (!fitsFloatType(part, lowType))
        return std::string("a part does not fit");
    return std::nullopt;
  }
  FailureOr<Operation *> convertToPrecision(Operation *op,
                                            RewriterBase &rewriter,
                                            FloatType lowType,
                                            FloatType) const {
    auto constant = cast<complex::ConstantOp>(op);
    SmallVector<Attribute> parts;
    for (Attribute part : constant.getValue()) {
      FailureOr<Attribute> converted = convertFloatAttr(part, lowType);
      if (failed(converted))
        return rewriter.notifyMatchFailure(op, "a part does not fit");
      parts.push_back(*converted);
    }
    rewriter.setInsertionPoint(op);
    return complex::ConstantOp::create(rewriter, op->getLoc(),
                                       ComplexType::get(lowType),
                                       rewriter.getArrayAttr(parts))
        .getOperation();
  }
};

} // namespace

void mlir::amp::registerComplexExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, complex::ComplexDialect *) {
    attachModels<
        ComplexModel, complex::AbsOp, complex::AddOp, complex::AngleOp,
        complex::Atan2Op, complex::ConjOp, complex::CosOp, complex::CreateOp,
        complex::DivOp, complex::EqualOp, complex::ExpOp, complex::Expm1Op,
        complex::ImOp, complex::Log1pOp, complex::LogOp, complex::MulOp,
        complex::NegOp, complex::NotEqualOp, complex::PowOp, complex::PowiOp,
        complex::ReOp, complex::RsqrtOp, complex::SignOp, complex::SinOp,
        complex::SqrtOp, complex::SubOp, complex::TanOp, complex::TanhOp>(ctx);
    complex::ConstantOp::attachInterface<ComplexConstantModel>(*ctx);
    complex::BitcastOp::attachInterface<BitcastModel<complex::BitcastOp>>(*ctx);
  });
}

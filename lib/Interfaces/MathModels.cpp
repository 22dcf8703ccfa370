//===- MathModels.cpp - AmpOpInterface models for math --------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ModelSupport.h"
#include "amp/Interfaces/ExternalModels.h"
#include "amp/Target/TargetCapabilities.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

/// Functions that grow fast or amplify input error stay f32, as in the f32
/// lists of PyTorch autocast and TVM; bounded or slowly varying ones follow.
CategoryInfo mathCategory(Operation *op, FloatType lowType) {
  bool f16 = lowType.isF16();
  return llvm::TypeSwitch<Operation *, CategoryInfo>(op)
      .Case<math::ExpOp, math::Exp2Op, math::ExpM1Op>([&](auto) {
        return f16 ? category(Policy::Never,
                              "exp overflows f16 (max 65504) for inputs "
                              "above 11")
                   : category(Policy::Never,
                              "exp turns bf16's input rounding into large "
                              "relative output error");
      })
      .Case<math::PowFOp, math::FPowIOp>([&](auto) {
        return f16 ? category(Policy::Never, "pow overflows f16 quickly")
                   : category(Policy::Never,
                              "pow amplifies bf16's input rounding");
      })
      .Case<math::CoshOp, math::SinhOp>([&](auto) {
        return category(Policy::Never, "grows exponentially like exp");
      })
      .Case<math::LogOp, math::Log2Op, math::Log10Op, math::Log1pOp>([&](auto) {
        return category(Policy::Never,
                        "log of small values loses accuracy in low "
                        "precision (log-probabilities, losses)");
      })
      .Case<math::ErfOp, math::ErfcOp>([&](auto) {
        return category(Policy::Never,
                        "erf's polynomial needs more than 11 bits");
      })
      .Case<math::RsqrtOp>([&](auto) {
        return category(Policy::Never,
                        "rsqrt of normalisation statistics needs f32 "
                        "accuracy");
      })
      .Case<math::TanOp, math::AsinOp, math::AcosOp, math::AsinhOp,
            math::AcoshOp, math::AtanhOp>([&](auto) {
        return category(Policy::Never, "steep near its poles or domain edges");
      })
      .Default([](auto) {
        return category(Policy::Follow,
                        "bounded or slowly varying: accurate in low "
                        "precision");
      });
}

template <typename OpT> struct MathModel : RetypingModel<MathModel<OpT>, OpT> {
  CategoryInfo getDefaultCategory(Operation *op, FloatType lowType) const {
    return mathCategory(op, lowType);
  }
  bool canComputeIn(Operation *op, FloatType type, Attribute target) const {
    TargetOpKind kind =
        isa<math::AbsFOp, math::CopySignOp, math::CeilOp, math::FloorOp,
            math::TruncOp, math::RoundOp, math::RoundEvenOp, math::FmaOp,
            math::ClampFOp, math::IsNaNOp, math::IsInfOp, math::IsFiniteOp,
            math::IsNormalOp>(op)
            ? TargetOpKind::Arithmetic
            : TargetOpKind::Transcendental;
    return targetSupports(target, kind, type);
  }
};

} // namespace

void mlir::amp::registerMathExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *) {
    attachModels<MathModel, math::AbsFOp, math::AcosOp, math::AcoshOp,
                 math::AsinOp, math::AsinhOp, math::AtanOp, math::Atan2Op,
                 math::AtanhOp, math::CbrtOp, math::CeilOp, math::ClampFOp,
                 math::CopySignOp, math::CosOp, math::CoshOp, math::ErfOp,
                 math::ErfcOp, math::ExpOp, math::Exp2Op, math::ExpM1Op,
                 math::FloorOp, math::FmaOp, math::FPowIOp, math::IsFiniteOp,
                 math::IsInfOp, math::IsNaNOp, math::IsNormalOp, math::LogOp,
                 math::Log10Op, math::Log1pOp, math::Log2Op, math::PowFOp,
                 math::RoundEvenOp, math::RoundOp, math::RsqrtOp, math::SinOp,
                 math::SincosOp, math::SinhOp, math::SqrtOp, math::TanOp,
                 math::TanhOp, math::TruncOp>(ctx);
  });
}

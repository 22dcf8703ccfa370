//===- TosaModels.cpp - AmpOpInterface models for tosa --------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ModelSupport.h"
#include "amp/Interfaces/ExternalModels.h"
#include "amp/Target/TargetCapabilities.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

/// Product of the static dimensions `dims` of `type`; kDynamic if any is
/// dynamic.
int64_t productOf(Type type, ArrayRef<int64_t> dims) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return ShapedType::kDynamic;
  int64_t size = 1;
  for (int64_t d : dims) {
    if (d >= shaped.getRank() || shaped.isDynamicDim(d))
      return ShapedType::kDynamic;
    size *= shaped.getDimSize(d);
  }
  return size;
}

AccumulationInfo accumulation(AccumulationKind kind, int64_t size,
                              bool separate,
                              SmallVector<unsigned, 2> results = {}) {
  AccumulationInfo info;
  info.kind = kind;
  info.reductionSize = size;
  info.separateAccumulator = separate;
  info.accumulatorResults = std::move(results);
  return info;
}

CategoryInfo tosaCategory(Operation *op, FloatType lowType) {
  return llvm::TypeSwitch<Operation *, CategoryInfo>(op)
      .Case<tosa::MatMulOp, tosa::Conv2DOp, tosa::Conv3DOp,
            tosa::DepthwiseConv2DOp, tosa::TransposeConv2DOp>([](auto) {
        return category(Policy::Allow,
                        "contraction: low-precision inputs, accumulator kept "
                        "in the accumulate type");
      })
      .Case<tosa::AvgPool2dOp>([](auto) {
        return category(Policy::Never,
                        "average pool sums its window: accurate only with a "
                        "wide accumulator");
      })
      .Case<tosa::ReduceSumOp>([](auto) {
        return category(Policy::Never,
                        "sum reduction loses accuracy in low precision");
      })
      .Case<tosa::ReduceProductOp>([](auto) {
        return category(Policy::Never, "products overflow and lose accuracy");
      })
      .Case<tosa::MaxPool2dOp, tosa::ReduceMaxOp, tosa::ReduceMinOp>([](auto) {
        return category(Policy::Follow,
                        "max/min reduction is exact in low precision");
      })
      .Case<tosa::ExpOp>([&](auto) {
        return lowType.isF16()
                   ? category(Policy::Never,
                              "exp overflows f16 (max 65504) for inputs "
                              "above 11")
                   : category(Policy::Never,
                              "exp turns bf16's input rounding into large "
                              "relative output error");
      })
      .Case<tosa::LogOp>([](auto) {
        return category(Policy::Never,
                        "log of small values loses accuracy in low "
                        "precision");
      })
      .Case<tosa::PowOp>(
          [](auto) { return category(Policy::Never, "pow overflows quickly"); })
      .Case<tosa::ErfOp>([](auto) {
        return category(Policy::Never,
                        "erf's polynomial needs more than 11 bits");
      })
      .Case<tosa::RsqrtOp>([](auto) {
        return category(Policy::Never,
                        "rsqrt of normalisation statistics needs f32 "
                        "accuracy");
      })
      .Case<tosa::ReciprocalOp>([&](auto) {
        return lowType.isF16()
                   ? category(Policy::Never,
                              "reciprocal overflows f16 for |x| < 1.5e-5")
                   : category(Policy::Follow,
                              "bf16 has f32's range: reciprocal cannot "
                              "overflow");
      })
      .Case<tosa::FFT2dOp, tosa::RFFT2dOp>([](auto) {
        return category(Policy::Never, "an FFT sums the whole signal");
      })
      .Case<tosa::CustomOp, tosa::VariableOp, tosa::VariableReadOp,
            tosa::VariableWriteOp>([](auto) {
        return category(Policy::Never,
                        "opaque or stateful: its types are fixed");
      })
      .Case<tosa::AbsOp, tosa::AddOp, tosa::SubOp, tosa::MulOp, tosa::MaximumOp,
            tosa::MinimumOp, tosa::NegateOp, tosa::CeilOp, tosa::FloorOp,
            tosa::ClampOp, tosa::SigmoidOp, tosa::TanhOp, tosa::SelectOp,
            tosa::EqualOp, tosa::GreaterOp, tosa::GreaterEqualOp, tosa::CosOp,
            tosa::SinOp, tosa::ResizeOp, tosa::ArgMaxOp>(
          [](auto) { return followsElementwise(); })
      .Case<tosa::CastOp>([](auto) {
        return category(Policy::Follow,
                        "a cast: amp decides around it, its types stay");
      })
      .Case<tosa::IfOp, tosa::WhileOp, tosa::YieldOp>(
          [](auto) { return followsStructure(); })
      .Default([](auto) { return followsDataMovement(); });
}

std::optional<AccumulationInfo> tosaAccumulation(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<AccumulationInfo>>(op)
      .Case<tosa::MatMulOp>([](tosa::MatMulOp mm) {
        // [N, H, C] x [N, C, W]: each output sums C products; the result
        // may be f32 with f16/bf16 inputs.
        return accumulation(AccumulationKind::Sum,
                            productOf(mm.getA().getType(), {2}), true, {0});
      })
      .Case<tosa::Conv2DOp, tosa::TransposeConv2DOp>([](auto conv) {
        // Weights [OC, KH, KW, IC]; the accumulator is internal (acc_type).
        return accumulation(AccumulationKind::Sum,
                            productOf(conv.getWeight().getType(), {1, 2, 3}),
                            true);
      })
      .Case<tosa::Conv3DOp>([](tosa::Conv3DOp conv) {
        return accumulation(AccumulationKind::Sum,
                            productOf(conv.getWeight().getType(), {1, 2, 3, 4}),
                            true);
      })
      .Case<tosa::DepthwiseConv2DOp>([](tosa::DepthwiseConv2DOp conv) {
        // Weights [KH, KW, C, M].
        return accumulation(AccumulationKind::Sum,
                            productOf(conv.getWeight().getType(), {0, 1}),
                            true);
      })
      .Case<tosa::AvgPool2dOp>([](tosa::AvgPool2dOp pool) {
        ArrayRef<int64_t> k = pool.getKernel();
        return accumulation(AccumulationKind::Sum, k[0] * k[1], true);
      })
      .Case<tosa::MaxPool2dOp>([](tosa::MaxPool2dOp pool) {
        ArrayRef<int64_t> k = pool.getKernel();
        return accumulation(AccumulationKind::Max, k[0] * k[1], false);
      })
      .Case<tosa::ReduceSumOp, tosa::ReduceProductOp, tosa::ReduceMaxOp,
            tosa::ReduceMinOp>([](auto reduce) {
        AccumulationKind kind =
            llvm::TypeSwitch<Operation *, AccumulationKind>(reduce)
                .template Case<tosa::ReduceSumOp>(
                    [](auto) { return AccumulationKind::Sum; })
                .template Case<tosa::ReduceProductOp>(
                    [](auto) { return AccumulationKind::Product; })
                .template Case<tosa::ReduceMaxOp>(
                    [](auto) { return AccumulationKind::Max; })
                .Default([](auto) { return AccumulationKind::Min; });
        // The result has the input's element type: no wide accumulator.
        return accumulation(kind,
                            productOf(reduce.getInput().getType(),
                                      {static_cast<int64_t>(reduce.getAxis())}),
                            false, {0});
      })
      .Default([](auto) { return std::nullopt; });
}

TargetOpKind tosaTargetKind(Operation *op) {
  if (isa<tosa::MatMulOp, tosa::Conv2DOp, tosa::Conv3DOp,
          tosa::DepthwiseConv2DOp, tosa::TransposeConv2DOp>(op))
    return TargetOpKind::Contraction;
  if (isa<tosa::ExpOp, tosa::LogOp, tosa::PowOp, tosa::ErfOp, tosa::RsqrtOp,
          tosa::SigmoidOp, tosa::TanhOp, tosa::SinOp, tosa::CosOp>(op))
    return TargetOpKind::Transcendental;
  if (tosaCategory(op, Float16Type::get(op->getContext())).reason ==
      followsDataMovement().reason)
    return TargetOpKind::Storage;
  return TargetOpKind::Arithmetic;
}

/// Every tosa op: categories and accumulation from the tables above; the
/// rewrite retypes float operands (including zero points and pad values),
/// results and scalar attributes, and sets acc_type / a wide matmul result.
template <typename OpT>
struct TosaModel : AmpOpInterface::ExternalModel<TosaModel<OpT>, OpT> {
  CategoryInfo getDefaultCategory(Operation *op, FloatType lowType) const {
    return tosaCategory(op, lowType);
  }
  std::optional<AccumulationInfo> getAccumulation(Operation *op) const {
    return tosaAccumulation(op);
  }
  // A cast's types are what the cast is for: narrowing its input first would
  // change its result (an f32 -> i32 cast through f16 saturates at 65504).
  bool isDataOperand(Operation *op, unsigned index) const {
    return !isa<tosa::CastOp>(op) &&
           amp::detail::isFloatData(op->getOperand(index).getType());
  }
  bool isDataResult(Operation *op, unsigned index) const {
    return !isa<tosa::CastOp>(op) &&
           amp::detail::isFloatData(op->getResult(index).getType());
  }
  bool canComputeIn(Operation *op, FloatType type, Attribute target) const {
    return targetSupports(target, tosaTargetKind(op), type);
  }
  std::optional<std::string> getRewriteBlocker(Operation *op, FloatType,
                                               FloatType) const {
    if (isa<tosa::CastOp, tosa::CustomOp, tosa::VariableOp,
            tosa::VariableReadOp, tosa::VariableWriteOp>(op))
      return std::string("types are fixed");
    return std::nullopt;
  }
  FailureOr<Operation *> convertToPrecision(Operation *op,
                                            RewriterBase &rewriter,
                                            FloatType lowType,
                                            FloatType accType) const {
    if (isa<tosa::CastOp, tosa::CustomOp, tosa::VariableOp,
            tosa::VariableReadOp, tosa::VariableWriteOp>(op))
      return rewriter.notifyMatchFailure(op, "types are fixed");
    SmallVector<Type> operandTypes, resultTypes;
    getRetypedTypes(op, lowType, operandTypes, resultTypes);
    // TOSA accumulates bf16 only in f32.
    FloatType wideAcc =
        lowType.isBF16() ? Float32Type::get(op->getContext()) : accType;
    if (isa<tosa::MatMulOp>(op))
      resultTypes[0] = withFloatElementType(resultTypes[0], wideAcc);
    FailureOr<Operation *> converted =
        convertByRetypingWith(rewriter, op, operandTypes, resultTypes, lowType);
    if (failed(converted))
      return failure();
    if ((*converted)->hasAttr("acc_type"))
      rewriter.modifyOpInPlace(*converted, [&] {
        (*converted)->setAttr("acc_type", TypeAttr::get(wideAcc));
      });
    return converted;
  }
};

} // namespace

void mlir::amp::registerTosaExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tosa::TosaDialect *) {
    attachModels<
        TosaModel, tosa::AbsOp, tosa::AddOp, tosa::ArgMaxOp, tosa::AvgPool2dOp,
        tosa::CastOp, tosa::CeilOp, tosa::ClampOp, tosa::ConcatOp,
        tosa::ConstOp, tosa::Conv2DOp, tosa::Conv3DOp, tosa::CosOp,
        tosa::CustomOp, tosa::DepthwiseConv2DOp, tosa::EqualOp, tosa::ErfOp,
        tosa::ExpOp, tosa::FFT2dOp, tosa::FloorOp, tosa::GatherOp,
        tosa::GreaterEqualOp, tosa::GreaterOp, tosa::IdentityOp, tosa::IfOp,
        tosa::LogOp, tosa::MatMulOp, tosa::MaxPool2dOp, tosa::MaximumOp,
        tosa::MinimumOp, tosa::MulOp, tosa::NegateOp, tosa::PadOp, tosa::PowOp,
        tosa::RFFT2dOp, tosa::ReciprocalOp, tosa::ReduceMaxOp,
        tosa::ReduceMinOp, tosa::ReduceProductOp, tosa::ReduceSumOp,
        tosa::ReshapeOp, tosa::ResizeOp, tosa::ReverseOp, tosa::RsqrtOp,
        tosa::ScatterOp, tosa::SelectOp, tosa::SigmoidOp, tosa::SinOp,
        tosa::SliceOp, tosa::SubOp, tosa::TanhOp, tosa::TileOp,
        tosa::TransposeConv2DOp, tosa::TransposeOp, tosa::VariableOp,
        tosa::VariableReadOp, tosa::VariableWriteOp, tosa::WhileOp,
        tosa::YieldOp>(ctx);
  });
}

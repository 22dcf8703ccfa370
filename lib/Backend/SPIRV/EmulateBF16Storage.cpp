//===- EmulateBF16Storage.cpp - bf16 as i16 storage with f32 arithmetic ---===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// GPU kernels for targets without bf16 keep bf16 data in memory as i16 and
// compute in f32. Three conversions, each over every gpu.module:
//   1. bf16 arith and math ops to f32 with extf/truncf around them (upstream
//      patterns);
//   2. bf16 to i16 everywhere, with exact bit-level extf/truncf;
//   3. the launches of changed kernels cast their bf16 buffers to i16.
//
// Why not upstream's arith::populateExpandBFloat16Patterns: they expand
// extf/truncf into integer code but keep bf16-typed values (bitcasts from
// and to i16), and SPIR-V has no bf16 type at all: here every bf16 value,
// buffer and kernel argument must become i16. The conversions are the
// same round-to-nearest-even; NaNs keep their sign and payload (quieted)
// where upstream returns one canonical NaN.
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/SPIRV/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_EMULATEBF16STORAGE
#include "amp/Backend/SPIRV/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// `type` with its element type (or itself, for a scalar) replaced by `elem`.
static Type withElementType(Type type, Type elem) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(elem);
  return elem;
}

static bool isBF16(Type type) {
  return isa<BFloat16Type>(getElementTypeOrSelf(type));
}

/// An integer constant of `type` (scalar or vector of iN) with `value`.
static Value intConstant(OpBuilder &b, Location loc, Type type,
                         uint64_t value) {
  Type elem = getElementTypeOrSelf(type);
  auto attr = IntegerAttr::get(elem, value);
  if (auto vec = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vec, attr));
  return arith::ConstantOp::create(b, loc, attr);
}

namespace {
/// bf16 -> i16 (with the same shape) and memrefs of bf16 -> memrefs of i16.
struct BF16StorageTypeConverter : TypeConverter {
  BF16StorageTypeConverter(MLIRContext *ctx) {
    Type i16 = IntegerType::get(ctx, 16);
    addConversion([](Type type) { return type; });
    addConversion([i16](Type type) -> std::optional<Type> {
      if (isa<BFloat16Type, VectorType, MemRefType>(type) && isBF16(type))
        return withElementType(type, i16);
      return std::nullopt;
    });
  }
};

/// extf from bf16 bits: the 16 bits are the high half of the f32.
struct ExtFPattern : OpConversionPattern<arith::ExtFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ExtFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isBF16(op.getIn().getType()))
      return rewriter.notifyMatchFailure(op, "not an extension from bf16");
    Location loc = op.getLoc();
    Type i32 = withElementType(op.getType(), rewriter.getI32Type());
    Type f32 = withElementType(op.getType(), rewriter.getF32Type());
    Value wide = arith::ExtUIOp::create(rewriter, loc, i32, adaptor.getIn());
    Value bits = arith::ShLIOp::create(rewriter, loc, wide,
                                       intConstant(rewriter, loc, i32, 16));
    Value result = arith::BitcastOp::create(rewriter, loc, f32, bits);
    if (f32 != op.getType())
      result = arith::ExtFOp::create(rewriter, loc, op.getType(), result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// truncf to bf16 bits: round to nearest, ties to even, on the f32 bits; a
/// NaN keeps its sign and leading payload bits and becomes quiet.
struct TruncFPattern : OpConversionPattern<arith::TruncFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isBF16(op.getType()))
      return rewriter.notifyMatchFailure(op, "not a truncation to bf16");
    // From f64, rounding through f32 would round twice.
    if (!getElementTypeOrSelf(op.getIn().getType()).isF32())
      return rewriter.notifyMatchFailure(op, "only f32 -> bf16 is exact");
    if (op.getRoundingmodeAttr())
      return rewriter.notifyMatchFailure(op, "only the default rounding");
    Location loc = op.getLoc();
    Type i32 = withElementType(op.getType(), rewriter.getI32Type());
    Type i16 = withElementType(op.getType(), rewriter.getI16Type());
    auto c = [&](uint64_t v) { return intConstant(rewriter, loc, i32, v); };
    Value bits = arith::BitcastOp::create(rewriter, loc, i32, adaptor.getIn());
    Value high = arith::ShRUIOp::create(rewriter, loc, bits, c(16));
    // Ties to even: add 0x7fff plus the lowest kept bit, then drop 16 bits.
    // Finite values and infinities never carry out of bit 31.
    Value lsb = arith::AndIOp::create(rewriter, loc, high, c(1));
    Value bias = arith::AddIOp::create(rewriter, loc, lsb, c(0x7fff));
    Value sum = arith::AddIOp::create(rewriter, loc, bits, bias);
    Value rounded = arith::ShRUIOp::create(rewriter, loc, sum, c(16));
    // NaN: magnitude above infinity's bits; quiet bit set on the high half.
    Value magnitude = arith::AndIOp::create(rewriter, loc, bits, c(0x7fffffff));
    Value isNaN = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ugt, magnitude, c(0x7f800000));
    Value quiet = arith::OrIOp::create(rewriter, loc, high, c(0x40));
    Value result =
        arith::SelectOp::create(rewriter, loc, isNaN, quiet, rounded);
    rewriter.replaceOpWithNewOp<arith::TruncIOp>(op, i16, result);
    return success();
  }
};

/// bf16 constants become i16 constants of the same bits.
struct ConstantPattern : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type || type == op.getType())
      return rewriter.notifyMatchFailure(op, "no bf16 to convert");
    TypedAttr value;
    if (auto f = dyn_cast<FloatAttr>(op.getValue()))
      value = IntegerAttr::get(type, f.getValue().bitcastToAPInt());
    else if (auto dense = dyn_cast<DenseElementsAttr>(op.getValue()))
      value = dense.bitcast(getElementTypeOrSelf(type));
    if (!value)
      return rewriter.notifyMatchFailure(op, "unsupported bf16 constant");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, value);
    return success();
  }
};

/// arith.bitcast between i16 and bf16 is the identity on the i16 bits.
struct BitcastPattern : OpConversionPattern<arith::BitcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::BitcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    if (type == adaptor.getIn().getType()) {
      rewriter.replaceOp(op, adaptor.getIn());
      return success();
    }
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, type, adaptor.getIn());
    return success();
  }
};

/// Ops that only move values are retyped as they are: memory accesses,
/// views and allocations, selects, calls and returns.
struct MoveDataPattern : ConversionPattern {
  MoveDataPattern(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    bool movesData =
        (isa<memref::MemRefDialect>(op->getDialect()) &&
         !isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(op)) ||
        isa<arith::SelectOp, func::CallOp, func::ReturnOp, gpu::ReturnOp,
            vector::LoadOp, vector::StoreOp, vector::BroadcastOp,
            vector::ExtractOp, vector::InsertOp, vector::ShapeCastOp,
            vector::TransferReadOp, vector::TransferWriteOp>(op);
    if (!movesData || op->getNumRegions() != 0)
      return rewriter.notifyMatchFailure(op, "not a data movement op");
    FailureOr<Operation *> converted =
        convertOpResultTypes(op, operands, *getTypeConverter(), rewriter);
    if (failed(converted))
      return failure();
    rewriter.replaceOp(op, (*converted)->getResults());
    return success();
  }
};

struct EmulateBF16Storage
    : amp::impl::EmulateBF16StorageBase<EmulateBF16Storage> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// Step 1: bf16 arithmetic and math in f32, rounded to bf16 after each op.
static LogicalResult computeInF32(Operation *root) {
  MLIRContext *ctx = root->getContext();
  Type bf16 = BFloat16Type::get(ctx), f32 = Float32Type::get(ctx);
  {
    TypeConverter converter;
    arith::populateEmulateUnsupportedFloatsConversions(converter, {bf16}, f32);
    RewritePatternSet patterns(ctx);
    arith::populateEmulateUnsupportedFloatsPatterns(patterns, converter);
    ConversionTarget target(*ctx);
    arith::populateEmulateUnsupportedFloatsLegality(target, converter);
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      return failure();
  }
  // Every float type but bf16 stays as it is (f16 math is supported).
  SetVector<Type> supported;
  root->walk([&](Operation *op) {
    for (Type t :
         llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
      if (auto f = dyn_cast<FloatType>(getElementTypeOrSelf(t)))
        if (!isa<BFloat16Type>(f))
          supported.insert(f);
  });
  supported.insert(f32);
  TypeConverter converter;
  math::populateExtendToSupportedTypesTypeConverter(converter, supported, f32);
  RewritePatternSet patterns(ctx);
  math::populateExtendToSupportedTypesPatterns(patterns, converter);
  ConversionTarget target(*ctx);
  math::populateExtendToSupportedTypesConversionTarget(target, converter);
  if (failed(applyPartialConversion(root, target, std::move(patterns))))
    return failure();
  // The upstream patterns mark their casts `contract`, which lets
  // extf(truncf(x)) fold to x and skip a rounding the bf16 program does.
  root->walk([](arith::ExtFOp op) {
    if (isBF16(op.getIn().getType()))
      op.setFastmath(arith::FastMathFlags::none);
  });
  root->walk([](arith::TruncFOp op) {
    if (isBF16(op.getType()))
      op.setFastmath(arith::FastMathFlags::none);
  });
  return success();
}

/// Step 2: no bf16 type left; casts, constants and data movement on i16.
static LogicalResult storeAsI16(Operation *root) {
  MLIRContext *ctx = root->getContext();
  BF16StorageTypeConverter converter(ctx);
  RewritePatternSet patterns(ctx);
  patterns.add<ExtFPattern, TruncFPattern, ConstantPattern, BitcastPattern,
               MoveDataPattern>(converter, ctx);
  ConversionTarget target(*ctx);
  target.markUnknownOpDynamicallyLegal([&](Operation *op) {
    if (auto func = dyn_cast<FunctionOpInterface>(op))
      return converter.isLegal(func.getArgumentTypes()) &&
             converter.isLegal(func.getResultTypes());
    return converter.isLegal(op);
  });
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  populateFunctionOpInterfaceTypeConversionPattern<gpu::GPUFuncOp>(patterns,
                                                                   converter);
  populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                 converter);
  return applyPartialConversion(root, target, std::move(patterns));
}

void EmulateBF16Storage::runOnOperation() {
  ModuleOp module = getOperation();
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
    bool hasBF16 = false;
    gpuModule.walk([&](Operation *op) {
      auto types =
          llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes());
      hasBF16 |= llvm::any_of(types, isBF16);
      if (auto func = dyn_cast<FunctionOpInterface>(op))
        hasBF16 |= llvm::any_of(func.getArgumentTypes(), isBF16);
    });
    if (!hasBF16)
      continue;
    if (failed(computeInF32(gpuModule)) || failed(storeAsI16(gpuModule))) {
      gpuModule.emitError("cannot make bf16 storage-only in this gpu.module");
      return signalPassFailure();
    }
  }

  // Step 3: launches pass bf16 buffers (and scalars) as their i16 bits.
  WalkResult walk = module.walk([&](gpu::LaunchFuncOp launch) {
    auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
        launch, launch.getKernel());
    if (!kernel)
      return WalkResult::advance();
    OpBuilder b(launch);
    for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
      Value operand = launch.getKernelOperand(i);
      if (operand.getType() == type)
        continue;
      if (!isBF16(operand.getType())) {
        launch.emitOpError("argument ") << i << " does not match its kernel";
        return WalkResult::interrupt();
      }
      Value cast =
          isa<MemRefType>(type)
              ? UnrealizedConversionCastOp::create(b, launch.getLoc(), type,
                                                   operand)
                    .getResult(0)
              : arith::BitcastOp::create(b, launch.getLoc(), type, operand)
                    .getResult();
      launch.setOperand(launch.getKernelOperands().getBeginOperandIndex() + i,
                        cast);
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    signalPassFailure();
}

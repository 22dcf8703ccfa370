//===- AmpOpInterface.cpp - The contract between ops and amp --------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The interface's generated code, the query functions that answer for any op
// (with or without a model), the trait-based defaults, and the retyping
// helpers models share.
//
//===----------------------------------------------------------------------===//

#include "amp/Interfaces/AmpOpInterface.h"
#include "amp/Support/FloatConversion.h"
#include "amp/Target/TargetCapabilities.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::amp;

/// Reasons of trait-based categories that compute nothing.
static constexpr llvm::StringLiteral kNoFloatData = "no floating-point data";
static constexpr llvm::StringLiteral kForwardsValues =
    "moves or forwards values without arithmetic";

#include "amp/Interfaces/AmpOpInterface.cpp.inc"

StringRef mlir::amp::stringifyAccumulationKind(AccumulationKind kind) {
  switch (kind) {
  case AccumulationKind::Sum:
    return "sum";
  case AccumulationKind::Product:
    return "product";
  case AccumulationKind::Max:
    return "max";
  case AccumulationKind::Min:
    return "min";
  case AccumulationKind::Other:
    return "other";
  }
  llvm_unreachable("unknown accumulation kind");
}

//===----------------------------------------------------------------------===//
// Types and attributes
//===----------------------------------------------------------------------===//

FloatType mlir::amp::getFloatElementType(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return dyn_cast<FloatType>(complex.getElementType());
  if (auto shaped = dyn_cast<ShapedType>(type))
    return getFloatElementType(shaped.getElementType());
  return dyn_cast<FloatType>(type);
}

bool mlir::amp::detail::isFloatData(Type type) {
  return static_cast<bool>(getFloatElementType(type));
}

SmallVector<FunctionOpInterface> mlir::amp::getFunctions(Operation *root) {
  SmallVector<FunctionOpInterface> functions;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      functions.push_back(func);
      return WalkResult::skip();
    }
    return isa<linalg::LinalgOp>(op) ? WalkResult::skip()
                                     : WalkResult::advance();
  });
  return functions;
}

unsigned mlir::amp::detail::numDpsInputs(Operation *op) {
  // On tensors, the verifier of destination-style ops guarantees one result
  // per init; an op with a buffer operand may mix buffer inits in.
  if (op->getNumResults() != 0 &&
      llvm::none_of(op->getOperandTypes(), llvm::IsaPred<BaseMemRefType>))
    return op->getNumOperands() - op->getNumResults();
  return cast<DestinationStyleOpInterface>(op).getNumDpsInputs();
}

Type mlir::amp::withFloatElementType(Type type, FloatType elementType) {
  if (isa<FloatType>(type))
    return elementType;
  if (auto complex = dyn_cast<ComplexType>(type)) {
    if (isa<FloatType>(complex.getElementType()))
      return ComplexType::get(elementType);
    return type;
  }
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    Type element = shaped.getElementType();
    if (isa<FloatType, ComplexType>(element))
      return shaped.clone(withFloatElementType(element, elementType));
  }
  return type;
}

bool mlir::amp::canCreateFloatCast(Type from, Type to) {
  if (from == to)
    return true;
  // Complex scalars are cast part by part.
  if (auto fromComplex = dyn_cast<ComplexType>(from))
    if (auto toComplex = dyn_cast<ComplexType>(to))
      return isa<FloatType>(fromComplex.getElementType()) &&
             isa<FloatType>(toComplex.getElementType());
  // Ranked tensors of complex values are cast element by element in a
  // linalg.generic.
  if (auto fromTensor = dyn_cast<RankedTensorType>(from))
    if (auto toTensor = dyn_cast<RankedTensorType>(to))
      if (isa<ComplexType>(fromTensor.getElementType()) ||
          isa<ComplexType>(toTensor.getElementType()))
        return fromTensor.getShape() == toTensor.getShape() &&
               fromTensor.getEncoding() == toTensor.getEncoding() &&
               canCreateFloatCast(fromTensor.getElementType(),
                                  toTensor.getElementType());
  // arith casts apply elementwise to scalars, vectors and ranked tensors
  // only.
  auto isCastable = [](Type t) {
    return isa<FloatType>(t) || (isa<VectorType, RankedTensorType>(t) &&
                                 isa<FloatType>(getElementTypeOrSelf(t)));
  };
  if (!isCastable(from) || !isCastable(to))
    return false;
  if (auto fromShaped = dyn_cast<ShapedType>(from)) {
    auto toShaped = dyn_cast<ShapedType>(to);
    return toShaped && fromShaped.clone(toShaped.getElementType()) == to &&
           fromShaped.getTypeID() == toShaped.getTypeID();
  }
  return !isa<ShapedType>(to);
}

/// A tensor of complex values cast part by part, element by element; a
/// constant is converted at compile time.
static Value createComplexTensorCast(OpBuilder &builder, Location loc,
                                     Value value, RankedTensorType type) {
  Attribute constant;
  if (matchPattern(value, m_Constant(&constant)))
    if (FailureOr<Attribute> converted =
            convertFloatAttr(constant, getFloatElementType(type));
        succeeded(converted))
      return arith::ConstantOp::create(builder, loc,
                                       cast<TypedAttr>(*converted));
  return createElementwiseMap(
      builder, loc, value, type, [&](OpBuilder &b, Location l, Value element) {
        return createFloatCast(b, l, element, type.getElementType());
      });
}

Value mlir::amp::createElementwiseMap(
    OpBuilder &builder, Location loc, Value value, RankedTensorType resultType,
    function_ref<Value(OpBuilder &, Location, Value)> body) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0, e = type.getRank(); d < e; ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(tensor::DimOp::create(builder, loc, value, d));
  Value init = tensor::EmptyOp::create(builder, loc, resultType, sizes);
  AffineMap id = builder.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      builder, loc, TypeRange{resultType}, ValueRange{value}, ValueRange{init},
      ArrayRef<AffineMap>{id, id}, iterators,
      [&](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(b, l, body(b, l, args[0]));
      });
  return generic->getResult(0);
}

Value mlir::amp::createFloatCast(OpBuilder &builder, Location loc, Value value,
                                 Type type) {
  Type from = value.getType();
  if (from == type)
    return value;
  if (!canCreateFloatCast(from, type))
    return {};
  if (auto toComplex = dyn_cast<ComplexType>(type)) {
    auto part = cast<FloatType>(toComplex.getElementType());
    Value re = complex::ReOp::create(builder, loc, value);
    Value im = complex::ImOp::create(builder, loc, value);
    return complex::CreateOp::create(builder, loc, type,
                                     createFloatCast(builder, loc, re, part),
                                     createFloatCast(builder, loc, im, part));
  }
  if (auto tensor = dyn_cast<RankedTensorType>(type);
      tensor && isa<ComplexType>(tensor.getElementType()))
    return createComplexTensorCast(builder, loc, value, tensor);
  auto fromElt = cast<FloatType>(getElementTypeOrSelf(from));
  auto toElt = cast<FloatType>(getElementTypeOrSelf(type));
  // A constant is converted at compile time, never cast at run time.
  Attribute constant;
  if (matchPattern(value, m_Constant(&constant)))
    if (FailureOr<Attribute> converted = convertFloatAttr(constant, toElt);
        succeeded(converted))
      return arith::ConstantOp::create(builder, loc,
                                       cast<TypedAttr>(*converted));
  if (fromElt.getWidth() < toElt.getWidth())
    return arith::ExtFOp::create(builder, loc, type, value);
  if (fromElt.getWidth() > toElt.getWidth())
    return arith::TruncFOp::create(builder, loc, type, value);
  // Same width, different formats (f16 <-> bf16): go through f32.
  Type wide = withFloatElementType(from, Float32Type::get(type.getContext()));
  Value ext = arith::ExtFOp::create(builder, loc, wide, value);
  return arith::TruncFOp::create(builder, loc, type, ext);
}

SmallVector<Value> mlir::amp::createOperandCasts(OpBuilder &builder,
                                                 Location loc,
                                                 ValueRange values,
                                                 TypeRange types) {
  // One cast per value and type, however often the op uses the value.
  llvm::SmallDenseMap<std::pair<Value, Type>, Value> casts;
  SmallVector<Value> result;
  for (auto [value, type] : llvm::zip(values, types)) {
    Value &cast = casts[{value, type}];
    if (!cast)
      cast = createFloatCast(builder, loc, value, type);
    result.push_back(cast);
  }
  return result;
}

void mlir::amp::eraseUnusedCasts(RewriterBase &rewriter, ValueRange values) {
  for (Value v : values)
    if (Operation *def = v.getDefiningOp())
      if (isa<arith::ExtFOp, arith::TruncFOp>(def) && def->use_empty()) {
        Value source = def->getOperand(0);
        rewriter.eraseOp(def);
        // A same-width cast goes through f32: erase both halves.
        eraseUnusedCasts(rewriter, source);
      }
}

/// Converts one value, reporting overflow of a finite value as failure and
/// counting nonzero values that flush to zero.
static FailureOr<APFloat> convertAPFloat(APFloat value, FloatType type,
                                         unsigned &nonzero, unsigned &flushed) {
  bool wasFinite = value.isFinite();
  bool wasNonzero = !value.isZero();
  bool losesInfo = false;
  value.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  if (wasFinite && !value.isFinite())
    return failure();
  nonzero += wasNonzero;
  flushed += wasNonzero && value.isZero();
  return value;
}

/// Most nonzero values lost to underflow: the constant would mean something
/// else in the low type.
static bool mostlyFlushed(uint64_t nonzero, uint64_t flushed) {
  return flushed > 0 && 2 * flushed > nonzero;
}

/// The elements of a dense attribute of 16- or 32-bit elements, as bits.
template <typename T>
static ArrayRef<T> getRawElements(DenseElementsAttr dense,
                                  SmallVectorImpl<T> &copy) {
  ArrayRef<char> raw = dense.getRawData();
  size_t count = raw.size() / sizeof(T);
  if (reinterpret_cast<uintptr_t>(raw.data()) % alignof(T) == 0)
    return ArrayRef(reinterpret_cast<const T *>(raw.data()), count);
  copy.resize(count);
  std::memcpy(copy.data(), raw.data(), count * sizeof(T));
  return copy;
}

/// The narrow format of a 16-bit float type (f16, bf16).
static std::optional<NarrowFloat> getNarrowFloat(Type type) {
  if (type.isF16())
    return NarrowFloat::F16;
  if (type.isBF16())
    return NarrowFloat::BF16;
  return std::nullopt;
}

/// The f32 values of a dense attribute as bits, and the narrow format of
/// `elementType`, where the raw-buffer path applies: f32 to f16 or bf16.
static std::optional<std::pair<ArrayRef<uint32_t>, NarrowFloat>>
getNarrowableF32Data(DenseFPElementsAttr dense, FloatType elementType,
                     SmallVectorImpl<uint32_t> &copy) {
  std::optional<NarrowFloat> to = getNarrowFloat(elementType);
  if (!dense.getElementType().isF32() || !to)
    return std::nullopt;
  return std::make_pair(getRawElements<uint32_t>(dense, copy), *to);
}

/// Whether narrowed values keep their meaning: no overflow, most nonzero
/// values still nonzero.
static bool keepsMeaning(const NarrowingStats &stats) {
  return stats.overflowed == 0 && !mostlyFlushed(stats.nonzero, stats.flushed);
}

std::optional<std::pair<double, double>>
mlir::amp::getFloatDataBounds(DenseElementsAttr dense) {
  Type element = dense.getElementType();
  if (dense.empty())
    return std::nullopt;
  if (element.isF32()) {
    SmallVector<uint32_t> copy;
    auto [lo, hi] = getF32Bounds(getRawElements<uint32_t>(dense, copy));
    return std::make_pair(double(lo), double(hi));
  }
  if (std::optional<NarrowFloat> narrow = getNarrowFloat(element)) {
    SmallVector<uint16_t> copy;
    ArrayRef<uint16_t> bits = getRawElements<uint16_t>(dense, copy);
    std::vector<uint32_t> wide(bits.size());
    widenToF32Buffer(bits, wide, *narrow);
    auto [lo, hi] = getF32Bounds(wide);
    return std::make_pair(double(lo), double(hi));
  }
  return std::nullopt;
}

DenseElementsAttr mlir::amp::roundFloatData(DenseFPElementsAttr dense,
                                            FloatType elementType) {
  Type from = dense.getElementType();
  ShapedType type = dense.getType().clone(elementType);
  std::optional<NarrowFloat> to = getNarrowFloat(elementType);
  if (from.isF32() && to) {
    SmallVector<uint32_t> copy;
    ArrayRef<uint32_t> bits = getRawElements<uint32_t>(dense, copy);
    std::vector<uint16_t> narrow(bits.size());
    (void)narrowF32Buffer(bits, narrow, *to, elementType.getContext());
    return DenseElementsAttr::getFromRawBuffer(
        type, ArrayRef(reinterpret_cast<const char *>(narrow.data()),
                       narrow.size() * sizeof(uint16_t)));
  }
  std::optional<NarrowFloat> narrowFrom = getNarrowFloat(from);
  if (narrowFrom && elementType.isF32()) {
    SmallVector<uint16_t> copy;
    ArrayRef<uint16_t> bits = getRawElements<uint16_t>(dense, copy);
    std::vector<uint32_t> wide(bits.size());
    widenToF32Buffer(bits, wide, *narrowFrom);
    return DenseElementsAttr::getFromRawBuffer(
        type, ArrayRef(reinterpret_cast<const char *>(wide.data()),
                       wide.size() * sizeof(uint32_t)));
  }
  return dense.mapValues(elementType, [&](const APFloat &value) {
    APFloat v = value;
    bool losesInfo;
    v.convert(elementType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
              &losesInfo);
    return v.bitcastToAPInt();
  });
}

bool mlir::amp::fitsFloatType(Attribute attr, FloatType elementType) {
  auto dense = dyn_cast<DenseFPElementsAttr>(attr);
  if (!dense || dense.getElementType() == elementType)
    return succeeded(convertFloatAttr(attr, elementType));
  SmallVector<uint32_t> copy;
  auto data = getNarrowableF32Data(dense, elementType, copy);
  if (!data)
    return succeeded(convertFloatAttr(attr, elementType));
  // Converted in chunks that are thrown away: no attribute is built.
  constexpr size_t chunk = 1 << 16;
  SmallVector<uint16_t> scratch(std::min(chunk, data->first.size()));
  NarrowingStats stats;
  for (size_t i = 0; i < data->first.size(); i += chunk) {
    ArrayRef<uint32_t> part =
        data->first.slice(i, std::min(chunk, data->first.size() - i));
    stats.add(narrowF32Buffer(
        part, MutableArrayRef(scratch).take_front(part.size()), data->second));
    if (stats.overflowed)
      return false;
  }
  return keepsMeaning(stats);
}

bool mlir::amp::isF32DataAttr(Attribute attr) {
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getType().isF32();
  auto dense = dyn_cast<DenseFPElementsAttr>(attr);
  return dense && dense.getElementType().isF32();
}

bool mlir::amp::isFloatDataAttr(Attribute attr) {
  if (isa<FloatAttr>(attr))
    return true;
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  return dense && getFloatElementType(dense.getElementType());
}

FailureOr<Attribute> mlir::amp::convertFloatAttr(Attribute attr,
                                                 FloatType elementType) {
  if (auto floatAttr = dyn_cast<FloatAttr>(attr)) {
    if (floatAttr.getType() == elementType)
      return attr;
    unsigned nonzero = 0, flushed = 0;
    FailureOr<APFloat> v =
        convertAPFloat(floatAttr.getValue(), elementType, nonzero, flushed);
    if (failed(v) || mostlyFlushed(nonzero, flushed))
      return failure();
    return Attribute(FloatAttr::get(elementType, *v));
  }
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr)) {
    if (dense.getElementType() == elementType)
      return attr;
    // f32 to f16/bf16 on the raw buffer (bit for bit what APFloat gives),
    // on the context's threads for large constants.
    SmallVector<uint32_t> copy;
    if (auto data = getNarrowableF32Data(dense, elementType, copy)) {
      std::vector<uint16_t> narrow(data->first.size());
      NarrowingStats stats = narrowF32Buffer(data->first, narrow, data->second,
                                             elementType.getContext());
      if (!keepsMeaning(stats))
        return failure();
      ArrayRef<char> bytes(reinterpret_cast<const char *>(narrow.data()),
                           narrow.size() * sizeof(uint16_t));
      return Attribute(DenseElementsAttr::getFromRawBuffer(
          dense.getType().clone(elementType), bytes));
    }
    bool overflow = false;
    unsigned nonzero = 0, flushed = 0;
    DenseElementsAttr converted =
        dense.mapValues(elementType, [&](const APFloat &value) {
          FailureOr<APFloat> v =
              convertAPFloat(value, elementType, nonzero, flushed);
          if (failed(v)) {
            overflow = true;
            return APInt(elementType.getWidth(), 0);
          }
          return v->bitcastToAPInt();
        });
    if (overflow || mostlyFlushed(nonzero, flushed))
      return failure();
    return Attribute(converted);
  }
  // Dense complex values, part by part.
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    auto complex = dyn_cast<ComplexType>(dense.getElementType());
    if (!complex || !isa<FloatType>(complex.getElementType()))
      return failure();
    auto type = ComplexType::get(elementType);
    if (complex == type)
      return attr;
    unsigned nonzero = 0, flushed = 0;
    SmallVector<std::complex<APFloat>> values;
    for (std::complex<APFloat> value :
         dense.getValues<std::complex<APFloat>>()) {
      FailureOr<APFloat> re =
          convertAPFloat(value.real(), elementType, nonzero, flushed);
      FailureOr<APFloat> im =
          convertAPFloat(value.imag(), elementType, nonzero, flushed);
      if (failed(re) || failed(im))
        return failure();
      values.emplace_back(*re, *im);
    }
    if (mostlyFlushed(nonzero, flushed))
      return failure();
    return Attribute(
        DenseElementsAttr::get(dense.getType().clone(type), ArrayRef(values)));
  }
  return failure();
}

//===----------------------------------------------------------------------===//
// Trait-based defaults
//===----------------------------------------------------------------------===//

/// True if any operand, result or block argument of `op` holds float data.
static bool touchesFloats(Operation *op) {
  auto isFloat = [](Value v) { return amp::detail::isFloatData(v.getType()); };
  if (llvm::any_of(op->getOperands(), isFloat) ||
      llvm::any_of(op->getResults(), isFloat))
    return true;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (llvm::any_of(block.getArguments(), isFloat))
        return true;
  return false;
}

/// Ops whose work is moving or forwarding values, never arithmetic on them.
static bool onlyMovesData(Operation *op) {
  return isa<ViewLikeOpInterface, RegionBranchOpInterface, BranchOpInterface,
             RegionBranchTerminatorOpInterface, FunctionOpInterface,
             CallOpInterface>(op) ||
         op->hasTrait<OpTrait::IsTerminator>() ||
         op->hasTrait<OpTrait::ReturnLike>();
}

CategoryInfo mlir::amp::detail::getCategoryFromTraits(Operation *op,
                                                      FloatType) {
  if (!touchesFloats(op))
    return {Policy::Follow, kNoFloatData};
  if (onlyMovesData(op))
    return {Policy::Follow, kForwardsValues};
  if (!op->isRegistered())
    return {Policy::Never, "unregistered op: its numerics are unknown"};
  return {Policy::Never, "no amp model: its numerics are unknown"};
}

bool mlir::amp::detail::canComputeFromTraits(Operation *op, FloatType type,
                                             Attribute target) {
  TargetOpKind kind = onlyMovesData(op) || !touchesFloats(op)
                          ? TargetOpKind::Storage
                          : TargetOpKind::Arithmetic;
  return targetSupports(target, kind, type);
}

/// True if traits guarantee that retyping every float operand, result and
/// block argument together keeps the op valid.
static bool traitsAllowRetyping(Operation *op) {
  return !op->isRegistered() ||
         op->hasTrait<OpTrait::SameOperandsAndResultType>() ||
         op->hasTrait<OpTrait::SameOperandsAndResultElementType>() ||
         op->hasTrait<OpTrait::Elementwise>() ||
         op->hasTrait<OpTrait::IsTerminator>() ||
         op->hasTrait<OpTrait::ReturnLike>();
}

std::optional<std::string>
mlir::amp::detail::getRewriteBlockerFromTraits(Operation *op, FloatType lowType,
                                               bool hasModel) {
  // Float attributes that do not fit are found by the analysis for every op
  // (they keep it f32 before this is asked).
  if (!hasModel && !traitsAllowRetyping(op))
    return std::string(
        "no amp model and no trait that keeps a retyped op valid");
  return std::nullopt;
}

FailureOr<Operation *>
mlir::amp::detail::convertByRetyping(RewriterBase &rewriter, Operation *op,
                                     FloatType lowType, FloatType accType) {
  if (!traitsAllowRetyping(op))
    return rewriter.notifyMatchFailure(
        op, "no amp model and no trait that keeps a retyped op valid");
  SmallVector<Type> operandTypes, resultTypes;
  std::optional<AccumulationInfo> acc = getAccumulation(op);
  for (OpOperand &operand : op->getOpOperands()) {
    unsigned i = operand.getOperandNumber();
    bool isAcc = acc && llvm::is_contained(acc->accumulatorOperands, i);
    Type type = operand.get().getType();
    operandTypes.push_back(
        isDataOperand(op, i)
            ? withFloatElementType(type, isAcc ? accType : lowType)
            : type);
  }
  for (OpResult result : op->getResults()) {
    unsigned i = result.getResultNumber();
    bool isAcc = acc && llvm::is_contained(acc->accumulatorResults, i);
    resultTypes.push_back(
        isDataResult(op, i)
            ? withFloatElementType(result.getType(), isAcc ? accType : lowType)
            : result.getType());
  }
  return convertByRetypingWith(rewriter, op, operandTypes, resultTypes,
                               lowType);
}

//===----------------------------------------------------------------------===//
// Retyping helpers
//===----------------------------------------------------------------------===//

FailureOr<Operation *> mlir::amp::convertByRetypingWith(
    RewriterBase &rewriter, Operation *op, ArrayRef<Type> operandTypes,
    ArrayRef<Type> resultTypes, FloatType lowType) {
  assert(operandTypes.size() == op->getNumOperands() &&
         resultTypes.size() == op->getNumResults() && "type count mismatch");
  // Check everything before changing anything.
  for (auto [operand, type] : llvm::zip(op->getOperands(), operandTypes))
    if (!canCreateFloatCast(operand.getType(), type))
      return rewriter.notifyMatchFailure(
          op, [&, operand = operand, type = type](Diagnostic &diag) {
            diag << "cannot cast operand of type " << operand.getType()
                 << " to " << type;
          });
  // A result whose type changes must be castable back for its users.
  for (auto [result, type] : llvm::zip(op->getResults(), resultTypes))
    if (!canCreateFloatCast(type, result.getType()))
      return rewriter.notifyMatchFailure(
          op, [&, result = result, type = type](Diagnostic &diag) {
            diag << "no cast reconciles a result of type " << type
                 << " with its users of type " << result.getType();
          });
  SmallVector<NamedAttribute> newAttrs;
  bool attrsChanged = false;
  for (NamedAttribute attr : op->getAttrs()) {
    Attribute value = attr.getValue();
    // Only wider float attributes are data to narrow; an attribute that is
    // already low (or f64 configuration) is left alone.
    if (!isF32DataAttr(value)) {
      newAttrs.push_back(attr);
      continue;
    }
    FailureOr<Attribute> converted = convertFloatAttr(value, lowType);
    if (failed(converted))
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << "attribute '" << attr.getName() << "' overflows " << lowType;
      });
    newAttrs.emplace_back(attr.getName(), *converted);
    attrsChanged = true;
  }

  rewriter.setInsertionPoint(op);
  SmallVector<Value> newOperands = createOperandCasts(
      rewriter, op->getLoc(), op->getOperands(), operandTypes);
  rewriter.modifyOpInPlace(op, [&] {
    op->setOperands(newOperands);
    for (auto [result, type] : llvm::zip(op->getResults(), resultTypes))
      result.setType(type);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (amp::detail::isFloatData(arg.getType()))
            arg.setType(withFloatElementType(arg.getType(), lowType));
    if (attrsChanged)
      op->setAttrs(newAttrs);
  });
  return op;
}

/// True if every float operand and result of `op` already has element type
/// `type`: converting it would change nothing.
static bool alreadyIn(Operation *op, FloatType type) {
  auto isIn = [&](Type t) {
    FloatType elt = getFloatElementType(t);
    return !elt || elt == type;
  };
  return llvm::all_of(op->getOperandTypes(), isIn) &&
         llvm::all_of(op->getResultTypes(), isIn);
}

LogicalResult mlir::amp::convertBlockBody(RewriterBase &rewriter, Block &block,
                                          FloatType type,
                                          TypeRange yieldTypes) {
  for (Operation &nested :
       llvm::make_early_inc_range(block.without_terminator())) {
    // Casts already produce the type they are for (the model may just have
    // inserted them). One whose operand the conversion has just made as
    // narrow or as wide as its result (a body that casts to the low type,
    // converted again) is no longer a valid cast: it becomes its operand,
    // or the cast between the new types.
    if (isa<arith::ExtFOp, arith::TruncFOp>(nested)) {
      Value in = nested.getOperand(0);
      Type out = nested.getResult(0).getType();
      unsigned inWidth =
          getElementTypeOrSelf(in.getType()).getIntOrFloatBitWidth();
      unsigned outWidth = getElementTypeOrSelf(out).getIntOrFloatBitWidth();
      bool valid =
          isa<arith::ExtFOp>(nested) ? inWidth < outWidth : inWidth > outWidth;
      if (valid)
        continue;
      rewriter.setInsertionPoint(&nested);
      Value cast = createFloatCast(rewriter, nested.getLoc(), in, out);
      if (!cast)
        return failure();
      rewriter.replaceOp(&nested, cast);
      continue;
    }
    if (!touchesFloats(&nested) || alreadyIn(&nested, type))
      continue;
    FailureOr<Operation *> converted =
        convertToPrecision(rewriter, &nested, type, type);
    if (failed(converted))
      return failure();
    if (*converted != &nested)
      rewriter.replaceOp(&nested, (*converted)->getResults());
  }
  Operation *terminator = block.getTerminator();
  rewriter.setInsertionPoint(terminator);
  for (auto [operand, type] :
       llvm::zip(terminator->getOpOperands(), yieldTypes)) {
    Value cast =
        createFloatCast(rewriter, terminator->getLoc(), operand.get(), type);
    if (!cast)
      return failure();
    OpOperand &yielded = operand;
    rewriter.modifyOpInPlace(terminator, [&] { yielded.set(cast); });
  }
  return success();
}

FailureOr<Operation *> mlir::amp::convertWithBody(RewriterBase &rewriter,
                                                  Operation *op,
                                                  ArrayRef<Type> operandTypes,
                                                  ArrayRef<Type> resultTypes,
                                                  FloatType lowType) {
  // Work on a clone so that a body that cannot be converted leaves the
  // original untouched.
  rewriter.setInsertionPoint(op);
  Operation *clone = rewriter.clone(*op);
  auto discard = [&]() {
    SmallVector<Value> operands(clone->getOperands());
    rewriter.eraseOp(clone);
    // Only casts the conversion created can be unused: the original op
    // still uses every original operand.
    eraseUnusedCasts(rewriter, operands);
    return failure();
  };
  if (failed(convertByRetypingWith(rewriter, clone, operandTypes, resultTypes,
                                   lowType)))
    return discard();
  for (Region &region : clone->getRegions())
    for (Block &block : region) {
      SmallVector<Type> yieldTypes;
      for (Value v : block.getTerminator()->getOperands())
        yieldTypes.push_back(amp::detail::isFloatData(v.getType())
                                 ? withFloatElementType(v.getType(), lowType)
                                 : v.getType());
      if (failed(convertBlockBody(rewriter, block, lowType, yieldTypes)))
        return discard();
    }
  return clone;
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

bool mlir::amp::hasAmpModel(Operation *op) { return isa<AmpOpInterface>(op); }

StringRef mlir::amp::getDataMovementReason() {
  return "moves data without arithmetic";
}

bool mlir::amp::movesDataOnly(Operation *op, FloatType lowType) {
  StringRef reason = getCategory(op, lowType).reason;
  return reason == getDataMovementReason() || reason == kForwardsValues ||
         reason == kNoFloatData;
}

CategoryInfo mlir::amp::getCategory(Operation *op, FloatType lowType) {
  if (auto iface = dyn_cast<AmpOpInterface>(op))
    return iface.getDefaultCategory(lowType);
  return amp::detail::getCategoryFromTraits(op, lowType);
}

std::optional<AccumulationInfo> mlir::amp::getAccumulation(Operation *op) {
  if (auto iface = dyn_cast<AmpOpInterface>(op))
    return iface.getAccumulation();
  return std::nullopt;
}

bool mlir::amp::isDataOperand(Operation *op, unsigned index) {
  if (auto iface = dyn_cast<AmpOpInterface>(op))
    return iface.isDataOperand(index);
  return amp::detail::isFloatData(op->getOperand(index).getType());
}

bool mlir::amp::isDataResult(Operation *op, unsigned index) {
  if (auto iface = dyn_cast<AmpOpInterface>(op))
    return iface.isDataResult(index);
  return amp::detail::isFloatData(op->getResult(index).getType());
}

bool mlir::amp::canComputeIn(Operation *op, FloatType type, Attribute target) {
  if (auto iface = dyn_cast<AmpOpInterface>(op))
    return iface.canComputeIn(type, target);
  return amp::detail::canComputeFromTraits(op, type, target);
}

std::optional<std::string> mlir::amp::getRewriteBlocker(Operation *op,
                                                        FloatType lowType,
                                                        FloatType accType) {
  if (auto iface = dyn_cast<AmpOpInterface>(op))
    return iface.getRewriteBlocker(lowType, accType);
  return detail::getRewriteBlockerFromTraits(op, lowType, /*hasModel=*/false);
}

FailureOr<Operation *> mlir::amp::convertToPrecision(RewriterBase &rewriter,
                                                     Operation *op,
                                                     FloatType lowType,
                                                     FloatType accType) {
  if (auto iface = dyn_cast<AmpOpInterface>(op))
    return iface.convertToPrecision(rewriter, lowType, accType);
  return amp::detail::convertByRetyping(rewriter, op, lowType, accType);
}

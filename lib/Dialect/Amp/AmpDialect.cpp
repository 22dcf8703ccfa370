//===- AmpDialect.cpp - The amp dialect -----------------------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/Amp/Amp.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::amp;

#include "amp/Dialect/Amp/AmpDialect.cpp.inc"
#include "amp/Dialect/Amp/AmpEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "amp/Dialect/Amp/AmpAttributes.cpp.inc"

void AmpDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "amp/Dialect/Amp/AmpAttributes.cpp.inc"
      >();
}

void AmpDialect::getCanonicalizationPatterns(RewritePatternSet &results) const {
  for (PatternPopulator populate : canonicalizationPopulators)
    populate(results);
}

bool mlir::amp::isSupportedLowType(Type type) {
  return type.isF16() || type.isBF16();
}

FloatType mlir::amp::parseLowType(MLIRContext *ctx, StringRef name) {
  if (name == "f16")
    return Float16Type::get(ctx);
  if (name == "bf16")
    return BFloat16Type::get(ctx);
  return {};
}

FloatType mlir::amp::parseAccumulatorType(MLIRContext *ctx, StringRef name) {
  if (name == "f32")
    return Float32Type::get(ctx);
  if (name == "f64")
    return Float64Type::get(ctx);
  return parseLowType(ctx, name);
}

//===----------------------------------------------------------------------===//
// PrecisionAttr
//===----------------------------------------------------------------------===//

// Syntax: `<` (key `=` value) (`,` key `=` value)* `>` with keys `policy`,
// `low` and `accumulate`, each at most once, in any order.
Attribute PrecisionAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  PolicyAttr policy;
  FloatType low, accumulate;
  llvm::SmallDenseSet<StringRef> seen;

  auto parseFloatParam = [&](StringRef key, FloatType &out) -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    Type type;
    if (parser.parseType(type))
      return failure();
    out = dyn_cast<FloatType>(type);
    if (!out)
      return parser.emitError(loc)
             << "'" << key << "' must be a floating-point type, got " << type;
    return success();
  };

  auto parseEntry = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (!seen.insert(key).second)
      return parser.emitError(loc) << "'" << key << "' is given twice";
    if (key == "policy") {
      SMLoc valueLoc = parser.getCurrentLocation();
      StringRef value;
      if (parser.parseKeyword(&value))
        return failure();
      std::optional<Policy> p = symbolizePolicy(value);
      if (!p)
        return parser.emitError(valueLoc)
               << "unknown policy '" << value
               << "'; expected 'allow', 'follow' or 'never'";
      policy = PolicyAttr::get(ctx, *p);
      return success();
    }
    if (key == "low")
      return parseFloatParam(key, low);
    if (key == "accumulate")
      return parseFloatParam(key, accumulate);
    return parser.emitError(loc)
           << "unknown key '" << key
           << "'; expected 'policy', 'low' or 'accumulate'";
  };

  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater,
                                     parseEntry))
    return {};
  return parser.getChecked<PrecisionAttr>(ctx, policy, low, accumulate);
}

void PrecisionAttr::print(AsmPrinter &printer) const {
  SmallVector<std::function<void()>> fields;
  if (PolicyAttr policy = getPolicy())
    fields.push_back([&printer, policy] {
      printer << "policy = " << stringifyPolicy(policy.getValue());
    });
  if (FloatType low = getLow())
    fields.push_back([&printer, low] { printer << "low = " << low; });
  if (FloatType acc = getAccumulate())
    fields.push_back([&printer, acc] { printer << "accumulate = " << acc; });
  printer << "<";
  llvm::interleaveComma(fields, printer, [](auto &f) { f(); });
  printer << ">";
}

LogicalResult
PrecisionAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      PolicyAttr policy, FloatType low, FloatType accumulate) {
  if (low && !isSupportedLowType(low))
    return emitError() << "low-precision type must be f16 or bf16, got " << low;
  if (accumulate) {
    if (!isSupportedLowType(accumulate) && !accumulate.isF32() &&
        !accumulate.isF64())
      return emitError()
             << "accumulator type must be f16, bf16, f32 or f64, got "
             << accumulate;
    // Accumulating in a type narrower than (or unrelated to) the inputs
    // would lose more than computing in low precision does.
    if (low && isSupportedLowType(accumulate) && accumulate != low)
      return emitError() << "accumulator type " << accumulate
                         << " cannot hold values of the low type " << low
                         << "; use " << low << " or a wider type";
  }
  if (!policy && !low && !accumulate)
    return emitError() << "a precision attribute must state at least one of "
                          "'policy', 'low' or 'accumulate'";
  return success();
}

//===----------------------------------------------------------------------===//
// Discardable attribute verification
//===----------------------------------------------------------------------===//

LogicalResult AmpDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  // Kernel tile sizes that the GPU backends read (and check in full); the
  // dialect only knows their form.
  if (name == "amp.lowering_config") {
    if (!isa<DictionaryAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a dictionary, got "
                             << attr.getValue();
    return success();
  }
  if (name != getPrecisionAttrName() && name != getScopeAttrName())
    return op->emitError() << "unknown amp attribute '" << name
                           << "'; expected '" << getPrecisionAttrName()
                           << "' or '" << getScopeAttrName() << "'";
  if (!isa<PrecisionAttr>(attr.getValue()))
    return op->emitError() << "'" << name
                           << "' must be an #amp.precision attribute, got "
                           << attr.getValue();
  if (name == getScopeAttrName() && op->getNumRegions() == 0)
    return op->emitError()
           << "'" << name
           << "' applies to nested ops and needs an op with regions; use '"
           << getPrecisionAttrName() << "' for a single op";
  return success();
}

LogicalResult AmpDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name != getRangeAttrName())
    return op->emitError() << "unknown amp argument attribute '" << name
                           << "'; expected '" << getRangeAttrName() << "'";
  auto bounds = dyn_cast<ArrayAttr>(attr.getValue());
  if (!bounds || bounds.size() != 2 || !isa<FloatAttr>(bounds[0]) ||
      !isa<FloatAttr>(bounds[1]))
    return op->emitError() << "'" << name
                           << "' must be an array of two floats [lo, hi], got "
                           << attr.getValue();
  double lo = cast<FloatAttr>(bounds[0]).getValueAsDouble();
  double hi = cast<FloatAttr>(bounds[1]).getValueAsDouble();
  if (!(lo <= hi))
    return op->emitError() << "'" << name << "' of argument " << argIndex
                           << " needs lo <= hi, got " << attr.getValue();
  if (regionIndex < op->getNumRegions()) {
    Region &region = op->getRegion(regionIndex);
    if (!region.empty() && argIndex < region.getNumArguments()) {
      Type type = region.getArgument(argIndex).getType();
      if (auto shaped = dyn_cast<ShapedType>(type))
        type = shaped.getElementType();
      if (!isa<FloatType>(type))
        return op->emitError() << "'" << name << "' on argument " << argIndex
                               << ", which holds no floats";
    }
  }
  return success();
}

PrecisionAttr mlir::amp::getEffectivePrecision(Operation *op) {
  PolicyAttr policy;
  FloatType low, accumulate;
  bool any = false;
  auto merge = [&](PrecisionAttr attr) {
    if (!attr)
      return;
    any = true;
    if (!policy)
      policy = attr.getPolicy();
    if (!low)
      low = attr.getLow();
    if (!accumulate)
      accumulate = attr.getAccumulate();
  };
  merge(op->getAttrOfType<PrecisionAttr>(AmpDialect::getPrecisionAttrName()));
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    merge(p->getAttrOfType<PrecisionAttr>(AmpDialect::getScopeAttrName()));
  if (!any)
    return {};
  // Fields come from different attributes, each valid on its own; a merged
  // combination that is not (an inner bf16 scope under an outer f16
  // accumulator) resolves in favour of the inner low type.
  if (low && accumulate && isSupportedLowType(accumulate) && accumulate != low)
    accumulate = low;
  return PrecisionAttr::get(op->getContext(), policy, low, accumulate);
}

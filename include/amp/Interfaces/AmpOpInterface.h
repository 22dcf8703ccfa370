//===- AmpOpInterface.h - The contract between ops and amp ------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// AmpOpInterface and the query functions amp uses for every op, with or
// without a model: for an op that does not implement the interface they
// answer from its traits.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_AMPOPINTERFACE_H
#define AMP_INTERFACES_AMPOPINTERFACE_H

#include "amp/Dialect/Amp/Amp.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
namespace amp {

/// An op's category with the reason for it, e.g. {Never, "exp overflows f16"}.
/// The reason is a string literal owned by the model.
struct CategoryInfo {
  Policy category;
  StringRef reason;
};

/// What an accumulation folds its elements with. Sums and products lose
/// accuracy as they grow; max/min are exact in any precision.
enum class AccumulationKind { Sum, Product, Max, Min, Other };

StringRef stringifyAccumulationKind(AccumulationKind kind);

/// How an op accumulates.
struct AccumulationInfo {
  AccumulationKind kind = AccumulationKind::Sum;
  /// Elements folded into each accumulator; ShapedType::kDynamic if unknown.
  int64_t reductionSize = ShapedType::kDynamic;
  /// Operands and results that hold the accumulators.
  SmallVector<unsigned, 2> accumulatorOperands;
  SmallVector<unsigned, 2> accumulatorResults;
  /// True if the accumulators may have a wider type than the other data
  /// (linalg.matmul's outs, tosa.conv2d's acc_type, a reduction's init), so
  /// that the op can read low-precision inputs and accumulate in f32.
  bool separateAccumulator = false;

  /// True for kinds whose accuracy degrades with the number of elements.
  bool isLossy() const {
    return kind == AccumulationKind::Sum || kind == AccumulationKind::Product ||
           kind == AccumulationKind::Other;
  }
};

namespace detail {
/// True for floating-point scalars, and vectors, tensors, memrefs and complex
/// numbers of them.
bool isFloatData(Type type);
/// Trait-based category: data movement, control flow and ops with no float
/// data follow; anything else (unknown arithmetic, side effects, unregistered
/// ops) stays f32.
CategoryInfo getCategoryFromTraits(Operation *op, FloatType lowType);
/// Trait-based target check.
bool canComputeFromTraits(Operation *op, FloatType type, Attribute target);
/// Generic rewrite: cast data operands, retype data results, float block
/// arguments and float scalar attributes. Declines ops whose traits do not
/// say that retyping keeps them valid, and values a low type cannot hold.
FailureOr<Operation *> convertByRetyping(RewriterBase &rewriter, Operation *op,
                                         FloatType lowType, FloatType accType);
/// Why the generic retyping would decline `op`: a float attribute does not
/// fit `lowType` or, for an op without a model, no trait keeps a retyped op
/// valid (a model that keeps the default convertToPrecision on an op whose
/// traits do not allow retyping overrides getRewriteBlocker).
std::optional<std::string>
getRewriteBlockerFromTraits(Operation *op, FloatType lowType, bool hasModel);
/// The number of inputs of a destination-style op (`op` must implement
/// DestinationStyleOpInterface). Unlike the interface's getNumDpsInputs,
/// which builds the operand-segment attribute of named linalg ops on every
/// call, this reads it from the results when the op is on tensors (one
/// result per init); the analysis asks it for every structured op.
unsigned numDpsInputs(Operation *op);
} // namespace detail
} // namespace amp
} // namespace mlir

#include "amp/Interfaces/AmpOpInterface.h.inc"

namespace mlir {
namespace amp {

//===----------------------------------------------------------------------===//
// Queries for any op
//===----------------------------------------------------------------------===//

/// True if `op` implements AmpOpInterface (natively or by an external model).
bool hasAmpModel(Operation *op);
/// The functions amp works on: `root` itself if it is one, otherwise those
/// nested in it, in order. The walk enters neither function bodies nor
/// structured ops' bodies (most of a module's ops), which hold no functions.
SmallVector<FunctionOpInterface> getFunctions(Operation *root);
/// The op's category for `lowType`, from its model or its traits. Policy
/// attributes in the IR are not consulted here (see getEffectivePrecision).
CategoryInfo getCategory(Operation *op, FloatType lowType);
/// The reason of ops that move data without arithmetic (models share it).
StringRef getDataMovementReason();
/// True if the op's category says it computes nothing (moves or forwards
/// values, or has no float data): rounding its results changes nothing
/// its inputs' rounding did not.
bool movesDataOnly(Operation *op, FloatType lowType);
/// The op's accumulation, if it has a model that reports one.
std::optional<AccumulationInfo> getAccumulation(Operation *op);
bool isDataOperand(Operation *op, unsigned index);
bool isDataResult(Operation *op, unsigned index);
bool canComputeIn(Operation *op, FloatType type, Attribute target);
FailureOr<Operation *> convertToPrecision(RewriterBase &rewriter, Operation *op,
                                          FloatType lowType, FloatType accType);
/// Why the rewrite of `op` to `lowType` would be declined, if it would.
std::optional<std::string> getRewriteBlocker(Operation *op, FloatType lowType,
                                             FloatType accType);

//===----------------------------------------------------------------------===//
// Helpers for models
//===----------------------------------------------------------------------===//

/// `type` with its floating-point element type replaced by `elementType`
/// (scalars, shaped and complex types); other types are returned unchanged.
Type withFloatElementType(Type type, FloatType elementType);
/// The floating-point element type of `type`, or null.
FloatType getFloatElementType(Type type);

/// Casts `value` to `type` with arith.extf/arith.truncf (through f32 between
/// f16 and bf16). Returns `value` if the types match and null if no arith
/// cast applies (memrefs, complex, integers).
Value createFloatCast(OpBuilder &builder, Location loc, Value value, Type type);
/// `body` applied to each element of the ranked tensor `value`: a parallel
/// linalg.generic with identity maps into a new tensor of `resultType` (the
/// same shape, dynamic sizes taken from `value`).
Value createElementwiseMap(
    OpBuilder &builder, Location loc, Value value, RankedTensorType resultType,
    function_ref<Value(OpBuilder &, Location, Value)> body);
/// Casts each of `values` to the matching type of `types`, creating one cast
/// per distinct value and type.
SmallVector<Value> createOperandCasts(OpBuilder &builder, Location loc,
                                      ValueRange values, TypeRange types);
/// Erases the casts defining `values` that have no uses left (after a
/// conversion that created them was abandoned).
void eraseUnusedCasts(RewriterBase &rewriter, ValueRange values);
/// True for float data convertFloatAttr handles: a FloatAttr, or dense
/// elements of a float or complex float type.
bool isFloatDataAttr(Attribute attr);
/// True for f32 float attributes (scalar or dense): data a conversion to a
/// low type narrows; f64 and already-low attributes are left alone.
bool isF32DataAttr(Attribute attr);
/// True if createFloatCast can produce a cast from `from` to `to`.
bool canCreateFloatCast(Type from, Type to);

/// Converts a floating-point attribute (FloatAttr, dense or splat elements)
/// to `elementType`. Fails when a finite value overflows the type, so that a
/// constant is never silently clamped to infinity, and when most of its
/// nonzero values would flush to zero.
FailureOr<Attribute> convertFloatAttr(Attribute attr, FloatType elementType);
/// Whether convertFloatAttr(attr, elementType) succeeds, without building
/// the converted attribute (a model's weights are checked once per decision
/// and converted once).
bool fitsFloatType(Attribute attr, FloatType elementType);
/// Every value of `dense` rounded to `elementType` as a runtime cast does
/// (nearest even; overflow gives infinity): f32 to f16/bf16 and back on the
/// raw buffer (amp/Support/FloatConversion.h), other types through APFloat.
DenseElementsAttr roundFloatData(DenseFPElementsAttr dense,
                                 FloatType elementType);
/// The least and greatest value of f32, f16 or bf16 dense data (a NaN
/// counting as +infinity), read from the raw buffer; none for other element
/// types or no elements.
std::optional<std::pair<double, double>>
getFloatDataBounds(DenseElementsAttr dense);

/// Converts `op` by retyping, as the default does, but with data operands
/// and results chosen by the caller (used by models that know which ones
/// are data or accumulators).
FailureOr<Operation *> convertByRetypingWith(RewriterBase &rewriter,
                                             Operation *op,
                                             ArrayRef<Type> operandTypes,
                                             ArrayRef<Type> resultTypes,
                                             FloatType blockArgType);

/// Retypes every op in `block` (not the terminator) to compute in `type`
/// and casts the terminator's float operands to `yieldTypes` where they
/// differ. Used by models whose op owns its body (linalg, tensor.generate).
LogicalResult convertBlockBody(RewriterBase &rewriter, Block &block,
                               FloatType type, TypeRange yieldTypes);

/// Converts an op that owns its body (tensor.pad, tensor.generate): a clone
/// is retyped like convertByRetypingWith and every block of it is converted
/// to compute in `lowType`, yielding low-precision values. Returns the clone;
/// on failure the original is untouched.
FailureOr<Operation *> convertWithBody(RewriterBase &rewriter, Operation *op,
                                       ArrayRef<Type> operandTypes,
                                       ArrayRef<Type> resultTypes,
                                       FloatType lowType);

} // namespace amp
} // namespace mlir

#endif // AMP_INTERFACES_AMPOPINTERFACE_H

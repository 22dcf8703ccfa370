//===- AmpOpInterface.td - The contract between ops and amp -*- tablegen -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_AMPOPINTERFACE_TD
#define AMP_INTERFACES_AMPOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def AmpOpInterface : OpInterface<"AmpOpInterface"> {
  let cppNamespace = "::mlir::amp";
  let description = [{
    What amp needs to know about an op to run it in mixed precision: its
    default category (allow / follow / never) for a low-precision type,
    whether and how it accumulates, which operands and results carry
    floating-point data (as opposed to indices, shapes and predicates that
    must never change type), whether a target can compute it in a given type,
    and how to rewrite it to a new precision.

    Upstream dialects get this interface through external models
    (`amp::registerAllExternalModels`). An op with no model at all is not
    left out: `amp::getCategory`, `amp::getAccumulation`,
    `amp::isDataOperand`, `amp::canComputeIn` and `amp::convertToPrecision`
    answer for it from its traits (Elementwise, SameOperandsAndResultType,
    view-like, control flow, memory effects), and the defaults below use the
    same trait-based answers, so a model overrides only what it knows better.
  }];

  let methods = [
    InterfaceMethod<[{
        The op's category when converting to `lowType` (f16 or bf16), with
        a short reason. A policy stated in the IR (`amp.precision`,
        `amp.scope`) or given to the pass takes precedence over this.
      }],
      "::mlir::amp::CategoryInfo", "getDefaultCategory",
      (ins "::mlir::FloatType":$lowType), [{}], [{
        return ::mlir::amp::detail::getCategoryFromTraits($_op, lowType);
      }]>,
    InterfaceMethod<[{
        Whether the op accumulates (contractions, reductions, pools and
        loop-carried sums): the kind of accumulation, the number of elements
        folded into each accumulator (`ShapedType::kDynamic` when unknown),
        which operands and results hold the accumulators, and whether the
        accumulator can have a wider type than the other data. Returns
        `std::nullopt` for ops that do not accumulate.
      }],
      "std::optional<::mlir::amp::AccumulationInfo>", "getAccumulation",
      (ins), [{}], [{
        return std::nullopt;
      }]>,
    InterfaceMethod<[{
        True if operand `index` carries floating-point data whose precision
        amp may change; false for indices, shapes, predicates and operands
        whose type is part of the op's meaning.
      }],
      "bool", "isDataOperand", (ins "unsigned":$index), [{}], [{
        return ::mlir::amp::detail::isFloatData(
            $_op->getOperand(index).getType());
      }]>,
    InterfaceMethod<[{
        True if result `index` carries floating-point data whose precision
        follows the op's compute precision.
      }],
      "bool", "isDataResult", (ins "unsigned":$index), [{}], [{
        return ::mlir::amp::detail::isFloatData(
            $_op->getResult(index).getType());
      }]>,
    InterfaceMethod<[{
        True if `target` (a `#spirv.target_env`, an `#nvvm.target`, or null
        for "any target") can run this op's arithmetic in `type`. Ops that
        only move data answer whether the target can store `type`.
      }],
      "bool", "canComputeIn",
      (ins "::mlir::FloatType":$type, "::mlir::Attribute":$target), [{}], [{
        return ::mlir::amp::detail::canComputeFromTraits($_op, type, target);
      }]>,
    InterfaceMethod<[{
        Why `convertToPrecision(lowType, accType)` would decline, or
        `std::nullopt` if it will rewrite the op. The analysis asks before
        placing casts, so that the rewrite never changes a decision: an op
        whose rewrite would be declined stays f32 from the start, with this
        reason in its remark and report entry. A model that overrides
        `convertToPrecision` with a way to fail overrides this too.
      }],
      "std::optional<std::string>", "getRewriteBlocker",
      (ins "::mlir::FloatType":$lowType, "::mlir::FloatType":$accType), [{}],
      [{
        return ::mlir::amp::detail::getRewriteBlockerFromTraits(
            $_op, lowType, /*hasModel=*/true);
      }]>,
    InterfaceMethod<[{
        Rewrites the op to compute in `lowType`, keeping its accumulators
        (see `getAccumulation`) in `accType`. Data operands whose type does
        not fit are cast with `arith.truncf`/`arith.extf` inserted before the
        op; results, block arguments and scalar attributes are retyped. The
        op is changed in place or replaced by a new op, which is returned;
        uses of the old results are left to the caller, which reconciles
        them (by casts or by converting the users too). On failure nothing
        has been changed.
      }],
      "::mlir::FailureOr<::mlir::Operation *>", "convertToPrecision",
      (ins "::mlir::RewriterBase &":$rewriter, "::mlir::FloatType":$lowType,
           "::mlir::FloatType":$accType), [{}], [{
        return ::mlir::amp::detail::convertByRetyping(
            rewriter, $_op, lowType, accType);
      }]>,
  ];
}

#endif // AMP_INTERFACES_AMPOPINTERFACE_TD

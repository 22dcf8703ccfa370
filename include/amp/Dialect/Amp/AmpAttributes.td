//===- AmpAttributes.td - amp policy attributes ------------*- tablegen -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AMP_AMPATTRIBUTES_TD
#define AMP_DIALECT_AMP_AMPATTRIBUTES_TD

include "amp/Dialect/Amp/AmpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Policy
//===----------------------------------------------------------------------===//

def Amp_PolicyAllow : I32EnumAttrCase<"Allow", 0, "allow">;
def Amp_PolicyFollow : I32EnumAttrCase<"Follow", 1, "follow">;
def Amp_PolicyNever : I32EnumAttrCase<"Never", 2, "never">;

def Amp_Policy : I32EnumAttr<"Policy",
    "how an op takes part in mixed precision",
    [Amp_PolicyAllow, Amp_PolicyFollow, Amp_PolicyNever]> {
  let cppNamespace = "::mlir::amp";
  let genSpecializedAttr = 0;
  let description = [{
    * `allow`: the op runs in low precision whenever it can; it is worth the
      casts it needs (contractions and convolutions).
    * `follow`: the op runs in whatever precision its neighbours make
      cheapest; it is accurate in low precision (elementwise arithmetic,
      data movement).
    * `never`: the op stays in f32; low precision would lose accuracy or
      overflow (exp, log, long sums, normalisation statistics).
  }];
}

def Amp_PolicyAttr : EnumAttr<Amp_Dialect, Amp_Policy, "policy"> {
  let summary = "an allow / follow / never policy";
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// PrecisionAttr
//===----------------------------------------------------------------------===//

def Amp_PrecisionAttr : AttrDef<Amp_Dialect, "Precision"> {
  let mnemonic = "precision";
  let summary = "precision policy for one op or for a scope";
  let description = [{
    States, for the op it is attached to (`amp.precision`) or for everything
    nested in a region-holding op (`amp.scope`), any of:

    * `policy`: `allow`, `follow` or `never`, overriding the op's model;
    * `low`: the low-precision type, `f16` or `bf16`;
    * `accumulate`: the type that contractions, reductions and pools
      accumulate in, a floating-point type at least as wide as `low`
      (`f32` keeps long sums accurate; `f16`/`bf16` accumulates in low
      precision).

    Every field is optional; a missing field is inherited from the enclosing
    scope, then from the pass options.

    ```mlir
    #amp.precision<policy = never>
    #amp.precision<low = bf16, accumulate = f32>
    #amp.precision<policy = allow, low = f16, accumulate = f16>
    ```
  }];
  let parameters = (ins
    OptionalParameter<"::mlir::amp::PolicyAttr",
                      "policy overriding the op's model">:$policy,
    OptionalParameter<"::mlir::FloatType", "low-precision type">:$low,
    OptionalParameter<"::mlir::FloatType", "accumulator type">:$accumulate
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The policy, if this attribute states one.
    std::optional<::mlir::amp::Policy> getPolicyValue() const {
      if (PolicyAttr p = getPolicy())
        return p.getValue();
      return std::nullopt;
    }
  }];
}

#endif // AMP_DIALECT_AMP_AMPATTRIBUTES_TD

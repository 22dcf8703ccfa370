//===- TargetAttrInterface.td - What a target computes in low precision ---===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TARGET_TARGETATTRINTERFACE_TD
#define AMP_TARGET_TARGETATTRINTERFACE_TD

include "mlir/IR/OpBase.td"

def AmpTargetAttrInterface : AttrInterface<"AmpTargetAttrInterface"> {
  let cppNamespace = "::mlir::amp";
  let description = [{
    Implemented by the attributes that name a target (`#spirv.target_env`,
    `#nvvm.target`, or a downstream target's own attribute): says which kinds
    of work the target can do on f16 and bf16 values. amp's core asks only
    this interface, so it knows no backend; the backends attach the models
    for SPIR-V and NVVM (`amp::registerSPIRVTargetModel`,
    `amp::registerNVVMTargetModel`). An attribute without a model
    is treated like the CPU, which LLVM legalises for every kind of work.
  }];
  let methods = [
    InterfaceMethod<
      /*desc=*/[{True if the target can do `kind` of work on values of the
                 16-bit float type `type`.}],
      /*retTy=*/"bool",
      /*methodName=*/"supportsLowPrecision",
      /*args=*/(ins "::mlir::amp::TargetOpKind":$kind,
                    "::mlir::FloatType":$type)>,
  ];
}

#endif // AMP_TARGET_TARGETATTRINTERFACE_TD

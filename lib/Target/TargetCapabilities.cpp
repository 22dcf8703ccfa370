//===- TargetCapabilities.cpp - What a target can do in low precision -----===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Target/TargetCapabilities.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::amp;

#include "amp/Target/TargetAttrInterface.cpp.inc"

/// The attribute name upstream's SPIR-V lowering reads the target from
/// (spirv::getTargetEnvAttrName()); spelled here so that amp's core needs no
/// SPIR-V header.
static constexpr StringLiteral kSPIRVTargetEnvName = "spirv.target_env";
/// The discardable attribute upstream's LLVM passes read a CPU target from
/// (`#llvm.target<triple = ..., chip = ..., features = ...>`).
static constexpr StringLiteral kLLVMTargetName = "llvm.target";

bool mlir::amp::targetSupports(Attribute target, TargetOpKind kind,
                               FloatType type) {
  if (!type.isF16() && !type.isBF16())
    return true;
  if (auto model = dyn_cast_if_present<AmpTargetAttrInterface>(target))
    return model.supportsLowPrecision(kind, type);
  // No target, or one amp has no model for: the CPU path through LLVM,
  // which legalises f16 and bf16 for every kind of work.
  return true;
}

Attribute mlir::amp::getEnclosingTarget(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp()) {
    if (Attribute env = p->getAttr(kSPIRVTargetEnvName))
      return env;
    if (Attribute cpu = p->getAttr(kLLVMTargetName))
      if (isa<AmpTargetAttrInterface>(cpu))
        return cpu;
    if (auto gpuModule = dyn_cast<gpu::GPUModuleOp>(p))
      if (ArrayAttr targets = gpuModule.getTargetsAttr())
        for (Attribute t : targets)
          if (isa<AmpTargetAttrInterface>(t))
            return t;
  }
  return {};
}

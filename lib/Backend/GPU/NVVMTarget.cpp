//===- NVVMTarget.cpp - NVIDIA targets for amp's target vocabulary --------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What an NVIDIA GPU computes in low precision (AmpTargetAttrInterface on
// `#nvvm.target`) and the attribute the names `sm_<N>[a|f]` stand for.
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/GPU/NVVMTarget.h"
#include "amp/Target/TargetCapabilities.h"
#include "amp/Target/TargetNames.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

/// f16 arithmetic from sm_53, bf16 arithmetic from sm_80; either is stored
/// anywhere.
struct NVVMTargetModel
    : AmpTargetAttrInterface::ExternalModel<NVVMTargetModel,
                                            NVVM::NVVMTargetAttr> {
  bool supportsLowPrecision(Attribute attr, TargetOpKind kind,
                            FloatType type) const {
    if (kind == TargetOpKind::Storage)
      return true;
    std::optional<TargetName> name =
        parseTargetName(cast<NVVM::NVVMTargetAttr>(attr).getChip());
    if (!name || name->kind != TargetKind::NVVM)
      return false;
    if (type.isF16())
      return name->sm >= 53;
    if (type.isBF16())
      return name->sm >= 80;
    return false;
  }
};

Attribute buildNVVMTarget(MLIRContext *context, const TargetName &name) {
  return NVVM::NVVMTargetAttr::get(context, /*optLevel=*/2,
                                   "nvptx64-nvidia-cuda", name.chip);
}

void insertNVVMDialect(DialectRegistry &registry) {
  registry.insert<NVVM::NVVMDialect>();
  registerNVVMTargetModel(registry);
}

} // namespace

void mlir::amp::registerNVVMTargetModel(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, NVVM::NVVMDialect *) {
    NVVM::NVVMTargetAttr::attachInterface<NVVMTargetModel>(*ctx);
  });
}

void mlir::amp::registerNVVMTargets() {
  registerTargetBackend(TargetKind::NVVM, {insertNVVMDialect, buildNVVMTarget});
}

//===- TargetModels.cpp - AmpTargetAttrInterface for SPIR-V and NVVM ------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Target/TargetCapabilities.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

/// Vulkan/SPIR-V: f16 needs the Float16 capability to compute and 16-bit
/// storage-buffer access to be stored; bf16 has no arithmetic here, but its
/// 16-bit words can be stored and widened to f32 in the kernel.
struct SPIRVTargetModel
    : AmpTargetAttrInterface::ExternalModel<SPIRVTargetModel,
                                            spirv::TargetEnvAttr> {
  bool supportsLowPrecision(Attribute attr, TargetOpKind kind,
                            FloatType type) const {
    spirv::TargetEnv env(cast<spirv::TargetEnvAttr>(attr));
    bool storage16 = env.allows(spirv::Capability::StorageBuffer16BitAccess);
    if (kind == TargetOpKind::Storage)
      return storage16;
    if (type.isF16())
      return storage16 && env.allows(spirv::Capability::Float16);
    return false;
  }
};

/// NVIDIA: f16 arithmetic from sm_53, bf16 arithmetic from sm_80; either is
/// stored anywhere.
struct NVVMTargetModel
    : AmpTargetAttrInterface::ExternalModel<NVVMTargetModel,
                                            NVVM::NVVMTargetAttr> {
  bool supportsLowPrecision(Attribute attr, TargetOpKind kind,
                            FloatType type) const {
    if (kind == TargetOpKind::Storage)
      return true;
    StringRef chip = cast<NVVM::NVVMTargetAttr>(attr).getChip();
    unsigned sm = 0;
    if (!chip.consume_front("sm_") ||
        chip.take_while(llvm::isDigit).getAsInteger(10, sm))
      return false;
    if (type.isF16())
      return sm >= 53;
    if (type.isBF16())
      return sm >= 80;
    return false;
  }
};

} // namespace

void mlir::amp::registerTargetModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, spirv::SPIRVDialect *) {
    spirv::TargetEnvAttr::attachInterface<SPIRVTargetModel>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, NVVM::NVVMDialect *) {
    NVVM::NVVMTargetAttr::attachInterface<NVVMTargetModel>(*ctx);
  });
}

//===- SPIRVTarget.cpp - Vulkan targets for amp's target vocabulary -------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a Vulkan target computes in low precision (AmpTargetAttrInterface on
// `#spirv.target_env`) and the attribute the names `vulkan` and
// `vulkan-storage16` stand for.
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/SPIRV/SPIRVTarget.h"
#include "amp/Target/TargetCapabilities.h"
#include "amp/Target/TargetNames.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

/// f16 needs the Float16 capability to compute and 16-bit storage-buffer
/// access to be stored; bf16 has no arithmetic here, but its 16-bit words
/// can be stored and widened to f32 in the kernel.
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

/// Vulkan 1.1 (SPIR-V 1.3) with the capability set amp assumes of every
/// Vulkan target (getVulkanCapabilities), Float16 only for `vulkan`.
Attribute buildVulkanTarget(MLIRContext *context, const TargetName &name) {
  SmallVector<spirv::Capability> caps;
  for (StringRef cap : getVulkanCapabilities(name.kind == TargetKind::Vulkan))
    caps.push_back(*spirv::symbolizeCapability(cap));
  SmallVector<spirv::Extension> exts;
  for (StringRef ext : getVulkanExtensions())
    exts.push_back(*spirv::symbolizeExtension(ext));
  auto triple =
      spirv::VerCapExtAttr::get(spirv::Version::V_1_3, caps, exts, context);
  return spirv::TargetEnvAttr::get(triple,
                                   spirv::getDefaultResourceLimits(context),
                                   spirv::ClientAPI::Vulkan);
}

void insertSPIRVDialect(DialectRegistry &registry) {
  registry.insert<spirv::SPIRVDialect>();
  registerSPIRVTargetModel(registry);
}

} // namespace

void mlir::amp::registerSPIRVTargetModel(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, spirv::SPIRVDialect *) {
    spirv::TargetEnvAttr::attachInterface<SPIRVTargetModel>(*ctx);
  });
}

void mlir::amp::registerSPIRVTargets() {
  TargetBackend backend{insertSPIRVDialect, buildVulkanTarget};
  registerTargetBackend(TargetKind::Vulkan, backend);
  registerTargetBackend(TargetKind::VulkanStorage16, backend);
}

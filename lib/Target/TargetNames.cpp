//===- TargetNames.cpp - The one vocabulary of target names ---------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Target/TargetNames.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::amp;

std::optional<TargetName> mlir::amp::parseTargetName(StringRef name) {
  TargetName target;
  if (name == "cpu")
    return target;
  if (name == "vulkan" || name == "vulkan-storage16") {
    target.kind =
        name == "vulkan" ? TargetKind::Vulkan : TargetKind::VulkanStorage16;
    return target;
  }
  StringRef chip = name;
  if (!chip.consume_front("sm_") || chip.empty() || !llvm::isDigit(chip[0]))
    return std::nullopt;
  StringRef digits = chip.take_while(llvm::isDigit);
  StringRef suffix = chip.drop_front(digits.size());
  if (digits.getAsInteger(10, target.sm) || target.sm < 20 ||
      !(suffix.empty() || suffix == "a" || suffix == "f"))
    return std::nullopt;
  target.kind = TargetKind::NVVM;
  target.chip = name.str();
  return target;
}

StringRef mlir::amp::getTargetNamesHelp() {
  return "cpu, vulkan, vulkan-storage16 or sm_<N>[a|f] with N >= 20";
}

SmallVector<StringRef> mlir::amp::getVulkanCapabilities(bool float16) {
  // Int16 and Int64 are what the lowering of index and i16 arithmetic in
  // kernels needs; lavapipe and every desktop driver have them.
  SmallVector<StringRef> caps = {"Shader", "StorageBuffer16BitAccess", "Int16",
                                 "Int64"};
  if (float16)
    caps.insert(caps.begin() + 1, "Float16");
  return caps;
}

SmallVector<StringRef> mlir::amp::getVulkanExtensions() {
  return {"SPV_KHR_16bit_storage", "SPV_KHR_storage_buffer_storage_class"};
}

Attribute mlir::amp::buildTargetAttr(MLIRContext *context,
                                     const TargetName &name) {
  switch (name.kind) {
  case TargetKind::CPU:
    return {};
  case TargetKind::NVVM:
    return NVVM::NVVMTargetAttr::get(context, /*optLevel=*/2,
                                     "nvptx64-nvidia-cuda", name.chip);
  case TargetKind::Vulkan:
  case TargetKind::VulkanStorage16:
    break;
  }
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

void mlir::amp::insertTargetDialects(DialectRegistry &registry,
                                     const TargetName &name) {
  if (name.kind == TargetKind::NVVM)
    registry.insert<NVVM::NVVMDialect>();
  else if (name.kind != TargetKind::CPU)
    registry.insert<spirv::SPIRVDialect>();
}

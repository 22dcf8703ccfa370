//===- TargetNames.cpp - The one vocabulary of target names ---------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Target/TargetNames.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/StringExtras.h"

#include <array>
#include <mutex>

using namespace mlir;
using namespace mlir::amp;

std::optional<TargetName> mlir::amp::parseTargetName(StringRef name) {
  TargetName target;
  target.spelling = name.str();
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

std::string mlir::amp::describeUnsupportedTarget(StringRef name) {
  return ("mixed-precision: unsupported target '" + name + "'; expected " +
          getTargetNamesHelp())
      .str();
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

namespace {
/// The backends registered per target kind.
struct TargetBackends {
  std::mutex mutex;
  std::array<std::optional<TargetBackend>, 4> byKind;
};
} // namespace

static TargetBackends &getTargetBackends() {
  static TargetBackends backends;
  return backends;
}

void mlir::amp::registerTargetBackend(TargetKind kind,
                                      const TargetBackend &backend) {
  TargetBackends &backends = getTargetBackends();
  std::lock_guard<std::mutex> lock(backends.mutex);
  backends.byKind[static_cast<size_t>(kind)] = backend;
}

const TargetBackend *mlir::amp::lookupTargetBackend(const TargetName &name) {
  TargetBackends &backends = getTargetBackends();
  std::lock_guard<std::mutex> lock(backends.mutex);
  std::optional<TargetBackend> &backend =
      backends.byKind[static_cast<size_t>(name.kind)];
  // Entries are never removed, so the pointer stays valid.
  return backend ? &*backend : nullptr;
}

StringRef mlir::amp::getTargetBackendDescription(TargetKind kind) {
  switch (kind) {
  case TargetKind::CPU:
    return "the CPU backend (amp::registerCPUTargets)";
  case TargetKind::Vulkan:
  case TargetKind::VulkanStorage16:
    return "the SPIR-V backend (amp::registerSPIRVTargets)";
  case TargetKind::NVVM:
    return "the GPU backend (amp::registerNVVMTargets)";
  }
  llvm_unreachable("unknown target kind");
}

FailureOr<Attribute> mlir::amp::buildTargetAttr(MLIRContext *context,
                                                const TargetName &name,
                                                Location loc) {
  const TargetBackend *backend = lookupTargetBackend(name);
  // Without the CPU backend, `cpu` is any target (everything supported).
  if (!backend && name.kind == TargetKind::CPU)
    return Attribute();
  if (!backend)
    return emitError(loc) << "target '" << name.spelling << "' needs "
                          << getTargetBackendDescription(name.kind)
                          << ", which is not registered in this program";
  return backend->buildAttr(context, name);
}

void mlir::amp::insertTargetDialects(DialectRegistry &registry,
                                     const TargetName &name) {
  if (const TargetBackend *backend = lookupTargetBackend(name))
    backend->insertDialects(registry);
}

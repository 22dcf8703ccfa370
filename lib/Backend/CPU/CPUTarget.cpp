//===- CPUTarget.cpp - What CPUs compute in f16 and bf16 ------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/CPUTarget.h"
#include "amp/Target/TargetCapabilities.h"
#include "amp/Target/TargetNames.h"

#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace mlir;
using namespace mlir::amp;

/// Whether `chip` adds bf16 products with the AVX512-BF16 dot product
/// (`vdpbf16ps`, two products per f32 lane) faster than it adds f32 products
/// with fused multiply-adds. Zen 4 does: its bf16 programs ran 1.1-1.8x
/// faster than f32 (docs/Performance.md). Intel's Emerald Rapids does not:
/// one dot product every two cycles against two FMAs a cycle, half f32's
/// rate (bench/cpu-rates), and its bf16 programs ran 1.3-1.5x slower than
/// f32. Chips not measured are not assumed fast.
bool mlir::amp::hasFastBF16Dot(StringRef chip) { return chip == "znver4"; }

namespace {

struct CPUTargetModel
    : AmpTargetAttrInterface::ExternalModel<CPUTargetModel, LLVM::TargetAttr> {
  bool supportsLowPrecision(Attribute attr, TargetOpKind kind,
                            FloatType type) const {
    auto target = cast<LLVM::TargetAttr>(attr);
    if (kind == TargetOpKind::Storage)
      return true;
    LLVM::TargetFeaturesAttr features = target.getFeatures();
    auto has = [&](StringRef feature) {
      return features && features.contains(feature);
    };
    llvm::Triple triple(target.getTriple().getValue());
    bool contraction = kind == TargetOpKind::Contraction;
    if (triple.isX86()) {
      // amp's x86 kernels compute f16 in f32 (AVX512-FP16 or F16C convert),
      // which made every model slower than f32 (docs/Performance.md).
      if (type.isF16())
        return false;
      StringAttr chip = target.getChip();
      return contraction && has("+avx512bf16") && chip &&
             hasFastBF16Dot(chip.getValue());
    }
    if (triple.isAArch64()) {
      if (type.isF16())
        return has("+fullfp16");
      return contraction && has("+bf16");
    }
    return true;
  }
};

void insertLLVMDialect(DialectRegistry &registry) {
  registry.insert<LLVM::LLVMDialect>();
  registerCPUTargetModel(registry);
}

Attribute buildHostTarget(MLIRContext *context, const TargetName &) {
  return getHostCPUTarget(context);
}

} // namespace

Attribute mlir::amp::getHostCPUTarget(MLIRContext *context) {
  SmallVector<std::string> enabled;
  for (const auto &[feature, on] : llvm::sys::getHostCPUFeatures())
    if (on)
      enabled.push_back(("+" + feature).str());
  llvm::sort(enabled);
  SmallVector<StringRef> names(enabled.begin(), enabled.end());
  return LLVM::TargetAttr::get(
      context, StringAttr::get(context, llvm::sys::getProcessTriple()),
      StringAttr::get(context, llvm::sys::getHostCPUName()),
      LLVM::TargetFeaturesAttr::get(context, names));
}

void mlir::amp::registerCPUTargetModel(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, LLVM::LLVMDialect *) {
    LLVM::TargetAttr::attachInterface<CPUTargetModel>(*ctx);
  });
}

void mlir::amp::registerCPUTargets() {
  registerTargetBackend(TargetKind::CPU,
                        TargetBackend{insertLLVMDialect, buildHostTarget});
}

std::optional<CPUVectorRegisters>
mlir::amp::getCPUVectorRegisters(StringRef cpu, StringRef tripleName) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
  });
  llvm::Triple triple(tripleName.empty() ? llvm::sys::getDefaultTargetTriple()
                                         : tripleName.str());
  std::string chip =
      cpu == "host" ? llvm::sys::getHostCPUName().str() : cpu.str();
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return std::nullopt;
  // The generic CPU first: asked for a CPU it does not know, LLVM would
  // print a warning of its own.
  std::unique_ptr<llvm::MCSubtargetInfo> generic(
      target->createMCSubtargetInfo(triple, "", /*Features=*/""));
  if (!generic || !generic->isCPUStringValid(chip))
    return std::nullopt;
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, chip, /*Features=*/""));
  if (!info)
    return std::nullopt;
  auto has = [&](StringRef feature) {
    const llvm::FeatureBitset &bits = info->getFeatureBits();
    for (const llvm::SubtargetFeatureKV &kv : info->getAllProcessorFeatures())
      if (feature == kv.Key)
        return bits.test(kv.Value);
    return false;
  };
  CPUVectorRegisters registers;
  if (triple.isX86()) {
    if (has("avx512f"))
      registers = {512, 32};
    else if (has("avx"))
      registers = {256, 16};
    else
      registers = {128, 16};
  } else if (triple.isAArch64()) {
    // NEON (and SVE's fixed-width view of it): 32 registers of 128 bits.
    registers = {128, 32};
  } else {
    return std::nullopt;
  }
  return registers;
}

CPURegisterTile
mlir::amp::chooseCPURegisterTile(const CPUVectorRegisters &registers) {
  CPURegisterTile tile;
  tile.lanes = std::max<int64_t>(1, registers.bits / 32);
  // Accumulators: at most 16, and four registers left for the `cols`
  // vectors a step reads and the scalar it broadcasts.
  int64_t accumulators = std::min<int64_t>(16, int64_t(registers.count) - 4);
  tile.cols = accumulators >= 12 ? 2 : 1;
  tile.rows = std::max<int64_t>(1, accumulators / tile.cols);
  return tile;
}

//===- TargetCapabilities.cpp - What a target can do in low precision -----===//

#include "amp/Interfaces/TargetCapabilities.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

using namespace mlir;
using namespace mlir::amp;

/// Vulkan/SPIR-V: f16 needs the Float16 capability to compute and 16-bit
/// storage-buffer access to be stored; bf16 has no arithmetic here, but its
/// 16-bit words can be stored and widened to f32 in the kernel.
static bool spirvSupports(spirv::TargetEnvAttr attr, TargetOpKind kind,
                          FloatType type) {
  spirv::TargetEnv env(attr);
  bool storage16 = env.allows(spirv::Capability::StorageBuffer16BitAccess);
  if (kind == TargetOpKind::Storage)
    return storage16;
  if (type.isF16())
    return storage16 && env.allows(spirv::Capability::Float16);
  return false;
}

/// NVIDIA: f16 arithmetic from sm_53, bf16 arithmetic from sm_80; either is
/// stored anywhere.
static bool nvvmSupports(NVVM::NVVMTargetAttr attr, TargetOpKind kind,
                         FloatType type) {
  if (kind == TargetOpKind::Storage)
    return true;
  StringRef chip = attr.getChip();
  unsigned sm = 0;
  if (!chip.consume_front("sm_") || chip.take_while(llvm::isDigit).getAsInteger(10, sm))
    return false;
  if (type.isF16())
    return sm >= 53;
  if (type.isBF16())
    return sm >= 80;
  return false;
}

bool mlir::amp::targetSupports(Attribute target, TargetOpKind kind,
                               FloatType type) {
  if (!type.isF16() && !type.isBF16())
    return true;
  if (auto spirvEnv = dyn_cast_if_present<spirv::TargetEnvAttr>(target))
    return spirvSupports(spirvEnv, kind, type);
  if (auto nvvm = dyn_cast_if_present<NVVM::NVVMTargetAttr>(target))
    return nvvmSupports(nvvm, kind, type);
  // No target, or one amp has no table for: the CPU path through LLVM, which
  // legalises f16 and bf16 for every kind of work.
  return true;
}

Attribute mlir::amp::getEnclosingTarget(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp()) {
    if (Attribute env = p->getAttr(spirv::getTargetEnvAttrName()))
      return env;
    if (auto gpuModule = dyn_cast<gpu::GPUModuleOp>(p))
      if (ArrayAttr targets = gpuModule.getTargetsAttr())
        for (Attribute t : targets)
          if (isa<NVVM::NVVMTargetAttr, spirv::TargetEnvAttr>(t))
            return t;
  }
  return {};
}

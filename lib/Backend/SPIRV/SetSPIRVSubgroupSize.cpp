//===- SetSPIRVSubgroupSize.cpp - The device's subgroup size --------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/SPIRV/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_SETSPIRVSUBGROUPSIZE
#include "amp/Backend/SPIRV/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
struct SetSPIRVSubgroupSize
    : amp::impl::SetSPIRVSubgroupSizeBase<SetSPIRVSubgroupSize> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    if (size < 1 || size > 128 || !llvm::isPowerOf2_64(size))
      return emitError(UnknownLoc::get(context))
             << "amp-set-spirv-subgroup-size: size must be a power of two "
                "from 1 to 128, got "
             << static_cast<int64_t>(size);
    return success();
  }

  void runOnOperation() override {
    getOperation()->walk([&](gpu::GPUModuleOp module) {
      ArrayAttr targets = module.getTargetsAttr();
      if (!targets)
        return;
      SmallVector<Attribute> updated;
      for (Attribute target : targets) {
        auto env = dyn_cast<spirv::TargetEnvAttr>(target);
        if (!env) {
          updated.push_back(target);
          continue;
        }
        spirv::ResourceLimitsAttr limits = env.getResourceLimits();
        auto sized = spirv::ResourceLimitsAttr::get(
            &getContext(), limits.getMaxComputeSharedMemorySize(),
            limits.getMaxComputeWorkgroupInvocations(),
            limits.getMaxComputeWorkgroupSize(), size, size, size,
            limits.getCooperativeMatrixPropertiesKhr(),
            limits.getCooperativeMatrixPropertiesNv());
        updated.push_back(spirv::TargetEnvAttr::get(
            env.getTripleAttr(), sized, env.getClientAPI(), env.getVendorID(),
            env.getDeviceType(), env.getDeviceID()));
      }
      module.setTargetsAttr(ArrayAttr::get(&getContext(), updated));
    });
  }
};
} // namespace

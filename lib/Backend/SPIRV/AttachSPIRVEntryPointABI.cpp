//===- AttachSPIRVEntryPointABI.cpp - Kernels as SPIR-V entry points ------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/SPIRV/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_ATTACHSPIRVENTRYPOINTABI
#include "amp/Backend/SPIRV/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
struct AttachSPIRVEntryPointABI
    : amp::impl::AttachSPIRVEntryPointABIBase<AttachSPIRVEntryPointABI> {
  using Base::Base;
  void runOnOperation() override {
    StringRef name = spirv::getEntryPointABIAttrName();
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel() || func->hasAttr(name))
        return;
      SmallVector<int32_t, 3> size{1, 1, 1};
      if (std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize())
        for (auto [i, v] : llvm::enumerate(*known))
          if (i < 3)
            size[i] = v;
      func->setAttr(name, spirv::getEntryPointABIAttr(&getContext(), size));
    });
  }
};
} // namespace

//===- NestSPIRVModules.cpp - Kernels' spirv.modules into gpu.modules -----===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/SPIRV/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_NESTSPIRVMODULES
#include "amp/Backend/SPIRV/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// The prefix convert-gpu-to-spirv gives the spirv.module made from a
/// gpu.module.
static constexpr StringLiteral kSPIRVModulePrefix = "__spv__";

namespace {
struct NestSPIRVModules : amp::impl::NestSPIRVModulesBase<NestSPIRVModules> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto spirvModule :
         llvm::make_early_inc_range(module.getOps<spirv::ModuleOp>())) {
      std::optional<StringRef> name = spirvModule.getName();
      auto gpuModule = name && name->starts_with(kSPIRVModulePrefix)
                           ? symbols.lookup<gpu::GPUModuleOp>(
                                 name->drop_front(kSPIRVModulePrefix.size()))
                           : gpu::GPUModuleOp();
      if (!gpuModule) {
        spirvModule.emitError("no gpu.module to nest this spirv.module in "
                              "(expected the name @")
            << kSPIRVModulePrefix << "<gpu.module name>)";
        return signalPassFailure();
      }
      if (!gpuModule.getOps<spirv::ModuleOp>().empty()) {
        spirvModule.emitError("gpu.module @")
            << gpuModule.getName() << " already holds a spirv.module";
        return signalPassFailure();
      }
      spirvModule->moveBefore(gpuModule.getBody(),
                              gpuModule.getBody()->begin());
    }
  }
};
} // namespace

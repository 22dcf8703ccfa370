//===- InitAll.h - Register everything amp provides -------------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INITALL_H
#define AMP_INITALL_H

#include "amp/Backend/CPU/CPUTarget.h"
#include "amp/Backend/GPU/NVVMTarget.h"
#include "amp/Backend/Passes.h"
#include "amp/Backend/SPIRV/SPIRVTarget.h"
#include "amp/Dialect/Amp/Amp.h"
#include "amp/Interfaces/ExternalModels.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Transforms/CastFolding.h"
#include "amp/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

namespace mlir {
namespace amp {

/// The amp dialect, every AmpOpInterface model, the backends' target models
/// and amp's cast folding as part of `--canonicalize`.
inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<AmpDialect>();
  registerAllExternalModels(registry);
  registerCPUTargetModel(registry);
  registerSPIRVTargetModel(registry);
  registerNVVMTargetModel(registry);
  registerCastFoldingCanonicalization(registry);
}

/// Every amp pass (the core's and the backends') and pipeline, and the
/// targets their options name (`mixed-precision{target=vulkan}`).
inline void registerAllPasses() {
  registerCPUTargets();
  registerSPIRVTargets();
  registerNVVMTargets();
  registerAmpPasses();
  registerAmpBackendPasses();
  registerAmpPipelines();
}

/// What every amp tool (amp-opt, amp-run, the C API) works with: MLIR's
/// dialects, extensions, LLVM IR translations and passes, and amp's. The
/// passes are registered process-wide: call it once per process.
inline void registerEverything(DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  amp::registerAllDialects(registry);
  mlir::registerAllPasses();
  amp::registerAllPasses();
}

} // namespace amp
} // namespace mlir

#endif // AMP_INITALL_H

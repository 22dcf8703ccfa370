//===- Pipelines.cpp - amp's lowering pipelines, registered
//-----------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pipelines are built where their backends live
// (lib/Backend/{CPU,GPU,SPIRV}/Pipeline.cpp) from the parts they share
// (lib/Pipelines/Common.cpp); this file registers them by name.
//
//===----------------------------------------------------------------------===//

#include "amp/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void mlir::amp::registerAmpPipelines() {
  PassPipelineRegistration<>(
      "amp-fuse-kernels",
      "Tensor-level kernels for amp's lowerings: branches lifted to scf, "
      "elementwise ops to linalg, "
      "aggregates decomposed, casts fused into their producers or consumers",
      buildAmpFuseKernelsPipeline);
  // Registered by hand, as amp-lower-to-nvvm below: a CPU LLVM does not
  // know fails the pipeline.
  registerPassPipeline(
      "amp-lower-to-llvm",
      "Lower mixed-precision output to the LLVM dialect for the CPU",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> emitError) {
        LowerToLLVMOptions options;
        if (failed(options.parseFromString(text)) ||
            failed(verifyLowerToLLVMOptions(options, emitError)))
          return failure();
        buildAmpLowerToLLVMPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(LowerToLLVMOptions());
      });
  PassPipelineRegistration<LowerToSPIRVOptions>(
      "amp-lower-to-spirv",
      "Lower mixed-precision output to Vulkan compute kernels (SPIR-V)",
      [](OpPassManager &pm, const LowerToSPIRVOptions &options) {
        buildAmpLowerToSPIRVPipeline(pm, options);
      });
  PassPipelineRegistration<LowerToSPIRVOptions>(
      "amp-lower-to-vulkan",
      "Lower mixed-precision output to SPIR-V kernels in gpu.binary ops and "
      "LLVM host code that launches them through amp's Vulkan runtime "
      "(libamp_vulkan_runtime)",
      [](OpPassManager &pm, const LowerToSPIRVOptions &options) {
        buildAmpLowerToVulkanPipeline(pm, options);
      });
  // Registered by hand so that bad options fail the pipeline instead of
  // reaching the NVVM target with a warning.
  registerPassPipeline(
      "amp-lower-to-nvvm",
      "Lower mixed-precision output to NVIDIA GPU kernels (NVVM, PTX, cubin)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> emitError) {
        LowerToNVVMOptions options;
        if (failed(options.parseFromString(text)) ||
            failed(verifyLowerToNVVMOptions(options, emitError)))
          return failure();
        buildAmpLowerToNVVMPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(LowerToNVVMOptions());
      });
}

//===- Pipeline.cpp - amp-lower-to-spirv and amp-lower-to-vulkan
//------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/GPU/Passes.h"
#include "amp/Backend/SPIRV/Passes.h"
#include "amp/Pipelines/Common.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Target/TargetNames.h"

#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::amp::buildAmpLowerToSPIRVPipeline(
    OpPassManager &pm, const LowerToSPIRVOptions &options) {
  // Shuffles only when told the device's subgroup size: their width must
  // be it, and a Vulkan target env does not fix it.
  buildAmpGPUKernelsPipeline(
      pm, options.kernelStrategies, options.subgroupSize,
      [&](OpPassManager &func) {
        if (options.cooperativeMatrix) {
          amp::TileContractionsForCooperativeMatricesOptions cooperative;
          cooperative.subgroupSize = options.subgroupSize;
          func.addPass(
              amp::createTileContractionsForCooperativeMatrices(cooperative));
        } else if (options.tensorCoreEmulation) {
          // The NVVM backend's tensor-core kernels, their warp-level ops
          // run through workgroup memory.
          amp::TileContractionsForTensorCoresOptions mma;
          mma.tf32 = options.tf32;
          func.addPass(amp::createTileContractionsForTensorCores(mma));
          func.addPass(amp::createEmulateTensorCores());
        }
      });
  // Workgroup buffers in SPIR-V's Workgroup storage class.
  pm.addPass(amp::createWorkgroupAllocsToSPIRV());
  // SPIR-V for Vulkan has no bf16: kernels keep it in memory as i16 and
  // compute in f32.
  pm.addPass(amp::createEmulateBF16Storage());
  pm.nest<gpu::GPUModuleOp>().addPass(createCSEPass());
  pm.addPass(amp::createAttachSPIRVEntryPointABI());
  GpuSPIRVAttachTargetOptions target;
  target.spirvVersion = "v1.3";
  // Int16: bf16 kept as i16 (amp-emulate-bf16-storage) is loaded, stored and
  // converted as i16.
  // The capabilities mixed-precision{target=vulkan} decides for.
  for (StringRef cap : getVulkanCapabilities(/*float16=*/true))
    target.spirvCapabilities.push_back(cap.str());
  if (options.subgroupSize > 0) {
    target.spirvCapabilities.push_back("GroupNonUniform");
    target.spirvCapabilities.push_back("GroupNonUniformShuffle");
  }
  if (options.cooperativeMatrix) {
    // The KHR cooperative-matrix ops need SPIR-V 1.6 (Vulkan 1.3).
    target.spirvVersion = "v1.6";
    target.spirvCapabilities.push_back("CooperativeMatrixKHR");
    target.spirvExtensions.push_back("SPV_KHR_cooperative_matrix");
  }
  for (StringRef ext : getVulkanExtensions())
    target.spirvExtensions.push_back(ext.str());
  pm.addPass(createGpuSPIRVAttachTarget(target));
  if (options.subgroupSize > 0) {
    amp::SetSPIRVSubgroupSizeOptions subgroups;
    subgroups.size = options.subgroupSize;
    pm.addPass(amp::createSetSPIRVSubgroupSize(subgroups));
  }
  // Math functions on f16 are evaluated in f32 and rounded (the SPIR-V
  // lowering of some, such as tanh, goes through f32 with casts that
  // convert-gpu-to-spirv cannot legalize).
  pm.nest<gpu::GPUModuleOp>().addPass(math::createMathExtendToSupportedTypes());
  // GLSL has no erf (GELU): a polynomial in f32 instead.
  pm.nest<gpu::GPUModuleOp>().addPass(
      createApproximateMathFor({"erf", "erfc"}));
  // SPIR-V has no rounding integer divisions (tosa.resize's indices).
  pm.nest<gpu::GPUModuleOp>().addPass(amp::createExpandFloorCeilDiv());
  pm.nest<gpu::GPUModuleOp>().addPass(createConvertMathToSPIRVPass());
  // 32-bit indices (the default), memory spaces mapped to storage classes.
  pm.addPass(createConvertGPUToSPIRVPass());
  OpPassManager &spirvModule = pm.nest<spirv::ModuleOp>();
  spirvModule.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvModule.addPass(spirv::createSPIRVUpdateVCEPass());
}

void mlir::amp::buildAmpLowerToVulkanPipeline(
    OpPassManager &pm, const LowerToSPIRVOptions &options) {
  buildAmpLowerToSPIRVPipeline(pm, options);
  // Kernels: each spirv.module serialised into the gpu.binary that replaces
  // its gpu.module.
  pm.addPass(amp::createNestSPIRVModules());
  pm.addPass(createGpuModuleToBinaryPass());
  // Host: the calling convention of amp's Vulkan runtime (and upstream's):
  // each buffer argument of a kernel is passed as its pointer followed by
  // its size in bytes.
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  GpuToLLVMConversionPassOptions host;
  host.hostBarePtrCallConv = false;
  host.kernelBarePtrCallConv = true;
  host.kernelIntersperseSizeCallConv = true;
  pm.addPass(createGpuToLLVMConversionPass(host));
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

//===- Pipeline.cpp - The GPU kernels and amp-lower-to-nvvm
//-----------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/Passes.h"
#include "amp/Backend/GPU/Passes.h"
#include "amp/Pipelines/Common.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Target/TargetNames.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <cstdlib>

using namespace mlir;

void mlir::amp::buildAmpGPUKernelsPipeline(
    OpPassManager &pm, bool strategies, int64_t subgroupSize,
    function_ref<void(OpPassManager &)> addContractionKernels) {
  buildAmpFuseKernelsPipeline(pm);
  if (strategies) {
    // Without unit dimensions, the ops of a softmax or layer norm see their
    // rows alike (a reduction over a 450x8x1x32 view and the elementwise
    // ops on the 450x8x32 tensor are one run of row ops).
    OpPassManager &func = pm.nest<func::FuncOp>();
    func.addPass(createLinalgFoldUnitExtentDimsPass());
    func.addPass(amp::createFuseElementwise());
    func.addPass(createCanonicalizerPass());
    func.addPass(createCSEPass());
  }
  buildAmpBufferizePipeline(pm);
  // Temporaries are freed on the host when they die.
  pm.addPass(amp::createFreeTemporaries());
  OpPassManager &func = pm.nest<func::FuncOp>();
  // Kernels take identity-layout buffers (Vulkan's calling convention passes
  // a buffer as a bare pointer and a size, without offset or strides):
  // strided views are copied on the host.
  func.addPass(amp::createContiguousKernelBuffers());
  // Contractions as kernels that stage operand tiles in workgroup memory
  // and keep accumulators in registers (the strategy both GPU backends
  // share); the rest as loops over the output.
  // (The backend's own first: tensor cores, cooperative matrices.)
  if (strategies && addContractionKernels)
    addContractionKernels(func);
  if (strategies)
    func.addPass(amp::createTileContractionsForGPU());
  // One scf.parallel per kernel, with its reductions as scf.for loops inside
  // (a reduction over a middle axis would otherwise split the parallel
  // loops around an scf.for, which cannot be mapped to threads).
  func.addPass(amp::createReductionLoopsInnermost());
  // Long row reductions with a workgroup per row.
  if (strategies) {
    // Softmax and layer norm: each row read once by one workgroup.
    amp::FuseRowsInWorkgroupsOptions runs;
    runs.subgroupSize = subgroupSize;
    func.addPass(amp::createFuseRowsInWorkgroups(runs));
    amp::ReduceRowsInWorkgroupsOptions rows;
    rows.subgroupSize = subgroupSize;
    func.addPass(amp::createReduceRowsInWorkgroups(rows));
  }
  func.addPass(createConvertLinalgToParallelLoopsPass());
  // Workgroups (blocks) of up to 64 invocations (threads) each.
  func.addPass(amp::createTileParallelLoopsForGPU());
  func.addPass(createGpuMapParallelLoopsPass());
  func.addPass(createConvertParallelLoopToGpuPass());
  // Folds the launch sizes to constants (the kernels' known block sizes).
  func.addPass(createCanonicalizerPass());
  pm.addPass(createLowerAffinePass());
  // Constants and index arithmetic the kernels use are recomputed inside
  // them instead of being passed as arguments (Vulkan kernels take buffers
  // only).
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
}

llvm::StringRef mlir::amp::stringifyNVVMFormat(NVVMFormat format) {
  switch (format) {
  case NVVMFormat::Bin:
    return "bin";
  case NVVMFormat::Isa:
    return "isa";
  case NVVMFormat::Fatbin:
    return "fatbin";
  }
  llvm_unreachable("unknown NVVMFormat");
}

LogicalResult mlir::amp::verifyLowerToNVVMOptions(
    const LowerToNVVMOptions &options,
    function_ref<LogicalResult(const Twine &)> emitError) {
  std::optional<TargetName> target = parseTargetName(options.chip);
  if (!target || target->kind != TargetKind::NVVM)
    return emitError("amp-lower-to-nvvm: chip must be sm_<N>[a|f] with "
                     "N >= 20, got '" +
                     options.chip + "'");
  // TF32 runs on tensor cores; without them it would silently do nothing.
  if (options.tf32 &&
      (!options.tensorCores || !options.kernelStrategies || target->sm < 80))
    return emitError("amp-lower-to-nvvm: tf32 computes on tensor cores, "
                     "which need tensor-cores, kernel-strategies and sm_80 "
                     "or later");
  if (!options.libdevice.empty() &&
      !llvm::sys::fs::is_regular_file(options.libdevice))
    return emitError("amp-lower-to-nvvm: libdevice '" + options.libdevice +
                     "' is not a file");
  return success();
}

std::string mlir::amp::findLibdevice() {
  SmallVector<std::string> roots;
  for (const char *variable : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *value = std::getenv(variable))
      roots.push_back(value);
  if (std::optional<std::string> ptxas =
          llvm::sys::Process::FindInEnvPath("PATH", "ptxas")) {
    // <root>/bin/ptxas, with the links resolved (/usr/bin/ptxas may point
    // into the toolkit).
    SmallString<256> real;
    if (!llvm::sys::fs::real_path(*ptxas, real))
      roots.push_back(
          llvm::sys::path::parent_path(llvm::sys::path::parent_path(real))
              .str());
  }
  roots.push_back("/usr/local/cuda");
  for (const std::string &root : roots) {
    SmallString<256> path(root);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::is_regular_file(path))
      return path.str().str();
  }
  // Debian's nvidia-cuda-toolkit.
  StringRef debian = "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc";
  return llvm::sys::fs::is_regular_file(debian) ? debian.str() : "";
}

void mlir::amp::buildAmpLowerToNVVMPipeline(OpPassManager &pm,
                                            const LowerToNVVMOptions &options) {
  // NVIDIA's warps are 32 threads; mma.sync on 16-bit operands needs
  // sm_80.
  std::optional<TargetName> chip = parseTargetName(options.chip);
  bool tensorCores = options.tensorCores && chip && chip->sm >= 80;
  buildAmpGPUKernelsPipeline(
      pm, options.kernelStrategies, /*subgroupSize=*/32,
      [&](OpPassManager &func) {
        if (!tensorCores)
          return;
        amp::TileContractionsForTensorCoresOptions mma;
        mma.tf32 = options.tf32;
        func.addPass(amp::createTileContractionsForTensorCores(mma));
      });
  // Workgroup buffers as the kernels' workgroup attributions (.shared).
  pm.addPass(amp::createWorkgroupAllocsToAttributions());
  // Upstream's gpu-lower-to-nvvm-pipeline, pass for pass, but for the
  // target: it attaches its own #nvvm.target, which links no libdevice
  // unless $CUDA_ROOT, $CUDA_HOME or $CUDA_PATH says where the toolkit is,
  // and a kernel's math functions (math.tanh, exp, erf, ...) become calls to
  // libdevice's __nv_* functions: without it the driver or ptxas stops at
  // the first one.
  // Tensor-core kernels: bf16 mma.sync, which convert-nvgpu-to-nvvm does
  // not lower.
  pm.addPass(amp::createConvertBF16MMAToNVVM());
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  std::string libdevice = options.libdevice.empty()
                              ? findLibdevice()
                              : options.libdevice.getValue();
  if (!libdevice.empty())
    target.linkLibs.push_back(libdevice);
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  ConvertIndexToLLVMPassOptions index;
  index.indexBitwidth = 64;
  pm.addPass(createConvertIndexToLLVMPass(index));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  ConvertGpuOpsToNVVMOpsOptions kernels;
  kernels.indexBitwidth = 64;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(kernels));
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = stringifyNVVMFormat(options.format).str();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

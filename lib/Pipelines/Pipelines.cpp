//===- Pipelines.cpp - amp's lowering pipelines ---------------------------===//

#include "amp/Pipelines/Pipelines.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::amp::buildAmpFuseKernelsPipeline(OpPassManager &pm) {
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions());
  OpPassManager &func = pm.nest<func::FuncOp>();
  func.addPass(amp::createSplitCastsForFusion());
  func.addPass(createConvertElementwiseToLinalgPass());
  func.addPass(amp::createDecomposeAggregates());
  func.addPass(createLinalgGeneralizeNamedOpsPass());
  func.addPass(createLinalgElementwiseOpFusionPass());
  func.addPass(createCanonicalizerPass());
  func.addPass(createCSEPass());
}

static void bufferize(OpPassManager &pm);

void mlir::amp::buildAmpLowerToLLVMPipeline(OpPassManager &pm) {
  buildAmpFuseKernelsPipeline(pm);
  bufferize(pm);
  pm.nest<func::FuncOp>().addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// The kernels on buffers, with function boundaries of identity layout.
static void bufferize(OpPassManager &pm) {
  bufferization::OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = true;
  options.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(options));
}

void mlir::amp::buildAmpLowerToNVVMPipeline(OpPassManager &pm,
                                            const LowerToNVVMOptions &options) {
  buildAmpFuseKernelsPipeline(pm);
  bufferize(pm);
  OpPassManager &func = pm.nest<func::FuncOp>();
  func.addPass(createConvertLinalgToParallelLoopsPass());
  func.addPass(createGpuMapParallelLoopsPass());
  func.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createGpuKernelOutliningPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  pm.addPass(createGpuNVVMAttachTarget(target));
  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = options.chip;
  nvvm.cubinFeatures = options.features;
  nvvm.cubinFormat = options.format;
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
}

void mlir::amp::registerAmpPipelines() {
  PassPipelineRegistration<>(
      "amp-fuse-kernels",
      "Tensor-level kernels for amp's lowerings: elementwise ops to linalg, "
      "aggregates decomposed, casts fused into their producers or consumers",
      buildAmpFuseKernelsPipeline);
  PassPipelineRegistration<>(
      "amp-lower-to-llvm",
      "Lower mixed-precision output to the LLVM dialect for the CPU",
      buildAmpLowerToLLVMPipeline);
  PassPipelineRegistration<LowerToNVVMOptions>(
      "amp-lower-to-nvvm",
      "Lower mixed-precision output to NVIDIA GPU kernels (NVVM, PTX, cubin)",
      buildAmpLowerToNVVMPipeline);
}

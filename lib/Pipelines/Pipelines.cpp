//===- Pipelines.cpp - amp's lowering pipelines ---------------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Pipelines/Pipelines.h"
#include "amp/Backend/Passes.h"
#include "amp/Target/TargetNames.h"

#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <cstdlib>

using namespace mlir;

void mlir::amp::buildAmpFuseKernelsPipeline(OpPassManager &pm) {
  // Branches between blocks become scf.if and scf.while first: fusion and
  // bufferization see structured control flow, and ownership-based
  // deallocation (amp-free-temporaries) is not handed block arguments it
  // mishandles (a buffer live across a branch crashed it).
  pm.nest<func::FuncOp>().addPass(createLiftControlFlowToSCFPass());
  // Buffers read from tensors before CSE and canonicalisation can move the
  // reads away from where the tensor is still intact.
  pm.nest<func::FuncOp>().addPass(amp::createCopyTensorsToBuffers());
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions());
  OpPassManager &func = pm.nest<func::FuncOp>();
  // What tosa-to-linalg leaves: tosa.const, reshape, slice (also made by
  // its own canonicalizations, e.g. a transpose of unit dimensions).
  func.addPass(createTosaToArithPass());
  func.addPass(createTosaToTensorPass());
  func.addPass(amp::createSplitCastsForFusion());
  func.addPass(createConvertElementwiseToLinalgPass());
  func.addPass(amp::createDecomposeAggregates());
  func.addPass(createLinalgGeneralizeNamedOpsPass());
  func.addPass(amp::createFuseElementwise());
  func.addPass(createCanonicalizerPass());
  func.addPass(createCSEPass());
}

static void bufferize(OpPassManager &pm);

/// amp-approximate-math for `functions`.
static std::unique_ptr<Pass>
approximateMath(std::initializer_list<const char *> functions) {
  amp::ApproximateMathOptions options;
  options.functions.assign(functions.begin(), functions.end());
  return amp::createApproximateMath(options);
}

void mlir::amp::buildAmpLowerToLLVMPipeline(OpPassManager &pm,
                                            const LowerToLLVMOptions &options) {
  // A bf16 convolution's f32 sums handed on as they are where the program
  // only widens its bf16 result (excess precision, as below).
  if (options.excessPrecision)
    pm.nest<func::FuncOp>().addPass(amp::createWideConvolutionResults());
  buildAmpFuseKernelsPipeline(pm);
  OpPassManager &func = pm.nest<func::FuncOp>();
  // Without unit dimensions (a depthwise convolution's channel multiplier
  // of 1, the 1x1 window of a pointwise one), an op's innermost dimension
  // is one the kernels can vectorize, and the layout changes around
  // convolutions fuse with the elementwise ops next to them.
  func.addPass(createLinalgFoldUnitExtentDimsPass());
  // Results with several users in the layout of the op's inputs (NHWC
  // around convolutions), which makes more of them fusable.
  func.addPass(amp::createPropagateLayouts());
  func.addPass(amp::createFuseElementwise());
  func.addPass(createCanonicalizerPass());
  func.addPass(createCSEPass());
  // Weights in the order the contraction kernels read them.
  amp::PackWeightsOptions pack;
  pack.bf16Pairs = options.bf16Dot;
  func.addPass(amp::createPackWeights(pack));
  // f16/bf16 operands that a kernel would widen at each of its many reads
  // widened once; the widening of a computed operand fuses with the op
  // that computes it, and the widenings of one value for several ops (a
  // weight that each step of an unrolled recurrence reads) are one.
  if (options.widenReusedInputs) {
    amp::WidenReusedInputsOptions widen;
    widen.keepBF16Products = options.bf16Dot;
    func.addPass(amp::createWidenReusedInputs(widen));
    func.addPass(amp::createFuseElementwise());
    func.addPass(createCSEPass());
  }
  // Padded convolution inputs: the border filled, the interior written by
  // the op that computes it.
  func.addPass(amp::createPadInPlace());
  bufferize(pm);
  // (The slices written in place leave copies of a view onto itself.)
  pm.nest<func::FuncOp>().addPass(createCSEPass());
  pm.nest<func::FuncOp>().addPass(createCanonicalizerPass());
  // With threads: large ops in one slice per thread (scf.forall), each
  // vectorized below as the whole op would be.
  // (A count out of range fails in the pass, with its message.)
  bool threaded = options.threads > 1;
  if (options.threads != 1) {
    amp::DistributeForThreadsOptions distribute;
    distribute.threads = options.threads;
    pm.nest<func::FuncOp>().addPass(
        amp::createDistributeForThreads(distribute));
  }
  // Contractions, convolutions and pools as register-tiled vector kernels.
  amp::VectorizeContractionsOptions kernels;
  kernels.bf16Dot = options.bf16Dot;
  kernels.cols = options.tileCols;
  pm.nest<func::FuncOp>().addPass(amp::createVectorizeContractions(kernels));
  // Kernels move data in vectors, so that f16/bf16 buffers halve the bytes
  // moved; ops the vectorizer cannot take become scalar loops.
  pm.nest<func::FuncOp>().addPass(amp::createVectorizeForCPU());
  pm.nest<func::FuncOp>().addPass(createCanonicalizerPass());
  // Temporaries are freed when they die (results are owned by the caller).
  pm.addPass(amp::createFreeTemporaries());
  pm.nest<func::FuncOp>().addPass(createConvertLinalgToLoopsPass());
  // bf16 arithmetic, which LLVM computes in f32 op by op, rounded once after
  // a chain of ops instead of after each.
  if (options.excessPrecision)
    pm.nest<func::FuncOp>().addPass(amp::createExcessPrecision());
  // tanh, exp, log and erf (GELU's) as vector code (LLVM would call libm
  // per element: the digits transformer spent half its time in erff).
  pm.nest<func::FuncOp>().addPass(
      approximateMath({"tanh", "exp", "log", "erf"}));
  // The vectorized tiles' reductions (over their unit reduction dimensions,
  // e.g. a matmul tile's k) become plain vector arithmetic.
  pm.nest<func::FuncOp>().addPass(vector::createLowerVectorMultiReductionPass(
      vector::VectorMultiReductionLowering::InnerReduction));
  // n-d transfers (of tiles that keep more than one dimension) become loops
  // of 1-d ones, which LLVM loads and stores as vectors.
  pm.addPass(createConvertVectorToSCFPass());
  // What that unrolls to single elements are loads and stores.
  pm.addPass(amp::createLowerScalarTransfers());
  // The slices run on OpenMP threads.
  if (threaded) {
    pm.nest<func::FuncOp>().addPass(createForallToParallelLoopPass());
    ConvertSCFToOpenMPPassOptions openmp;
    openmp.numThreads = options.threads;
    pm.addPass(createConvertSCFToOpenMPPass(openmp));
    // The conversion wraps each slice in a memref.alloca_scope, which must
    // stay one block: scopes without allocas are inlined before the loops
    // in them become branches.
    pm.addPass(createCanonicalizerPass());
    // One fork and join for a run of ops instead of one per op.
    pm.nest<func::FuncOp>().addPass(amp::createMergeParallelRegions());
  }
  // Each kernel a function of its own, compiled in parallel, named in
  // profiles.
  if (options.outlineKernels)
    pm.addPass(amp::createOutlineKernels());
  // The loops around the kernels' inner loops are not unrolled by LLVM
  // (most of its compile time went there).
  if (options.boundLLVMUnrolling)
    pm.addPass(amp::createBoundLLVMUnrolling());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.x86Vector = options.bf16Dot;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  pm.addPass(createConvertToLLVMPass());
  // Math ops LLVM has no lowering for (math.erf from tosa.erf) become libm
  // calls; everything else was lowered above.
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (options.boundLLVMUnrolling)
    pm.addPass(amp::createBoundLLVMUnrolling());
}

/// The kernels on buffers, with function boundaries of identity layout.
static void bufferize(OpPassManager &pm) {
  // A destination that starts as a fill CSE shared with others would be a
  // copy of the filled buffer; it gets a fill of its own.
  pm.nest<func::FuncOp>().addPass(amp::createFillPerInit());
  // An op whose result is inserted into a larger tensor (a concatenation's
  // pieces) writes straight into its place there.
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = true;
  // Loops may carry freshly computed tensors (amp-free-temporaries frees
  // the buffers of earlier iterations).
  options.allowReturnAllocsFromLoops = true;
  options.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(options));
}

/// Fused kernels on buffers, as outlined GPU kernels: with `strategies`,
/// contractions and row reductions through the shared kernel strategies,
/// whose threads of a subgroup exchange values with shuffles where
/// `subgroupSize` is not 0, and f16/bf16 contractions on NVIDIA's tensor
/// cores with `tensorCores`.
enum class TensorCores { None, Native, Emulated, Cooperative };
static void buildGPUKernels(OpPassManager &pm, bool strategies,
                            int64_t subgroupSize,
                            TensorCores tensorCores = TensorCores::None,
                            bool tf32 = false) {
  amp::buildAmpFuseKernelsPipeline(pm);
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
  bufferize(pm);
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
  if (strategies && (tensorCores == TensorCores::Native ||
                     tensorCores == TensorCores::Emulated)) {
    amp::TileContractionsForTensorCoresOptions mma;
    mma.tf32 = tf32;
    func.addPass(amp::createTileContractionsForTensorCores(mma));
  }
  if (strategies && tensorCores == TensorCores::Cooperative) {
    amp::TileContractionsForCooperativeMatricesOptions cooperative;
    cooperative.subgroupSize = subgroupSize;
    func.addPass(amp::createTileContractionsForCooperativeMatrices(cooperative));
  }
  if (strategies && tensorCores == TensorCores::Emulated)
    func.addPass(amp::createEmulateTensorCores());
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

void mlir::amp::buildAmpLowerToSPIRVPipeline(
    OpPassManager &pm, const LowerToSPIRVOptions &options) {
  // Shuffles only when told the device's subgroup size: their width must
  // be it, and a Vulkan target env does not fix it.
  TensorCores tensorCores = TensorCores::None;
  if (options.cooperativeMatrix)
    tensorCores = TensorCores::Cooperative;
  else if (options.tensorCoreEmulation)
    tensorCores = TensorCores::Emulated;
  buildGPUKernels(pm, options.kernelStrategies, options.subgroupSize,
                  tensorCores, options.tf32);
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
  pm.nest<gpu::GPUModuleOp>().addPass(approximateMath({"erf", "erfc"}));
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

LogicalResult mlir::amp::verifyLowerToNVVMOptions(
    const LowerToNVVMOptions &options,
    function_ref<LogicalResult(const Twine &)> emitError) {
  std::optional<TargetName> target = parseTargetName(options.chip);
  if (!target || target->kind != TargetKind::NVVM)
    return emitError("amp-lower-to-nvvm: chip must be sm_<N>[a|f] with "
                     "N >= 20, got '" +
                     options.chip + "'");
  if (options.format != "bin" && options.format != "isa" &&
      options.format != "fatbin")
    return emitError("amp-lower-to-nvvm: format must be bin, isa or fatbin, "
                     "got '" +
                     options.format + "'");
  // TF32 runs on tensor cores; without them it would silently do nothing.
  if (options.tf32 && (!options.tensorCores || !options.kernelStrategies ||
                       target->sm < 80))
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
  buildGPUKernels(pm, options.kernelStrategies, /*subgroupSize=*/32,
                  tensorCores ? TensorCores::Native : TensorCores::None,
                  options.tf32);
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
  std::string libdevice =
      options.libdevice.empty() ? findLibdevice() : options.libdevice.getValue();
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
  binary.compilationTarget = options.format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::amp::registerAmpPipelines() {
  PassPipelineRegistration<>(
      "amp-fuse-kernels",
      "Tensor-level kernels for amp's lowerings: branches lifted to scf, "
      "elementwise ops to linalg, "
      "aggregates decomposed, casts fused into their producers or consumers",
      buildAmpFuseKernelsPipeline);
  PassPipelineRegistration<LowerToLLVMOptions>(
      "amp-lower-to-llvm",
      "Lower mixed-precision output to the LLVM dialect for the CPU",
      [](OpPassManager &pm, const LowerToLLVMOptions &options) {
        buildAmpLowerToLLVMPipeline(pm, options);
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

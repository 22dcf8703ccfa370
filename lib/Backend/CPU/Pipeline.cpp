//===- Pipeline.cpp - amp-lower-to-llvm, the CPU pipeline
//-------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/CPUTarget.h"
#include "amp/Backend/CPU/Passes.h"
#include "amp/Backend/Common/Passes.h"
#include "amp/Pipelines/Common.h"
#include "amp/Pipelines/Pipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

LogicalResult mlir::amp::verifyLowerToLLVMOptions(
    const LowerToLLVMOptions &options,
    function_ref<LogicalResult(const Twine &)> emitError) {
  if (!options.cpu.empty() &&
      !getCPUVectorRegisters(options.cpu, options.triple))
    return emitError(
        "amp-lower-to-llvm: LLVM knows no CPU '" + options.cpu + "'" +
        (options.triple.empty() ? Twine("")
                                : " for triple '" + options.triple + "'") +
        " (names as llc -mcpu takes them, or host)");
  return success();
}

void mlir::amp::buildAmpLowerToLLVMPipeline(OpPassManager &pm,
                                            const LowerToLLVMOptions &options) {
  // The register tile from the CPU's vector registers, where it is named.
  std::optional<CPURegisterTile> tile;
  if (!options.cpu.empty())
    if (std::optional<CPUVectorRegisters> registers =
            getCPUVectorRegisters(options.cpu, options.triple))
      tile = chooseCPURegisterTile(*registers);
  // A bf16 convolution's f32 sums handed on as they are where the program
  // only widens its bf16 result (excess precision, as below).
  if (options.excessPrecision)
    pm.nest<func::FuncOp>().addPass(amp::createWideConvolutionResults());
  buildAmpFuseKernelsPipeline(pm);
  OpPassManager &func = pm.nest<func::FuncOp>();
  // A pool whose neighbours compute in NCHW without the transposes to and
  // from NHWC around it.
  func.addPass(amp::createPoolsInNeighbourLayout());
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
    if (tile)
      widen.tileRows = tile->rows;
    func.addPass(amp::createWidenReusedInputs(widen));
    func.addPass(amp::createFuseElementwise());
    func.addPass(createCSEPass());
  }
  // Padded convolution inputs: the border filled, the interior written by
  // the op that computes it.
  func.addPass(amp::createConcatInPlace());
  func.addPass(amp::createPadInPlace());
  buildAmpBufferizePipeline(pm);
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
  if (tile) {
    kernels.lanes = tile->lanes;
    kernels.rows = tile->rows;
    if (!options.tileCols.getNumOccurrences())
      kernels.cols = tile->cols;
  }
  pm.nest<func::FuncOp>().addPass(amp::createVectorizeContractions(kernels));
  // Kernels move data in vectors, so that f16/bf16 buffers halve the bytes
  // moved; ops the vectorizer cannot take become scalar loops.
  pm.nest<func::FuncOp>().addPass(amp::createVectorizeForCPU());
  pm.nest<func::FuncOp>().addPass(createCanonicalizerPass());
  // On one thread, each kernel becomes a function of its own now, so that
  // the passes below run on the kernels in parallel (the context's
  // threads); with OpenMP, after its regions are merged across kernels.
  bool outlineEarly = options.outlineKernels && !threaded;
  if (outlineEarly)
    pm.addPass(amp::createOutlineKernels());
  // Temporaries are freed when they die (results are owned by the caller).
  pm.addPass(amp::createFreeTemporaries());
  OpPassManager &perKernel = pm.nest<func::FuncOp>();
  perKernel.addPass(createConvertLinalgToLoopsPass());
  // bf16 arithmetic, which LLVM computes in f32 op by op, rounded once after
  // a chain of ops instead of after each.
  if (options.excessPrecision)
    perKernel.addPass(amp::createExcessPrecision());
  // tanh, exp, log and erf (GELU's) as vector code (LLVM would call libm
  // per element: the digits transformer spent half its time in erff).
  perKernel.addPass(createApproximateMathFor({"tanh", "exp", "log", "erf"}));
  // The vectorized tiles' reductions (over their unit reduction dimensions,
  // e.g. a matmul tile's k) become plain vector arithmetic.
  perKernel.addPass(vector::createLowerVectorMultiReductionPass(
      vector::VectorMultiReductionLowering::InnerReduction));
  // n-d transfers (of tiles that keep more than one dimension) become loops
  // of 1-d ones, which LLVM loads and stores as vectors.
  perKernel.addPass(createConvertVectorToSCFPass());
  // What that unrolls to single elements are loads and stores.
  perKernel.addPass(amp::createLowerScalarTransfers());
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
  if (options.outlineKernels && !outlineEarly)
    pm.addPass(amp::createOutlineKernels());
  // The loops around the kernels' inner loops are not unrolled by LLVM
  // (most of its compile time went there).
  if (options.boundLLVMUnrolling)
    pm.addPass(amp::createBoundLLVMUnrolling());
  OpPassManager &functions = pm.nest<func::FuncOp>();
  functions.addPass(createSCFToControlFlowPass());
  functions.addPass(memref::createExpandStridedMetadataPass());
  functions.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  amp::ConvertVectorToLLVMPerFunctionOptions vectorToLLVM;
  vectorToLLVM.x86Vector = options.bf16Dot;
  pm.addPass(amp::createConvertVectorToLLVMPerFunction(vectorToLLVM));
  pm.addPass(createConvertToLLVMPass());
  // Math ops LLVM has no lowering for (math.erf from tosa.erf) become libm
  // calls; everything else was lowered above.
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (options.boundLLVMUnrolling)
    pm.addPass(amp::createBoundLLVMUnrolling());
}

//===- Common.cpp - What amp's lowerings share
//------------------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Pipelines/Common.h"
#include "amp/Backend/Common/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

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

std::unique_ptr<Pass>
mlir::amp::createApproximateMathFor(ArrayRef<const char *> functions) {
  amp::ApproximateMathOptions options;
  options.functions.assign(functions.begin(), functions.end());
  return amp::createApproximateMath(options);
}

void mlir::amp::buildAmpBufferizePipeline(OpPassManager &pm) {
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

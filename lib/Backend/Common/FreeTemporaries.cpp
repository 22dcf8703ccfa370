//===- FreeTemporaries.cpp - Free bufferized temporaries ------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/Passes.h"

#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_FREETEMPORARIES
#include "amp/Backend/Common/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// Ownership-based deallocation of one function's buffers, as MLIR's
/// buffer-deallocation-pipeline does it, up to the lowering.
static OpPassManager buildPerFunctionPipeline() {
  OpPassManager pm(func::FuncOp::getOperationName());
  memref::ExpandReallocPassOptions realloc;
  realloc.emitDeallocs = false;
  pm.addPass(memref::createExpandReallocPass(realloc));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createBufferDeallocationSimplificationPass());
  return pm;
}

/// bufferization.dealloc ops lowered to memref.dealloc (with a helper
/// function in the module where needed), and the clones the deallocation
/// made (of buffers yielded by scf.if, say) to memref.alloc and copy.
static void addLoweringPasses(OpPassManager &pm) {
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createConvertBufferizationToMemRefPass());
  OpPassManager &functions = pm.nest<func::FuncOp>();
  functions.addPass(createCSEPass());
  functions.addPass(createCanonicalizerPass());
}

namespace {
/// The per-function part, a function pass so that the module's pass
/// manager runs it on the functions (a model's kernels, once outlined) in
/// parallel. Not registered: an implementation detail of the module pass.
struct FreeFunctionTemporaries
    : PassWrapper<FreeFunctionTemporaries, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FreeFunctionTemporaries)

  StringRef getName() const override { return "FreeFunctionTemporaries"; }

  void getDependentDialects(DialectRegistry &registry) const override {
    pipeline.getDependentDialects(registry);
  }

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (function.isExternal())
      return;
    bool freesMemory =
        function
            ->walk([](memref::DeallocOp) { return WalkResult::interrupt(); })
            .wasInterrupted();
    if (!freesMemory && failed(runPipeline(pipeline, function)))
      return signalPassFailure();
  }

  OpPassManager pipeline = buildPerFunctionPipeline();
};

struct FreeTemporaries : amp::impl::FreeTemporariesBase<FreeTemporaries> {
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    pipeline().getDependentDialects(registry);
  }

  void runOnOperation() override {
    OpPassManager pm = pipeline();
    if (failed(runPipeline(pm, getOperation())))
      return signalPassFailure();
  }

  static OpPassManager pipeline() {
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addNestedPass<func::FuncOp>(std::make_unique<FreeFunctionTemporaries>());
    addLoweringPasses(pm);
    return pm;
  }
};
} // namespace

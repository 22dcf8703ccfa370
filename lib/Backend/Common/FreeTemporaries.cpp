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

namespace {
struct FreeTemporaries : amp::impl::FreeTemporariesBase<FreeTemporaries> {
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    perFunction().getDependentDialects(registry);
    lowering().getDependentDialects(registry);
  }

  void runOnOperation() override {
    OpPassManager functionPM = perFunction();
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      if (function.isExternal())
        continue;
      bool freesMemory =
          function
              ->walk([](memref::DeallocOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
      if (!freesMemory && failed(runPipeline(functionPM, function)))
        return signalPassFailure();
    }
    OpPassManager modulePM = lowering();
    if (failed(runPipeline(modulePM, getOperation())))
      return signalPassFailure();
  }

  /// Ownership-based deallocation of one function's buffers, as MLIR's
  /// buffer-deallocation-pipeline does it, up to the lowering.
  static OpPassManager perFunction() {
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
  static OpPassManager lowering() {
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(bufferization::createLowerDeallocationsPass());
    pm.addPass(createConvertBufferizationToMemRefPass());
    pm.addPass(createCSEPass());
    pm.addPass(createCanonicalizerPass());
    return pm;
  }
};
} // namespace

//===- ConvertVectorToLLVMPerFunction.cpp - Vector to LLVM in parallel ----===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/Passes.h"

#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_CONVERTVECTORTOLLVMPERFUNCTION
#include "amp/Backend/CPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// Whether converting the functions of `module` one by one, in parallel,
/// is the same as converting the module: no conversion adds a symbol to
/// the module, and every op that holds vectors is inside a func.func
/// (declarations, such as the llvm.func @malloc that memref's lowering
/// adds, hold nothing).
static bool isConvertiblePerFunction(ModuleOp module) {
  for (Operation &op : *module.getBody())
    if (!isa<func::FuncOp>(op) &&
        llvm::any_of(op.getRegions(),
                     [](Region &region) { return !region.empty(); }))
      return false;
  return !module.walk([](vector::PrintOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
}

namespace {
struct ConvertVectorToLLVMPerFunction
    : amp::impl::ConvertVectorToLLVMPerFunctionBase<
          ConvertVectorToLLVMPerFunction> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createConvertVectorToLLVMPass());
    pm.getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    ConvertVectorToLLVMPassOptions options;
    options.x86Vector = x86Vector;
    OpPassManager pm(ModuleOp::getOperationName());
    if (isConvertiblePerFunction(module))
      pm.nest<func::FuncOp>().addPass(createConvertVectorToLLVMPass(options));
    else
      pm.addPass(createConvertVectorToLLVMPass(options));
    if (failed(runPipeline(pm, module)))
      signalPassFailure();
  }
};
} // namespace

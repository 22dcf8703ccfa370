//===- Lowering.cpp - From the tensor-level file to the JIT ---------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Lowering.h"
#include "amp/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// Erases the functions `entry` does not reach through symbol uses (test
/// drivers and other entry points sharing the file), so that nothing the
/// call does not need is lowered or compiled: every other function becomes
/// private and upstream's symbol-dce removes the unused ones.
static void eraseUnreachableFunctions(ModuleOp module, func::FuncOp entry) {
  for (auto function : module.getOps<func::FuncOp>())
    if (function != entry && !function.isDeclaration())
      function.setPrivate();
  PassManager pm(module.getContext());
  pm.addPass(createSymbolDCEPass());
  (void)pm.run(module);
}

void mlir::amp::runtime::prepareEntry(ModuleOp module, StringRef entry) {
  auto function = dyn_cast_or_null<func::FuncOp>(
      SymbolTable::lookupSymbolIn(module, entry));
  if (!function)
    return;
  eraseUnreachableFunctions(module, function);
  function.setPublic();
  Builder builder(module.getContext());
  for (auto [i, type] : llvm::enumerate(function.getArgumentTypes()))
    if (isa<TensorType>(type))
      function.setArgAttr(i, "bufferization.writable",
                          builder.getBoolAttr(false));
}

LogicalResult mlir::amp::runtime::lowerModule(ModuleOp module,
                                              StringRef pipeline) {
  PassManager pm(module.getContext());
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  // The text is nested in the module pass manager, without an anchor. (A
  // bad value of an amp pipeline's option is said in the error, not on
  // stderr.)
  amp::OptionMessages badValues;
  if (failed(parsePassPipeline(pipeline, pm, errorStream))) {
    for (const std::string &bad : badValues.get())
      errors = bad + "; " + errors;
    return emitError(module.getLoc())
           << "cannot build the pipeline '" << pipeline << "': " << errors;
  }
  return pm.run(module);
}

void mlir::amp::runtime::routeGlobalsThroughRuntime(ModuleOp module,
                                                    StringRef runtimeFunction) {
  SymbolTable symbols(module);
  SmallVector<LLVM::AddressOfOp> addresses;
  module.walk([&](LLVM::AddressOfOp op) {
    if (op->getParentOfType<LLVM::LLVMFuncOp>() &&
        isa_and_nonnull<LLVM::GlobalOp>(symbols.lookup(op.getGlobalName())))
      addresses.push_back(op);
  });
  if (addresses.empty())
    return;

  MLIRContext *context = module.getContext();
  OpBuilder builder(context);
  auto pointer = LLVM::LLVMPointerType::get(context);
  auto i64 = IntegerType::get(context, 64);
  auto callee = symbols.lookup<LLVM::LLVMFuncOp>(runtimeFunction);
  if (!callee) {
    builder.setInsertionPointToStart(module.getBody());
    callee = LLVM::LLVMFuncOp::create(
        builder, module.getLoc(), runtimeFunction,
        LLVM::LLVMFunctionType::get(pointer, {pointer, i64}));
  }
  DataLayout layout(module);
  for (LLVM::AddressOfOp address : addresses) {
    auto global = symbols.lookup<LLVM::GlobalOp>(address.getGlobalName());
    int64_t bytes = layout.getTypeSize(global.getGlobalType()).getFixedValue();
    builder.setInsertionPointAfter(address);
    Value size = LLVM::ConstantOp::create(builder, address.getLoc(), i64,
                                          builder.getI64IntegerAttr(bytes));
    auto call = LLVM::CallOp::create(builder, address.getLoc(), callee,
                                     ValueRange{address.getResult(), size});
    address.getResult().replaceAllUsesExcept(call.getResult(), call);
  }
}

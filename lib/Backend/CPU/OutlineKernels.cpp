//===- OutlineKernels.cpp - Each loop nest a function of its own ----------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/OutlineKernels.h"
#include "amp/Backend/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_OUTLINEKERNELS
#include "amp/Backend/CPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// The first name in `loc` (an ONNX node's, as amp.onnx writes them).
static std::optional<std::string> getLocationName(Location loc) {
  std::optional<std::string> found;
  loc->walk([&](Location inner) {
    if (auto name = dyn_cast<NameLoc>(inner)) {
      found = name.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// `function__name`, with every character a C identifier may not hold
/// replaced by '_'.
static std::string getKernelName(StringRef function, Location loc) {
  std::string name =
      (function + "__" + getLocationName(loc).value_or("kernel")).str();
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  return name;
}

/// Whether `value`'s defining op is cloned into the kernel instead of
/// being passed: constants (loops keep constant bounds) and globals.
static bool isCloned(Value value) {
  Operation *op = value.getDefiningOp();
  return op && op->getNumOperands() == 0 && op->getNumResults() == 1 &&
         (matchPattern(op, m_Constant()) || isa<memref::GetGlobalOp>(op));
}

FailureOr<func::FuncOp> mlir::amp::outlineKernel(Operation *kernel,
                                                 SymbolTable &symbols) {
  auto parent = kernel->getParentOfType<func::FuncOp>();
  if (!parent || kernel->getNumRegions() == 0)
    return failure();
  llvm::SetVector<Value> used;
  for (Value operand : kernel->getOperands())
    used.insert(operand);
  getUsedValuesDefinedAbove(kernel->getRegions(), used);
  SmallVector<Value> arguments, cloned;
  for (Value value : used)
    (isCloned(value) ? cloned : arguments).push_back(value);

  MLIRContext *context = kernel->getContext();
  OpBuilder builder(context);
  builder.setInsertionPoint(parent);
  auto type = FunctionType::get(context, ValueRange(arguments).getTypes(),
                                kernel->getResultTypes());
  auto function = func::FuncOp::create(
      builder, kernel->getLoc(),
      getKernelName(parent.getName(), kernel->getLoc()), type);
  function.setPrivate();
  // `no_inline` keeps MLIR's inliner away; func-to-llvm drops it (an
  // inherent attribute of func.func) but carries `passthrough` over to the
  // llvm.func, where it keeps LLVM's inliner away: a kernel in the
  // partition of its caller would otherwise be compiled twice, once inline.
  function.setNoInline(true);
  function->setAttr(
      "passthrough",
      ArrayAttr::get(context, {StringAttr::get(context, "noinline")}));
  symbols.insert(function);

  Block *body = function.addEntryBlock();
  builder.setInsertionPointToStart(body);
  IRMapping mapping;
  for (auto [value, argument] : llvm::zip(arguments, body->getArguments()))
    mapping.map(value, argument);
  for (Value value : cloned)
    mapping.map(value, builder.clone(*value.getDefiningOp())->getResult(0));
  Operation *copy = builder.clone(*kernel, mapping);
  func::ReturnOp::create(builder, kernel->getLoc(), copy->getResults());

  builder.setInsertionPoint(kernel);
  auto call =
      func::CallOp::create(builder, kernel->getLoc(), function, arguments);
  kernel->replaceAllUsesWith(call.getResults());
  kernel->erase();
  // Constants and globals the parent no longer uses.
  for (Value value : cloned)
    if (Operation *op = value.getDefiningOp(); op && op->use_empty())
      op->erase();
  return function;
}

namespace {
struct OutlineKernels : amp::impl::OutlineKernelsBase<OutlineKernels> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    if (minOps < 1)
      return emitError(UnknownLoc::get(context))
             << "amp-outline-kernels: min-ops must be at least 1, got "
             << minOps.getValue();
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // Inner kernels first: outlining an outer op clones its body.
    SmallVector<Operation *> inner, outer;
    for (auto function : module.getOps<func::FuncOp>()) {
      // Kernels are not outlined again, nor functions of several blocks.
      if (function.isDeclaration() || function->hasAttr("no_inline") ||
          !function.getBody().hasOneBlock())
        continue;
      collect(function.getBody().front(), outer);
      // The loop nests of an OpenMP region (the kernels that the threaded
      // pipeline merged into one region) go one function each too, called
      // per iteration of their worksharing loop: the region alone would be
      // one function as large as the model.
      function.walk([&](omp::LoopNestOp loop) {
        for (Block &block : loop.getRegion())
          collect(block, inner, /*withinOpenMP=*/true);
      });
    }
    for (Operation *kernel : llvm::concat<Operation *>(inner, outer))
      if (failed(amp::outlineKernel(kernel, symbols)))
        return signalPassFailure();
  }

  /// The ops of `block` with regions and at least min-ops ops inside;
  /// `withinOpenMP`: none that holds an OpenMP op (a construct that must
  /// stay lexically inside its region, as the translation to LLVM IR
  /// expects).
  void collect(Block &block, SmallVectorImpl<Operation *> &kernels,
               bool withinOpenMP = false) {
    for (Operation &op : block) {
      if (op.getNumRegions() == 0)
        continue;
      // (The walk counts the op itself.)
      int64_t ops = -1;
      bool holdsOpenMP = false;
      op.walk([&](Operation *nested) {
        ++ops;
        holdsOpenMP |=
            isa_and_nonnull<omp::OpenMPDialect>(nested->getDialect());
      });
      if (ops >= minOps && !(withinOpenMP && holdsOpenMP))
        kernels.push_back(&op);
    }
  }
};
} // namespace

//===- TestPrintPolicy.cpp - Print what the models report -----------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "amp/Dialect/Amp/Amp.h"
#include "amp/Interfaces/AmpOpInterface.h"
#include "amp/Interfaces/ExternalModels.h"
#include "amp/Target/TargetCapabilities.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_TESTPRINTPOLICY
#include "TestPasses.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

namespace {

void printIndices(raw_ostream &os, unsigned count,
                  function_ref<bool(unsigned)> pred) {
  SmallVector<unsigned> indices;
  for (unsigned i = 0; i < count; ++i)
    if (pred(i))
      indices.push_back(i);
  os << "(";
  llvm::interleaveComma(indices, os);
  os << ")";
}

void printPolicyLine(raw_ostream &os, Operation *op, FloatType lowType) {
  CategoryInfo info = getCategory(op, lowType);
  os << op->getName();
  if (auto name =
          op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
    os << " @" << name.getValue();
  os << " " << stringifyPolicy(info.category) << " "
     << (hasAmpModel(op) ? "model" : "traits") << " acc=";
  if (std::optional<AccumulationInfo> acc = getAccumulation(op)) {
    os << stringifyAccumulationKind(acc->kind) << "/";
    if (ShapedType::isDynamic(acc->reductionSize))
      os << "?";
    else
      os << acc->reductionSize;
    if (acc->separateAccumulator)
      os << "/wide";
  } else {
    os << "-";
  }
  os << " data=";
  printIndices(os, op->getNumOperands(),
               [&](unsigned i) { return isDataOperand(op, i); });
  os << "->";
  printIndices(os, op->getNumResults(),
               [&](unsigned i) { return isDataResult(op, i); });
  os << " compute="
     << (canComputeIn(op, lowType, getEnclosingTarget(op)) ? "yes" : "no");
  if (PrecisionAttr policy = getEffectivePrecision(op))
    os << " policy=" << policy;
  os << " \"" << info.reason << "\"\n";
}

struct TestPrintPolicy : amp::impl::TestPrintPolicyBase<TestPrintPolicy> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // Reached from a pass plugin, the context has no models yet.
    registerAllExternalModels(registry);
  }

  void runOnOperation() override {
    FloatType lowType = parseLowType(&getContext(), low);
    if (!lowType) {
      emitError(getOperation()->getLoc())
          << "amp-test-print-policy: unsupported low type '" << low
          << "'; expected 'f16' or 'bf16'";
      return signalPassFailure();
    }
    raw_ostream &os = llvm::outs();
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == getOperation())
        return;
      printPolicyLine(os, op, lowType);
    });
    os.flush();
  }
};

} // namespace

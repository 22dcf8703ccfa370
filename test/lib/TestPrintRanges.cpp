//===- TestPrintRanges.cpp - Print the float range analysis ---------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "amp/Analysis/FloatRangeAnalysis.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_TESTPRINTRANGES
#include "TestPasses.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

namespace {

StringRef fitName(const RangeFit &fit) {
  switch (fit.kind) {
  case RangeFit::Fits:
    return "fits";
  case RangeFit::MayOverflow:
    return "may overflow";
  case RangeFit::Underflows:
    return "underflows";
  }
  llvm_unreachable("unknown fit");
}

struct TestPrintRanges : amp::impl::TestPrintRangesBase<TestPrintRanges> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    std::string error;
    FailureOr<SmallVector<InputRange>> inputs =
        parseInputRanges(inputRange, error);
    if (failed(inputs)) {
      root->emitError(error);
      return signalPassFailure();
    }
    FloatRangeOptions options;
    options.inputRanges = *inputs;
    llvm::DenseMap<Value, ObservedRange> calibrated;
    if (!rangesFile.empty()) {
      auto file = readCalibratedRanges(rangesFile);
      if (!file) {
        root->emitError(llvm::toString(file.takeError()));
        return signalPassFailure();
      }
      auto matched = matchCalibratedRanges(root, *file);
      if (!matched) {
        root->emitError(llvm::toString(matched.takeError()));
        return signalPassFailure();
      }
      calibrated = std::move(*matched);
      options.calibrated = &calibrated;
    }
    FailureOr<FloatRanges> ranges = FloatRanges::compute(root, options);
    if (failed(ranges))
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    FloatType f16 = Float16Type::get(ctx), bf16 = BFloat16Type::get(ctx);
    root->walk([&](Operation *op) {
      // Ops of bodies their owner evaluates (linalg) are not values.
      Operation *parent = op->getParentOp();
      if (parent &&
          !isa<FunctionOpInterface, RegionBranchOpInterface>(parent) &&
          parent != root)
        return;
      for (OpResult result : op->getResults()) {
        FloatRange r = ranges->lookup(result);
        if (!r.isInitialized())
          continue;
        std::string text;
        llvm::raw_string_ostream os(text);
        os << "range: result " << result.getResultNumber() << " " << r << "; "
           << ranges->describe(result)
           << "; f16: " << fitName(ranges->fits(result, f16))
           << "; bf16: " << fitName(ranges->fits(result, bf16));
        op->emitRemark(text);
      }
    });
  }
};

} // namespace

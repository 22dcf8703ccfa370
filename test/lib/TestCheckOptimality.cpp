//===- TestCheckOptimality.cpp - The optimal placement, brute-forced ------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "amp/Analysis/PrecisionAssignment.h"
#include "amp/Interfaces/ExternalModels.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_TESTCHECKOPTIMALITY
#include "TestPasses.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

namespace {

struct TestCheckOptimality
    : amp::impl::TestCheckOptimalityBase<TestCheckOptimality> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerAllExternalModels(registry);
  }

  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *ctx = &getContext();
    AssignmentOptions options;
    if (precision == "f16")
      options.lowType = Float16Type::get(ctx);
    else if (precision == "bf16")
      options.lowType = BFloat16Type::get(ctx);
    else {
      root->emitError() << "amp-test-check-optimality: precision must be f16 "
                           "or bf16, got '"
                        << precision << "'";
      return signalPassFailure();
    }
    options.placement = Placement::Optimal;
    options.bruteForceLimit = std::min<unsigned>(limit, 20);
    bool changeSignatures = !isa<FunctionOpInterface>(root) &&
                            root->hasTrait<OpTrait::SymbolTable>();
    if (failed(PrecisionAssignment::analyze(root, options, changeSignatures)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace

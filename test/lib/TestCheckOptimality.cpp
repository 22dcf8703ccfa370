//===- TestCheckOptimality.cpp - The optimal placement, brute-forced ------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "amp/Analysis/MinCut.h"
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
    // Every labelling of problems with at most `limit` (20) variables,
    // against the minimum cut's.
    unsigned maxVars = std::min<unsigned>(limit, 20);
    options.placementObserver = [&](Operation *at,
                                    const PlacementProblem &problem,
                                    const PlacementProblem::Solution &cut) {
      if (problem.numVars > maxVars)
        return;
      int64_t best = MinCutGraph::kInfinity;
      std::vector<bool> labels(problem.numVars);
      for (uint64_t bits = 0; bits < (uint64_t(1) << problem.numVars); ++bits) {
        for (unsigned v = 0; v < problem.numVars; ++v)
          labels[v] = (bits >> v) & 1;
        best = std::min(best, problem.energy(labels));
      }
      mlir::emitRemark(at->getLoc())
          << "amp: optimal placement moves " << problem.energy(cut.low)
          << " bytes (cut " << cut.cost << "); the best of "
          << (uint64_t(1) << problem.numVars) << " labellings moves " << best;
    };
    bool changeSignatures = !isa<FunctionOpInterface>(root) &&
                            root->hasTrait<OpTrait::SymbolTable>();
    if (failed(PrecisionAssignment::analyze(root, options, changeSignatures)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace

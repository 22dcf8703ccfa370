//===- MixedPrecision.cpp - The mixed-precision pass ----------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Validates the options once (initialize), runs the analysis
// (PrecisionAssignment), applies it (applyPrecisionAssignment), folds the
// casts, and explains and reports the decisions.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/CalibratedRanges.h"
#include "amp/Analysis/DecisionGraph.h"
#include "amp/Analysis/FloatRangeAnalysis.h"
#include "amp/Analysis/Policy.h"
#include "amp/Analysis/PrecisionAssignment.h"
#include "amp/Dialect/Amp/Amp.h"
#include "amp/Interfaces/ExternalModels.h"
#include "amp/Target/TargetNames.h"
#include "amp/Transforms/ApplyPrecision.h"
#include "amp/Transforms/CastFolding.h"
#include "amp/Transforms/DecisionOptions.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_MIXEDPRECISION
#include "amp/Transforms/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

namespace {

std::string locationString(Location loc) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
  else
    loc.print(os);
  return s;
}

std::string typeString(Type t) {
  std::string s;
  if (t)
    llvm::raw_string_ostream(s) << t;
  return s;
}

/// What the report needs of an op, taken before the rewrite may erase it:
/// its decision is found by its index among the analysed ops, never through
/// the op.
struct ReportEntry {
  unsigned index;
  std::string name;
  Location loc;
};

StringRef stringifyLowPrecision(LowPrecision p) {
  return p == LowPrecision::BF16 ? "bf16" : "f16";
}

StringRef stringifyPlacement(Placement p) {
  switch (p) {
  case Placement::Naive:
    return "naive";
  case Placement::Greedy:
    return "greedy";
  case Placement::Optimal:
    return "optimal";
  }
  llvm_unreachable("unknown placement");
}

struct MixedPrecision : amp::impl::MixedPrecisionBase<MixedPrecision> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // Reached from a pass plugin, the context has no models yet.
    registerAllExternalModels(registry);
    insertDecisionDialects(registry, target);
  }

  LogicalResult initialize(MLIRContext *context) override;
  void report(ArrayRef<ReportEntry> entries, PrecisionAssignment &assignment,
              const PrecisionRewriteStats &stats);
  void runOnOperation() override;

  /// What initialize() made of the options, shared by the pass's clones.
  DecisionSetup decisions;
  template <typename PassT>
  friend DecisionOptionValues
  mlir::amp::getDecisionOptionValues(const PassT &pass);
};

} // namespace

LogicalResult MixedPrecision::initialize(MLIRContext *ctx) {
  return decisions.initialize(ctx, getDecisionOptionValues(*this),
                              "mixed-precision");
}

void MixedPrecision::report(ArrayRef<ReportEntry> entries,
                            PrecisionAssignment &assignment,
                            const PrecisionRewriteStats &stats) {
  if (explain)
    for (const ReportEntry &e : entries) {
      const OpDecision *d = &assignment.getDecisions()[e.index];
      if (d->mode != ComputeMode::Low && d->mode != ComputeMode::F32 &&
          d->mode != ComputeMode::WideAccumulator)
        continue;
      InFlightDiagnostic remark = emitRemark(e.loc);
      remark << "amp: " << e.name << " ";
      if (d->mode == ComputeMode::F32)
        remark << "stays f32";
      else if (d->mode == ComputeMode::WideAccumulator)
        remark << "reads " << d->lowType << ", accumulates in " << d->accType;
      else
        remark << "runs in " << d->lowType;
      remark << " (" << stringifyPolicy(d->category) << ", " << d->source
             << "): " << d->reason;
    }

  // The report goes to the `report` file and to the context's in-memory
  // handler (set by the C API); without either it is not built.
  auto *dialect = getContext().getLoadedDialect<AmpDialect>();
  const AmpDialect::ReportHandler *handler =
      dialect && dialect->getReportHandler() ? &dialect->getReportHandler()
                                             : nullptr;
  if (reportFile.empty() && !handler)
    return;
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    // The report's format (docs/report.schema.json); bumped when a field
    // changes meaning or goes away.
    json.attribute("version", int64_t(1));
    json.attribute("precision", stringifyLowPrecision(precision));
    json.attribute("accumulate",
                   accumulate == AccumulateMode::Low ? "low" : "f32");
    json.attributeObject("summary", [&] {
      json.attribute("ops-low", int64_t(stats.lowOps));
      json.attribute("ops-f32", int64_t(stats.f32Ops));
      json.attribute("ops-wide-accumulator", int64_t(stats.wideAccumulatorOps));
      json.attribute("placement", stringifyPlacement(placement));
      json.attribute("casts-inserted", stats.castsInserted);
      json.attribute("cast-bytes", stats.castBytes);
      json.attribute("constant-bytes-saved", stats.constantBytesSaved);
    });
    json.attributeArray("ops", [&] {
      for (const ReportEntry &e : entries) {
        const OpDecision *d = &assignment.getDecisions()[e.index];
        if (d->mode == ComputeMode::Untouched)
          continue;
        json.object([&] {
          json.attribute("op", e.name);
          json.attribute("loc", locationString(e.loc));
          json.attribute("mode", stringifyComputeMode(d->mode));
          json.attribute("category", stringifyPolicy(d->category));
          json.attribute("source", d->source);
          json.attribute("reason", d->reason);
          json.attribute("low", typeString(d->lowType));
          if (d->accType)
            json.attribute("accumulate", typeString(d->accType));
          if (!d->resultRanges.empty())
            json.attributeArray("ranges", [&] {
              for (const std::string &range : d->resultRanges)
                json.value(range);
            });
        });
      }
    });
  });
  os << "\n";
  if (handler)
    (*handler)(text);
  if (reportFile.empty())
    return;
  std::string error;
  auto out = openOutputFile(reportFile, &error);
  if (!out) {
    getOperation()->emitError()
        << "mixed-precision: cannot write report: " << error;
    return signalPassFailure();
  }
  out->os() << text;
  out->keep();
}

void MixedPrecision::runOnOperation() {
  Operation *root = getOperation();
  if (!keepIOTypes && isa<FunctionOpInterface>(root)) {
    root->emitError() << "mixed-precision: keep-io-types=false changes "
                         "signatures and callers; run the pass on the module";
    return signalPassFailure();
  }

  auto *ampDialect = getContext().getLoadedDialect<AmpDialect>();
  bool reports = explain || !reportFile.empty() ||
                 (ampDialect && ampDialect->getReportHandler());
  bool changeSignatures =
      !isa<FunctionOpInterface>(root) && root->hasTrait<OpTrait::SymbolTable>();
  AnalysisRun run;
  FailureOr<PrecisionAssignment> assignment =
      decisions.analyze(root, reports, changeSignatures, run);
  if (failed(assignment))
    return signalPassFailure();

  // What the remarks and the report say of each op, taken before the
  // rewrite replaces ops (only when they are asked for).
  // The picture, drawn from the decisions before the rewrite changes ops.
  if (!graphFile.empty()) {
    std::string error;
    auto out = openOutputFile(graphFile, &error);
    if (!out) {
      root->emitError() << "mixed-precision: cannot write graph: " << error;
      return signalPassFailure();
    }
    DecisionGraphOptions graphOptions;
    graphOptions.maxNodes = graphMaxNodes;
    writeDecisionGraph(out->os(), root, *assignment, graphOptions);
    out->keep();
  }

  SmallVector<ReportEntry> entries;
  if (reports)
    for (auto [i, op] : llvm::enumerate(assignment->getOps()))
      entries.push_back(
          {unsigned(i), op->getName().getStringRef().str(), op->getLoc()});

  int64_t castsBefore = countCasts(root).casts;
  PrecisionRewriteStats stats;
  if (failed(applyPrecisionAssignment(root, *assignment, stats)))
    return signalPassFailure();
  // What the rewrite left unused, then exact cast folding on the casts only
  // (a greedy driver over the whole module would cost more than the
  // rewrite; a cast must see its real users to move), then what the folding
  // left unused: running the pass again changes nothing.
  eraseDeadOps(root);
  // A fold can enable another on a cast it did not revisit (a cast whose
  // other users a fold removed, so that a single shrinking user is left):
  // folding again until nothing changes (a few rounds; each is cheap on
  // casts only) is what makes a second run of the pass a no-op.
  for (int round = 0; round < 8 && foldAmpCasts(root); ++round)
    eraseDeadOps(root);
  CastCount casts = countCasts(root);
  stats.castsInserted = casts.casts - castsBefore;
  stats.castBytes = casts.bytes;
  numAllow += stats.lowOps;
  numKeep += stats.f32Ops;
  numWideAccumulate += stats.wideAccumulatorOps;
  numCasts += std::max<int64_t>(stats.castsInserted, 0);
  numConstantBytesSaved += stats.constantBytesSaved;
  report(entries, *assignment, stats);
  // After the ops' remarks, the pass statistics, also where MLIR's are
  // compiled out (release builds of LLVM without LLVM_ENABLE_STATS, as
  // Debian's).
  if (explain)
    root->emitRemark() << "amp: summary: " << stats.lowOps << " ops low, "
                       << stats.f32Ops << " ops f32, "
                       << stats.wideAccumulatorOps
                       << " ops with a wide accumulator, "
                       << std::max<int64_t>(stats.castsInserted, 0)
                       << " casts inserted (" << stats.castBytes << " bytes), "
                       << stats.constantBytesSaved << " constant bytes saved";
}

//===- MixedPrecision.cpp - The mixed-precision pass ----------------------===//
//
// Parses and validates the options, runs the analysis (PrecisionAssignment),
// applies it (applyPrecisionAssignment), and explains and reports the
// decisions.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/Policy.h"
#include "amp/Analysis/PrecisionAssignment.h"
#include "amp/Dialect/Amp/Amp.h"
#include "amp/Interfaces/ExternalModels.h"
#include "amp/Transforms/ApplyPrecision.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/AsmParser/AsmParser.h"
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

/// What the report needs of an op, taken before the rewrite may erase it.
struct ReportEntry {
  Operation *key;
  std::string name;
  Location loc;
};

struct MixedPrecision : amp::impl::MixedPrecisionBase<MixedPrecision> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // Reached from a pass plugin, the context has no models yet.
    registerAllExternalModels(registry);
  }

  LogicalResult parseOptions(AssignmentOptions &options,
                             PolicyTable &table);
  void report(ArrayRef<ReportEntry> entries, PrecisionAssignment &assignment,
              const PrecisionRewriteStats &stats);
  void runOnOperation() override;
};

} // namespace

LogicalResult MixedPrecision::parseOptions(AssignmentOptions &options,
                                           PolicyTable &table) {
  Operation *root = getOperation();
  MLIRContext *ctx = &getContext();
  options.lowType = parseLowType(ctx, precision);
  if (!options.lowType)
    return root->emitError() << "mixed-precision: unsupported precision '"
                             << precision << "'; expected 'f16' or 'bf16'";
  if (accumulate == "f32")
    options.accumulate = AccumulateMode::F32;
  else if (accumulate == "low")
    options.accumulate = AccumulateMode::Low;
  else
    return root->emitError() << "mixed-precision: unsupported accumulate '"
                             << accumulate << "'; expected 'f32' or 'low'";
  if (accumulateMinSize < 0)
    return root->emitError()
           << "mixed-precision: accumulate-min-size must not be negative";
  options.accumulateMinSize = accumulateMinSize;
  std::optional<MissingOpMode> missing =
      llvm::StringSwitch<std::optional<MissingOpMode>>(missingOp)
          .Case("follow", MissingOpMode::Follow)
          .Case("never", MissingOpMode::Never)
          .Case("warn", MissingOpMode::Warn)
          .Case("error", MissingOpMode::Error)
          .Default(std::nullopt);
  if (!missing)
    return root->emitError() << "mixed-precision: unsupported missing-op '"
                             << missingOp
                             << "'; expected follow, never, warn or error";
  options.missingOp = *missing;
  std::optional<Placement> place =
      llvm::StringSwitch<std::optional<Placement>>(placement)
          .Case("optimal", Placement::Optimal)
          .Case("greedy", Placement::Greedy)
          .Case("naive", Placement::Naive)
          .Default(std::nullopt);
  if (!place)
    return root->emitError() << "mixed-precision: unsupported placement '"
                             << placement
                             << "'; expected optimal, greedy or naive";
  options.placement = *place;
  if (!target.empty() && target != "cpu") {
    // The targets amp-lower-to-spirv and amp-lower-to-nvvm produce.
    std::string text;
    StringRef chip = target;
    unsigned sm = 0;
    if (target == "vulkan")
      text = "#spirv.target_env<#spirv.vce<v1.3, [Shader, Float16, "
             "StorageBuffer16BitAccess], [SPV_KHR_16bit_storage]>, "
             "#spirv.resource_limits<>>";
    else if (target == "vulkan-storage16")
      text = "#spirv.target_env<#spirv.vce<v1.3, [Shader, "
             "StorageBuffer16BitAccess], [SPV_KHR_16bit_storage]>, "
             "#spirv.resource_limits<>>";
    else if (chip.consume_front("sm_") && !chip.consumeInteger(10, sm) &&
             sm >= 20 && (chip.empty() || chip == "a" || chip == "f"))
      text = "#nvvm.target<chip = \"" + target + "\">";
    else
      return root->emitError()
             << "mixed-precision: unsupported target '" << target
             << "'; expected cpu, vulkan, vulkan-storage16 or sm_<N>[a|f]";
    options.defaultTarget = parseAttribute(text, ctx);
    if (!options.defaultTarget)
      return root->emitError() << "mixed-precision: cannot build target '"
                               << target << "'";
  }
  options.bruteForceLimit = std::min<unsigned>(checkOptimality, 20);
  options.keepIOTypes = keepIOTypes;
  if (!keepIOTypes && isa<FunctionOpInterface>(root))
    return root->emitError()
           << "mixed-precision: keep-io-types=false changes signatures and "
              "callers; run the pass on the module";

  table.addOpList(neverOps, Policy::Never);
  table.addOpList(followOps, Policy::Follow);
  table.addOpList(allowOps, Policy::Allow);
  // A name is checked against its dialect: an unknown dialect or, for a
  // loaded dialect, an unknown op is reported. (A dialect that is registered
  // but not loaded has no ops in the input to match.)
  for (const std::string &name : table.listedOpNames()) {
    StringRef dialect = StringRef(name).split('.').first;
    bool known =
        ctx->getLoadedDialect(dialect)
            ? RegisteredOperationName::lookup(name, ctx).has_value()
            : llvm::is_contained(ctx->getAvailableDialects(), dialect);
    if (!known)
      root->emitWarning() << "mixed-precision: no registered op is named '"
                          << name << "' (listed in allow/follow/never)";
  }
  if (!policyFile.empty()) {
    std::string error;
    if (failed(table.loadFile(policyFile, error)))
      return root->emitError() << "mixed-precision: " << error;
  }
  options.policy = &table;
  return success();
}

void MixedPrecision::report(ArrayRef<ReportEntry> entries,
                            PrecisionAssignment &assignment,
                            const PrecisionRewriteStats &stats) {
  if (explain)
    for (const ReportEntry &e : entries) {
      const OpDecision *d = assignment.lookup(e.key);
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
    json.attribute("precision", precision);
    json.attribute("accumulate", accumulate);
    json.attributeObject("summary", [&] {
      json.attribute("ops-low", int64_t(stats.lowOps));
      json.attribute("ops-f32", int64_t(stats.f32Ops));
      json.attribute("ops-wide-accumulator", int64_t(stats.wideAccumulatorOps));
      json.attribute("placement", placement);
      json.attribute("casts-inserted", stats.castsInserted);
      json.attribute("cast-bytes", stats.castBytes);
      json.attribute("constant-bytes-saved", stats.constantBytesSaved);
    });
    json.attributeArray("ops", [&] {
      for (const ReportEntry &e : entries) {
        const OpDecision *d = assignment.lookup(e.key);
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
    getOperation()->emitError() << "mixed-precision: cannot write report: "
                                << error;
    return signalPassFailure();
  }
  out->os() << text;
  out->keep();
}

void MixedPrecision::runOnOperation() {
  Operation *root = getOperation();
  AssignmentOptions options;
  PolicyTable table;
  if (failed(parseOptions(options, table)))
    return signalPassFailure();

  bool changeSignatures = !isa<FunctionOpInterface>(root) &&
                          root->hasTrait<OpTrait::SymbolTable>();
  FailureOr<PrecisionAssignment> assignment =
      PrecisionAssignment::analyze(root, options, changeSignatures);
  if (failed(assignment))
    return signalPassFailure();

  // What the remarks and the report say of each op, taken before the
  // rewrite replaces ops (only when they are asked for).
  auto *ampDialect = getContext().getLoadedDialect<AmpDialect>();
  bool reports = explain || !reportFile.empty() ||
                 (ampDialect && ampDialect->getReportHandler());
  SmallVector<ReportEntry> entries;
  if (reports)
    for (Operation *op : assignment->getOps())
      entries.push_back(
          {op, op->getName().getStringRef().str(), op->getLoc()});

  PrecisionRewriteStats stats;
  applyPrecisionAssignment(root, *assignment, stats);
  if (stats.failed)
    return signalPassFailure();
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
                       << " casts inserted (" << stats.castBytes
                       << " bytes), " << stats.constantBytesSaved
                       << " constant bytes saved";
}

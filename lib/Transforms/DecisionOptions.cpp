//===- DecisionOptions.cpp - Options that decide, shared by passes -------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/DecisionOptions.h"

#include "amp/Dialect/Amp/Amp.h"
#include "amp/Target/TargetNames.h"
#include "amp/Transforms/ApplyPrecision.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::amp;

static StringRef stringifyLowPrecision(LowPrecision p) {
  return p == LowPrecision::BF16 ? "bf16" : "f16";
}

void mlir::amp::insertDecisionDialects(DialectRegistry &registry,
                                       StringRef target) {
  // The dialect of the target's attribute, only when one is asked for.
  if (std::optional<TargetName> name = parseTargetName(target))
    insertTargetDialects(registry, *name);
}

LogicalResult DecisionSetup::initialize(MLIRContext *ctx,
                                        const DecisionOptionValues &v,
                                        StringRef passName) {
  // Errors here have no op to point at: one line, before any IR is touched.
  Location loc = UnknownLoc::get(ctx);
  this->passName = passName.str();
  options = AssignmentOptions();
  options.lowType = parseLowType(ctx, stringifyLowPrecision(v.precision));
  options.accumulate = v.accumulate;
  if (v.accumulateMinSize < 0)
    return emitError(loc) << passName
                          << ": accumulate-min-size must not be negative";
  options.accumulateMinSize = v.accumulateMinSize;
  options.missingOp = v.missingOp;
  options.placement = v.placement;
  if (!v.target.empty()) {
    std::optional<TargetName> name = parseTargetName(v.target);
    if (!name)
      return emitError(loc) << describeUnsupportedTarget(v.target);
    FailureOr<Attribute> attr = buildTargetAttr(ctx, *name, loc);
    if (failed(attr))
      return failure();
    options.defaultTarget = *attr;
  }
  options.keepIOTypes = v.keepIOTypes;

  table = std::make_shared<PolicyTable>();
  table->addOpList(v.neverOps, Policy::Never);
  table->addOpList(v.followOps, Policy::Follow);
  table->addOpList(v.allowOps, Policy::Allow);
  // A name is checked against its dialect: an unknown dialect or, for a
  // loaded dialect, an unknown op is reported. (A dialect that is registered
  // but not loaded has no ops in the input to match.)
  for (const std::string &name : table->listedOpNames()) {
    StringRef dialect = StringRef(name).split('.').first;
    bool known = ctx->getLoadedDialect(dialect)
                     ? RegisteredOperationName::lookup(name, ctx).has_value()
                     : llvm::is_contained(ctx->getAvailableDialects(), dialect);
    if (!known)
      emitWarning(loc) << passName << ": no registered op is named '" << name
                       << "' (listed in allow/follow/never)";
  }
  if (!v.policyFile.empty()) {
    std::string error;
    if (failed(table->loadFile(v.policyFile, error)))
      return emitError(loc) << passName << ": " << error;
  }
  options.policy = table.get();

  std::string rangeError;
  if (failed(parseInputRanges(v.inputRanges, rangeError)))
    return emitError(loc) << passName << ": " << rangeError;
  options.inputRanges.assign(v.inputRanges.begin(), v.inputRanges.end());
  calibrated.reset();
  if (!v.rangesFile.empty()) {
    llvm::Expected<CalibratedRanges> file = readCalibratedRanges(v.rangesFile);
    if (!file)
      return emitError(loc)
             << passName << ": ranges=" << llvm::toString(file.takeError());
    calibrated = std::make_shared<CalibratedRanges>(std::move(*file));
  }
  return success();
}

FailureOr<PrecisionAssignment> DecisionSetup::analyze(Operation *root,
                                                      bool describeRanges,
                                                      bool changeSignatures,
                                                      AnalysisRun &run) const {
  // The analysis weighs every use of a value: dead ops would sway it, and
  // the pass erases what it leaves dead, so that a second run, which sees
  // none of them, decides the same.
  //
  // Calibrated ranges name ops by their place in the program as it was
  // written (amp-run numbers them so): they are matched first, and only the
  // values that survive are kept.
  run.options = options;
  run.options.describeRanges = describeRanges;
  if (calibrated) {
    auto matched = matchCalibratedRanges(root, *calibrated);
    if (!matched) {
      // Located at the root, without printing it: the message names the op.
      mlir::emitError(root->getLoc(), passName + ": ")
          << llvm::toString(matched.takeError());
      return failure();
    }
    eraseDeadOps(root);
    root->walk([&](Operation *op) {
      for (Value result : op->getResults())
        if (auto it = matched->find(result); it != matched->end())
          run.calibratedValues.try_emplace(result, it->second);
    });
    run.options.calibrated = &run.calibratedValues;
  } else {
    eraseDeadOps(root);
  }
  // Selectors of individual ops must select something: checked where the
  // pass sees the whole program.
  if (changeSignatures)
    table->resetSelectorMatches();
  FailureOr<PrecisionAssignment> assignment =
      PrecisionAssignment::analyze(root, run.options, changeSignatures);
  if (failed(assignment))
    return failure();
  if (changeSignatures && failed(checkSelectorsMatched(root, *table)))
    return failure();
  return assignment;
}

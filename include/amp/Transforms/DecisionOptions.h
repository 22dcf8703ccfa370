//===- DecisionOptions.h - Options that decide, shared by passes -*- C++
//-*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// mixed-precision and amp-emulate-precision take the same options that
// decide (precision, lists, policy file, ranges, target, ...). This checks
// them once per pass (initialize) and runs the analysis the same way for
// both, so that the emulation emulates exactly what the conversion does.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_DECISIONOPTIONS_H
#define AMP_TRANSFORMS_DECISIONOPTIONS_H

#include "amp/Analysis/AssignmentOptions.h"
#include "amp/Analysis/CalibratedRanges.h"
#include "amp/Analysis/FloatRangeAnalysis.h"
#include "amp/Analysis/Policy.h"
#include "amp/Analysis/PrecisionAssignment.h"

#include <memory>
#include <string>

namespace mlir {
namespace amp {

/// The values of the decision options of a pass (Passes.td's
/// decisionOptions), as its generated base holds them.
struct DecisionOptionValues {
  LowPrecision precision = LowPrecision::F16;
  AccumulateMode accumulate = AccumulateMode::F32;
  int64_t accumulateMinSize = 0;
  bool keepIOTypes = true;
  ArrayRef<std::string> allowOps, followOps, neverOps;
  StringRef policyFile;
  MissingOpMode missingOp = MissingOpMode::Never;
  Placement placement = Placement::Optimal;
  StringRef target;
  ArrayRef<std::string> inputRanges;
  StringRef rangesFile;
};

/// The decision options of a pass whose options include decisionOptions
/// (the pass declares it a friend: its options are protected).
template <typename PassT>
DecisionOptionValues getDecisionOptionValues(const PassT &pass) {
  DecisionOptionValues v;
  v.precision = pass.precision;
  v.accumulate = pass.accumulate;
  v.accumulateMinSize = pass.accumulateMinSize;
  v.keepIOTypes = pass.keepIOTypes;
  v.allowOps = pass.allowOps;
  v.followOps = pass.followOps;
  v.neverOps = pass.neverOps;
  v.policyFile = pass.policyFile;
  v.missingOp = pass.missingOp;
  v.placement = pass.placement;
  v.target = pass.target;
  v.inputRanges = pass.inputRanges;
  v.rangesFile = pass.rangesFile;
  return v;
}

/// The options of one run of the analysis, with the calibrated values they
/// point to; the caller keeps it as long as the assignment.
struct AnalysisRun {
  AssignmentOptions options;
  llvm::DenseMap<Value, ObservedRange> calibratedValues;
};

/// What a pass made of its decision options, shared by its clones.
class DecisionSetup {
public:
  /// Checks the options; errors are one line, prefixed with `passName`.
  LogicalResult initialize(MLIRContext *ctx, const DecisionOptionValues &values,
                           StringRef passName);

  /// Runs the analysis on `root` as the pass would: calibrated ranges
  /// matched first, dead ops erased, and, where `root` is a symbol table
  /// (the whole program), every `loc`/`in` selector of the policy file
  /// checked to select an op. Emits diagnostics on failure.
  FailureOr<PrecisionAssignment> analyze(Operation *root, bool describeRanges,
                                         bool changeSignatures,
                                         AnalysisRun &run) const;

  const AssignmentOptions &getOptions() const { return options; }

private:
  std::string passName;
  AssignmentOptions options;
  std::shared_ptr<PolicyTable> table;
  std::shared_ptr<CalibratedRanges> calibrated;
};

/// The dialects a `target=` option needs loaded, when one is named.
void insertDecisionDialects(DialectRegistry &registry, StringRef target);

} // namespace amp
} // namespace mlir

#endif // AMP_TRANSFORMS_DECISIONOPTIONS_H

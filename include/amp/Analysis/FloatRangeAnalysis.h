//===- FloatRangeAnalysis.h - Ranges of float values ------------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A forward analysis of the interval each float value's elements lie in
// (FloatRange.h). Sources:
// constants; function arguments (assumed to fit the low type, or given by
// the user: `amp.range = [lo, hi]` on the argument, the pass's
// `input-range=`, a policy file's `range` rule on the function); op results
// a policy file's `range` rule states; calibrated ranges (`amp-run
// --calibrate`). Transfer
// functions cover arith and math, linalg (any structured op, by evaluating
// its body on intervals, reductions counted), linalg.softmax, tosa and
// tensor; control flow (branches, region branch ops) and calls are joined,
// and values carried around loops are widened so that the analysis
// terminates.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_FLOATRANGEANALYSIS_H
#define AMP_ANALYSIS_FLOATRANGEANALYSIS_H

#include "amp/Analysis/CalibratedRanges.h"
#include "amp/Analysis/FloatRange.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace mlir {
namespace amp {

/// The range an entry's argument is given by the user.
struct InputRange {
  /// The argument index, or nullopt for every float argument.
  std::optional<unsigned> argument;
  double lo, hi;
};

/// Parses `input-range=` entries: `LO:HI` (every float argument of every
/// function whose callers amp does not see) or `N=LO:HI` (argument N).
FailureOr<SmallVector<InputRange>> parseInputRanges(ArrayRef<std::string> specs,
                                                    std::string &error);

class PolicyTable;

struct FloatRangeOptions {
  SmallVector<InputRange> inputRanges;
  /// A policy file's `range` rules (null: none).
  const PolicyTable *policy = nullptr;
  /// Observed ranges of op results (matchCalibratedRanges).
  const llvm::DenseMap<Value, ObservedRange> *calibrated = nullptr;
};

/// The ranges of every float value under `root`, computed once.
class FloatRanges {
public:
  static FailureOr<FloatRanges> compute(Operation *root,
                                        const FloatRangeOptions &options);
  FloatRanges(FloatRanges &&);
  FloatRanges &operator=(FloatRanges &&);
  ~FloatRanges();

  /// The range of `value`; uninitialized for values the analysis did not
  /// reach (dead code) and for values that hold no floats.
  FloatRange lookup(Value value) const;

  /// Whether `value` may be stored in `lowType` (f16 or bf16): its range
  /// fits the type's finite values (with a margin of 2 on calibrated maxima,
  /// which other inputs may exceed) and its nonzero values do not all fall
  /// below the type's smallest normal. bf16 has f32's range: only underflow
  /// can matter there.
  /// The reason is only written when `explain` is set.
  RangeFit fits(Value value, FloatType lowType, bool explain = true) const;

  /// A one-line account of `value`'s range for remarks ("in [0, 1]: output
  /// of linalg.softmax", "may reach inf: math.exp of values assumed in
  /// [-65504, 65504]").
  std::string describe(Value value) const;

private:
  FloatRanges();
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_FLOATRANGEANALYSIS_H

//===- AssignmentOptions.h - What the analysis is asked to do ---*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The options of the precision assignment. The enums are also the types of
// the mixed-precision pass's options (include/amp/Transforms/Passes.td), so
// that their spellings are checked by the option parser.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_ASSIGNMENTOPTIONS_H
#define AMP_ANALYSIS_ASSIGNMENTOPTIONS_H

#include "amp/Analysis/PlacementProblem.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <string>
#include <vector>

namespace mlir {
namespace amp {
class PolicyTable;
struct ObservedRange;

/// The low-precision type ops are converted to.
enum class LowPrecision { F16, BF16 };

/// How contractions, reductions and pools accumulate.
enum class AccumulateMode { F32, Low };

/// Ops without a model whose traits say nothing safe about them.
enum class MissingOpMode { Follow, Never, Warn, Error };

/// How follow ops and free values are placed once categories are known.
enum class Placement {
  /// Follow ops stay f32: casts at every boundary of an allow op.
  Naive,
  /// TVM's forward rule: a follow op runs low iff its inputs are low.
  Greedy,
  /// The labelling that moves the fewest bytes (casts plus the extra bytes
  /// of values kept in f32), found exactly by a minimum cut.
  Optimal,
};

struct AssignmentOptions {
  FloatType lowType;
  AccumulateMode accumulate = AccumulateMode::F32;
  /// With AccumulateMode::F32: shorter reductions accumulate low.
  int64_t accumulateMinSize = 0;
  bool keepIOTypes = true;
  MissingOpMode missingOp = MissingOpMode::Never;
  const PolicyTable *policy = nullptr;
  Placement placement = Placement::Optimal;
  /// The target of ops with no target attribute around them (null: the
  /// CPU, which computes everything).
  Attribute defaultTarget;
  /// Ranges of function arguments (`input-range=`), as LO:HI or N=LO:HI
  /// entries (parseInputRanges in FloatRangeAnalysis.h checks them).
  std::vector<std::string> inputRanges;
  /// Ranges observed by `amp-run --calibrate`, matched to the program's
  /// values (matchCalibratedRanges; null: none).
  const llvm::DenseMap<Value, ObservedRange> *calibrated = nullptr;
  /// Keep, in each decision, an account of its results' ranges (for
  /// remarks and reports; off, none is built).
  bool describeRanges = false;
  /// With the optimal placement, called with each placement problem and
  /// the minimum cut's solution before the labels are applied (tests check
  /// it against every labelling: amp-test-check-optimality).
  std::function<void(Operation *root, const PlacementProblem &,
                     const PlacementProblem::Solution &)>
      placementObserver;
};

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_ASSIGNMENTOPTIONS_H

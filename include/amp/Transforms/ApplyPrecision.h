//===- ApplyPrecision.h - Rewrite to assigned precision ---------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The rewrite half of mixed precision: given a PrecisionAssignment, changes
// the types of values and ops and places the casts. Public so that other
// pipelines can run amp's analysis and rewrite with their own options.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_APPLYPRECISION_H
#define AMP_TRANSFORMS_APPLYPRECISION_H

#include "amp/Analysis/PrecisionAssignment.h"

namespace mlir {
namespace amp {

struct PrecisionRewriteStats {
  unsigned lowOps = 0;
  unsigned f32Ops = 0;
  unsigned wideAccumulatorOps = 0;
  /// Casts the rewrite created (net of the ones cleanup removed).
  int64_t castsInserted = 0;
  /// Bytes the program's casts read and write (statically shaped values;
  /// the program's own casts included).
  int64_t castBytes = 0;
  /// Bytes saved by materialising constants in the low type.
  int64_t constantBytesSaved = 0;
  /// An error was emitted (a buffer an op needs in f32 could not be
  /// copied); the IR is not valid.
  bool failed = false;
};

/// Rewrites every function in `root` to the types `assignment` gives. An op
/// whose model declines the rewrite stays f32 (its decision is updated with
/// the reason). Casts are created once per value and type, right after the
/// value's definition; constants are converted at compile time instead of
/// cast. Casts are not folded and ops the rewrite leaves without users are
/// not erased: that is the caller's choice (foldAmpCasts, eraseDeadOps).
/// Fails, after an error, when the IR could not be made valid.
LogicalResult applyPrecisionAssignment(Operation *root,
                                       PrecisionAssignment &assignment,
                                       PrecisionRewriteStats &stats);

/// The casts (arith.extf/truncf at function or region-branch level) in
/// `root` and the bytes they read and write (statically shaped values).
struct CastCount {
  int64_t casts = 0;
  int64_t bytes = 0;
};
CastCount countCasts(Operation *root);

/// Erases the ops in `root` that have no uses and no side effects: what a
/// rewrite leaves behind (empty tensors, fills and casts of old types).
void eraseDeadOps(Operation *root);

} // namespace amp
} // namespace mlir

#endif // AMP_TRANSFORMS_APPLYPRECISION_H

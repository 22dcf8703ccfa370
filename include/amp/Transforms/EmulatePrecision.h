//===- EmulatePrecision.h - Mixed precision emulated in f32 -----*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The other half of a PrecisionAssignment: instead of changing types,
// rounds values to the low type where the converted program would hold them
// there, each op's rounding behind a gate read at run time. A precision
// tuner compiles the result once and tries policies by switching gates
// (amp-emulate-precision, python/amp/_tune.py).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_EMULATEPRECISION_H
#define AMP_TRANSFORMS_EMULATEPRECISION_H

#include "amp/Analysis/PrecisionAssignment.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include <string>
#include <vector>

namespace mlir {
namespace amp {

/// One gate: an op that computes (not data movement), whatever its mode.
struct EmulationGate {
  /// The op's first location name: what a policy rule's `loc:` selects
  /// ("" when it has none: no rule can select it).
  std::string loc;
  std::string opName;
  ComputeMode mode;
  /// Floating-point operations of one run, from static shapes.
  int64_t flops;
  /// Low by its own category (allow), not by following its neighbours.
  bool allow;
};

/// Every op of a function that computes, in program order: the list is the
/// same under any policy, so that a tuner can read the modes a policy gives
/// (collectEmulationGates) and switch the gates of the ops it makes low.
struct EmulationGates {
  std::vector<EmulationGate> gates;
  int64_t totalFlops = 0;
  /// The function's argument that holds the gates (`tensor<Nxf32>`,
  /// nonzero: on), or -1 when nothing is rounded.
  int argument = -1;
};

/// The gates of `function` under `assignment`, changing nothing.
EmulationGates collectEmulationGates(FunctionOpInterface function,
                                     const PrecisionAssignment &assignment);

/// Rewrites `function` to emulate `assignment` in f32: each op that
/// computes low rounds its float operands (its wide accumulators excepted)
/// and the results the converted program stores low, behind its gate; a
/// wide accumulator rounds what it reads low behind its producer's gate.
/// `excessPrecision` emulates a target that computes chains of low
/// elementwise ops in f32 (amp's CPU backend in bf16): between two such ops
/// a value is rounded only when exactly one of them is low. Adds the gates
/// argument last.
FailureOr<EmulationGates>
emulatePrecisionAssignment(FunctionOpInterface function,
                           const PrecisionAssignment &assignment,
                           bool excessPrecision);

} // namespace amp
} // namespace mlir

#endif // AMP_TRANSFORMS_EMULATEPRECISION_H

//===- CalibratedRanges.h - Value ranges observed by running ----*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What `amp-run --calibrate=ranges.json` observed of every float op result
// of an f32 program, and what `mixed-precision{ranges=ranges.json}` reads.
// Both sides number the values the same way (forEachCalibratedValue), and an
// entry names its op and location, so that a file made for another program
// is an error that names the first entry that does not match.
//
// The file (version 1):
//
//   {"amp_ranges_version": 1, "calls": 3,
//    "values": [{"op": 4, "result": 0, "name": "math.exp",
//                "loc": "model.mlir:7:10", "count": 3072,
//                "min": 0.01, "max": 1.2e6, "max_abs": 1.2e6,
//                "min_nonzero_abs": 0.01,
//                "f16_zero_or_subnormal": 0.0, "bf16_zero_or_subnormal": 0.0,
//                "nonfinite": 0}, ...]}
//
// `op` is the op's position in a pre-order walk of the program (the module
// itself excluded, every op counted); `loc` its location as formatLocation
// prints it. `count` counts every element observed over all calls (a loop
// body's value once per iteration); min, max and the magnitudes are over the
// finite elements; the two fractions count the nonzero finite elements that
// round to zero or to a subnormal in f16 and bf16, over `count`.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_CALIBRATEDRANGES_H
#define AMP_ANALYSIS_CALIBRATEDRANGES_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace mlir {
namespace amp {

/// What was observed of one result of one op.
struct ObservedRange {
  uint64_t opIndex = 0;
  unsigned resultNumber = 0;
  std::string opName;
  std::string location;

  uint64_t count = 0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  double maxAbs = 0;
  double minNonzeroAbs = std::numeric_limits<double>::infinity();
  uint64_t f16ZeroOrSubnormal = 0, bf16ZeroOrSubnormal = 0;
  uint64_t nonfinite = 0;

  /// Adds `n` elements to the statistics.
  void observe(const float *data, uint64_t n);
  /// True if some finite element was observed.
  bool hasFiniteValues() const { return min <= max; }
  double f16ZeroOrSubnormalFraction() const;
  double bf16ZeroOrSubnormalFraction() const;
};

struct CalibratedRanges {
  /// Calls of the program the statistics were gathered over.
  uint64_t calls = 0;
  std::vector<ObservedRange> values;
};

/// Calls `fn` for every result of every op that holds values of the
/// program -- an op not inside the body of an op converting its own body
/// (a linalg op's scalar body) -- with the op's index in a pre-order walk of
/// `root` (root excluded, every op counted).
void forEachProgramResult(
    Operation *root, llvm::function_ref<void(uint64_t opIndex, OpResult)> fn);

/// The values calibration observes, in order: the results forEachProgramResult
/// visits that are of f32 or ranked-tensor-of-f32 type.
void forEachCalibratedValue(
    Operation *root, llvm::function_ref<void(uint64_t opIndex, OpResult)> fn);

/// A location as the ranges file and reports print it: a name (ONNX node
/// names) as is, a file location as `basename:line:col`, a fused or
/// call-site location by its first part.
std::string formatLocation(Location loc);

/// An entry for `result` of the op numbered `opIndex`, statistics empty.
ObservedRange makeObservedRange(uint64_t opIndex, OpResult result);

llvm::Error writeCalibratedRanges(llvm::StringRef path,
                                  const CalibratedRanges &ranges);
/// Reads a ranges file; errors start with `path:`.
llvm::Expected<CalibratedRanges> readCalibratedRanges(llvm::StringRef path);

/// The observed range of every value of `root` that `ranges` covers. Fails,
/// naming the first entry that does not match (index out of range, another
/// op, another location), when `ranges` was made for another program.
llvm::Expected<llvm::DenseMap<Value, ObservedRange>>
matchCalibratedRanges(Operation *root, const CalibratedRanges &ranges);

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_CALIBRATEDRANGES_H

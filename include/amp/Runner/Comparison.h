//===- Comparison.h - Results against a reference ---------------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Element-wise comparison of a result with a reference array, in f64 after
// widening f16/bf16 (so a bf16 result compares directly with an f32
// reference). An element is out of tolerance when
// |result - reference| > atol + rtol * |reference| (NumPy's isclose), or
// when exactly one of the two is NaN, or they are different infinities.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_COMPARISON_H
#define AMP_RUNTIME_COMPARISON_H

#include "amp/Runner/HostTensor.h"

#include "llvm/Support/Error.h"

namespace mlir {
namespace amp {
namespace runtime {

struct ComparisonStats {
  /// Over the elements where both values are finite.
  double maxAbsError = 0;
  /// |result - reference| / |reference| over the finite elements with a
  /// nonzero reference.
  double maxRelError = 0;
  double meanAbsError = 0;
  int64_t outOfTolerance = 0;
  int64_t count = 0;
  /// The first element out of tolerance (row-major index), or -1.
  int64_t firstBadIndex = -1;
};

/// Fails when the shapes differ.
llvm::Expected<ComparisonStats>
compareWithReference(const HostTensor &result, const HostTensor &reference,
                     double rtol, double atol);

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNTIME_COMPARISON_H

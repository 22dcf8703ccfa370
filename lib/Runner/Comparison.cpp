//===- Comparison.cpp - Results against a reference -----------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Comparison.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amp::runtime;

llvm::Expected<ComparisonStats>
mlir::amp::runtime::compareWithReference(const HostTensor &result,
                                         const HostTensor &reference,
                                         double rtol, double atol) {
  if (result.getShape() != reference.getShape())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the result has shape (" +
                                       formatShape(result.getShape()) +
                                       ") but the reference has shape (" +
                                       formatShape(reference.getShape()) + ")");
  ComparisonStats stats;
  stats.count = result.getNumElements();
  double sumAbsError = 0;
  int64_t finite = 0;
  for (int64_t i = 0; i < stats.count; ++i) {
    double actual = result.getAsDouble(i);
    double expected = reference.getAsDouble(i);
    bool bad;
    if (std::isfinite(actual) && std::isfinite(expected)) {
      double error = std::fabs(actual - expected);
      stats.maxAbsError = std::max(stats.maxAbsError, error);
      if (expected != 0)
        stats.maxRelError =
            std::max(stats.maxRelError, error / std::fabs(expected));
      sumAbsError += error;
      ++finite;
      bad = error > atol + rtol * std::fabs(expected);
    } else {
      bool bothNaN = std::isnan(actual) && std::isnan(expected);
      bad = !bothNaN && actual != expected;
    }
    if (bad) {
      if (stats.outOfTolerance++ == 0)
        stats.firstBadIndex = i;
    }
  }
  stats.meanAbsError = finite ? sumAbsError / finite : 0;
  return stats;
}

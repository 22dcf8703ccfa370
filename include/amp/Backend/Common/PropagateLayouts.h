//===- PropagateLayouts.h - Results in the layout of inputs -----*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_COMMON_PROPAGATELAYOUTS_H
#define AMP_BACKEND_COMMON_PROPAGATELAYOUTS_H

namespace mlir {
class RewritePatternSet;
namespace amp {

/// Stores the results of elementwise `linalg.generic`s in the layout of
/// their largest input where that lowers the number of operands read or
/// written across their innermost loop, and interchanges the loops of those
/// writing their outputs through a permutation so that they write them in
/// loop order (see the amp-propagate-layouts pass).
void populatePropagateLayoutsPatterns(RewritePatternSet &patterns);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_COMMON_PROPAGATELAYOUTS_H

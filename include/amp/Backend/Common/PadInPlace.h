//===- PadInPlace.h - Padded tensors written in place -----------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_COMMON_PADINPLACE_H
#define AMP_BACKEND_COMMON_PADINPLACE_H

namespace mlir {
class RewritePatternSet;
namespace amp {

/// Rewrites each `tensor.pad` of static shape and padding with a constant
/// value into fills of its border slabs and an insertion of the source into
/// the interior; an elementwise producer of the source writes straight into
/// the interior (see the amp-pad-in-place pass).
void populatePadInPlacePatterns(RewritePatternSet &patterns);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_COMMON_PADINPLACE_H

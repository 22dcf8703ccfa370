//===- ConcatInPlace.h - Concatenations written in place --------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_COMMON_CONCATINPLACE_H
#define AMP_BACKEND_COMMON_CONCATINPLACE_H

namespace mlir {
class RewritePatternSet;

namespace amp {

/// Rewrites each concatenation (`tensor.insert_slice`s of static, disjoint
/// slices into a `tensor.empty`), and each constant `tensor.pad` of one, so
/// that every piece is inserted right after it is computed and an
/// elementwise producer of a piece writes straight into its slice (see the
/// amp-concat-in-place pass).
void populateConcatInPlacePatterns(RewritePatternSet &patterns);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_COMMON_CONCATINPLACE_H

//===- CastFolding.h - Exact cast folding patterns --------------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_CASTFOLDING_H
#define AMP_TRANSFORMS_CASTFOLDING_H

namespace mlir {
class DialectRegistry;
class Operation;
class RewritePatternSet;
namespace amp {

/// Patterns that fold, merge and move arith.extf/arith.truncf casts without
/// changing any value the program computes (see the amp-fold-casts pass).
/// They are meant to run with folding enabled, so that the upstream arith
/// folders (truncf(extf(x)) -> x, exact constant casts) apply too.
void populateAmpCastFoldingPatterns(RewritePatternSet &patterns);

/// Applies those patterns and the upstream cast folders to the casts nested
/// in `root` (and the casts they create), touching no other op, and erases
/// the casts left without users. Returns whether anything changed.
bool foldAmpCasts(Operation *root);

/// Makes amp's cast folding part of `--canonicalize` in every context built
/// from `registry`: whenever the arith dialect is loaded, the amp dialect is
/// loaded with it and contributes populateAmpCastFoldingPatterns as its
/// canonicalization patterns. amp::registerAllDialects calls it.
void registerCastFoldingCanonicalization(DialectRegistry &registry);

} // namespace amp
} // namespace mlir

#endif // AMP_TRANSFORMS_CASTFOLDING_H

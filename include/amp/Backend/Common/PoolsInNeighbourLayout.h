//===- PoolsInNeighbourLayout.h - Pools without transposes ------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_COMMON_POOLSINNEIGHBOURLAYOUT_H
#define AMP_BACKEND_COMMON_POOLSINNEIGHBOURLAYOUT_H

namespace mlir {
class RewritePatternSet;
namespace amp {

/// Computes a window reduction (a max, min or sum pool as a
/// `linalg.generic` on tensors) whose input is a transpose and whose only
/// user is the inverse transpose in the layout of the transposes' other
/// side: it reads the transpose's input and writes the inverse's result
/// (see the amp-pools-in-neighbour-layout pass).
void populatePoolsInNeighbourLayoutPatterns(RewritePatternSet &patterns);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_COMMON_POOLSINNEIGHBOURLAYOUT_H

//===- FuseElementwise.h - Elementwise fusion without recomputation C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_FUSEELEMENTWISE_H
#define AMP_TRANSFORMS_FUSEELEMENTWISE_H

namespace mlir {
class OpOperand;
class RewritePatternSet;
namespace amp {

/// Whether fusing the producer of `operand` into the linalg op that owns it
/// would evaluate the producer more than once per element of that op's
/// output: the op reduces and reads `operand` through a map that is not a
/// permutation of its loops.
bool fusionRecomputes(OpOperand *operand);

/// Whether the producer of `fusedOperand` may be fused into the linalg op
/// that owns it: the producer has no other use, and fusing it does not
/// evaluate it more than once per element of the consumer's output (it
/// would when the consumer reduces and reads it through a map that is not
/// a permutation of the consumer's loops).
bool shouldFuseElementwise(OpOperand *fusedOperand);

/// Whether a reshape may be folded into the linalg op next to it by
/// expanding the op (`operand` is the consumer's operand): the producer has
/// no other use, and the reshape does not split the innermost dimension of
/// a reduction's result into several. That dimension is the one amp's
/// contraction kernels vectorize: a matmul whose 96 output columns became
/// 3 x 4 x 8 would run on vectors of 8 lanes. The reshape stays a view of
/// the result instead.
bool shouldFoldReshape(OpOperand *operand);

/// Elementwise fusion under shouldFuseElementwise, reshape folding by
/// expansion under shouldFoldReshape, transposes of concatenations pushed
/// into the pieces, constant folding of linalg ops and the
/// canonicalizations of the ops involved (see the amp-fuse-elementwise
/// pass).
void populateAmpElementwiseFusionPatterns(RewritePatternSet &patterns);

} // namespace amp
} // namespace mlir

#endif // AMP_TRANSFORMS_FUSEELEMENTWISE_H

//===- PackWeights.h - Constant operands in kernel order --------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_CPU_PACKWEIGHTS_H
#define AMP_BACKEND_CPU_PACKWEIGHTS_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class RewriterBase;
namespace linalg {
class GenericOp;
} // namespace linalg
namespace amp {

/// Transposes, at compile time, the constant inputs of `op` (a reduction on
/// tensors whose output's innermost index is the loop dimension `n`) that
/// index `n` other than innermost, so that `n` becomes their innermost
/// index, and updates their indexing maps: a convolution's filter
/// `(f, kh, kw, c)` becomes `(kh, kw, c, f)`, a matmul's transposed weights
/// `(n, k)` become `(k, n)`. With `bf16Pairs`, the constant input of a
/// widened bf16 product sum goes to the pair layout of the AVX512-BF16 dot
/// product instead when it can (see getBF16PairInput). Fails when there is
/// no such operand.
LogicalResult packWeights(RewriterBase &rewriter, linalg::GenericOp op,
                          bool bf16Pairs = false);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_CPU_PACKWEIGHTS_H

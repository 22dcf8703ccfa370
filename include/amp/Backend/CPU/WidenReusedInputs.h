//===- WidenReusedInputs.h - Widen re-read low inputs once ------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_CPU_WIDENREUSEDINPUTS_H
#define AMP_BACKEND_CPU_WIDENREUSEDINPUTS_H

#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir {
class OpOperand;
class RewriterBase;
namespace linalg {
class GenericOp;
} // namespace linalg
namespace amp {

/// How many times `op` reads each element of its operand `input` on
/// average: the iterations of its loops over the input's elements. None
/// where a loop range or the input's shape is not static.
std::optional<double> getReadsPerElement(linalg::GenericOp op,
                                         OpOperand *input);

/// How many times the register-tiled kernel of amp-vectorize-contractions,
/// with tiles of up to `tileRows` rows, would widen each element of `input`
/// if it widened the input where the body does: each read of a scalar that
/// is broadcast (the input does not index the output's innermost
/// dimension) widens a whole vector, and a vector read serves the rows of
/// a tile, which lie along an output dimension the input does not index
/// (a matmul's `B[k, j]` is widened once per tile of rows `i`, `A[i, k]`
/// once per column of the output). getReadsPerElement over the rows a
/// vector read serves; none where that is none.
std::optional<double> getWideningsPerElement(linalg::GenericOp op,
                                             OpOperand *input,
                                             int64_t tileRows);

/// Widens, once, each input of `op` (a reduction on tensors) whose kernel
/// would widen each element `minWidenings` times or more
/// (getWideningsPerElement) and whose block argument only `arith.extf`
/// ops use, all to the same type: the input becomes an elementwise
/// `linalg.generic` that widens the whole tensor (for a `tensor.pad` of a
/// static source with a constant padding value, the pad of the widened
/// source), the block argument gets the wide type and the extfs go. The
/// products are then those of the same wide values, in the same order.
/// With `keepBF16Products`, the bf16 inputs of an op whose body is
/// `acc + extf(a) * extf(b)` stay (amp-vectorize-contractions{bf16-dot}
/// reduces them as they are). Fails when no input changed.
LogicalResult widenReusedInputs(RewriterBase &rewriter, linalg::GenericOp op,
                                double minWidenings = 2, int64_t tileRows = 8,
                                bool keepBF16Products = false);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_CPU_WIDENREUSEDINPUTS_H

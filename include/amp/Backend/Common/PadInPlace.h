//===- PadInPlace.h - Padded tensors written in place -----------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_COMMON_PADINPLACE_H
#define AMP_BACKEND_COMMON_PADINPLACE_H

#include "mlir/IR/Builders.h"

namespace mlir {
class OpOperand;
class RewritePatternSet;
namespace amp {

/// Rewrites each `tensor.pad` of static shape and padding with a constant
/// value into fills of its border slabs and an insertion of the source into
/// the interior; an elementwise producer of the source writes straight into
/// the interior (see the amp-pad-in-place pass).
void populatePadInPlacePatterns(RewritePatternSet &patterns);

/// The destination of the result `value` of a linalg op on tensors whose
/// loops are all parallel and that writes every element of that result
/// without reading its destination (a permutation map that the body does
/// not read), or null: the destination may be replaced by any tensor of
/// its type, a slice of a larger one included.
OpOperand *getOverwrittenInit(Value value);

/// `padded` (a tensor of static shape) with its border slabs, `low` and
/// `high` elements of each dimension, filled with `value`
/// (`tensor.extract_slice`, `linalg.fill`, `tensor.insert_slice`).
Value fillBorder(OpBuilder &b, Location loc, Value padded,
                 ArrayRef<int64_t> low, ArrayRef<int64_t> high, Value value);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_COMMON_PADINPLACE_H

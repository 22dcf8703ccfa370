//===- FloatRangeTransfer.h - What each op makes of ranges -----*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Analysis: the transfer functions of the float range
// analysis (FloatRangeAnalysis.cpp), one per op family.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_ANALYSIS_FLOATRANGETRANSFER_H
#define AMP_LIB_ANALYSIS_FLOATRANGETRANSFER_H

#include "amp/Analysis/FloatRange.h"

#include "mlir/IR/Operation.h"

namespace mlir {
namespace amp {
namespace ranges {

/// A float or complex scalar, or a shaped value of them (a complex value's
/// range is that of its real and imaginary parts).
inline bool holdsFloats(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  if (auto complex = dyn_cast<ComplexType>(type))
    type = complex.getElementType();
  return isa<FloatType>(type);
}

/// The ranges of `op`'s results from its operands' ranges (one per operand;
/// uninitialized for operands that hold no floats). `outside` gives the
/// range of a value a linalg body captures from outside the op.
SmallVector<FloatRange> evaluate(Operation *op, ArrayRef<FloatRange> operands,
                                 llvm::function_ref<FloatRange(Value)> outside);

} // namespace ranges
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_ANALYSIS_FLOATRANGETRANSFER_H

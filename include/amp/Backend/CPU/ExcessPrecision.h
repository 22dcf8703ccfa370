//===- ExcessPrecision.h - Low-precision arithmetic in f32 ------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_CPU_EXCESSPRECISION_H
#define AMP_BACKEND_CPU_EXCESSPRECISION_H

#include "mlir/IR/Operation.h"

namespace mlir {
namespace amp {

/// Computes every scalar or vector arith/math op (and vector.fma) under
/// `root` whose float operands and results are all of one type `widen`
/// accepts in f32: operands produced by such ops are taken in f32 as they
/// are, others are widened with arith.extf, and a result is rounded with
/// arith.truncf only for users that are not such ops. Casts (arith.extf,
/// arith.truncf) and ops with regions are left alone.
void computeInExcessPrecision(Operation *root,
                              function_ref<bool(FloatType)> widen);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_CPU_EXCESSPRECISION_H

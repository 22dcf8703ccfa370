//===- OutlineKernels.h - Each loop nest a function of its own --*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_CPU_OUTLINEKERNELS_H
#define AMP_BACKEND_CPU_OUTLINEKERNELS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace amp {

/// Moves `kernel`, an op with regions in a func.func, into a private
/// no_inline function inserted into `symbols` before its parent, replaced
/// by a call (amp-outline-kernels). Fails, changing nothing, for an op
/// without regions or outside a func.func.
FailureOr<func::FuncOp> outlineKernel(Operation *kernel, SymbolTable &symbols);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_CPU_OUTLINEKERNELS_H

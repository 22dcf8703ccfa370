//===- WideConvolutionResults.h - Convolution sums in f32 -------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_CPU_WIDECONVOLUTIONRESULTS_H
#define AMP_BACKEND_CPU_WIDECONVOLUTIONRESULTS_H

#include "mlir/IR/Operation.h"

namespace mlir {
namespace amp {

/// Makes every TOSA convolution under `root` that accumulates in f32, returns
/// a type `widen` accepts, and whose result only reaches an `arith.extf` to
/// f32 (through single-use `tosa.transpose` and `tosa.reshape` ops) return
/// its f32 sums, its bias widened; the extf goes. Returns how many it
/// changed.
unsigned widenConvolutionResults(Operation *root,
                                 function_ref<bool(FloatType)> widen);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_CPU_WIDECONVOLUTIONRESULTS_H

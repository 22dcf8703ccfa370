//===- Passes.h - Lowering passes for GPU kernels ---------------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_GPU_PASSES_H
#define AMP_BACKEND_GPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace amp {

#define GEN_PASS_DECL
#include "amp/Backend/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "amp/Backend/GPU/Passes.h.inc"

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_GPU_PASSES_H

//===- Passes.h - Every lowering pass of amp's backends --------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The backends lower what mixed-precision produces; they are not part of
// deciding precision and link nothing the core needs.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_PASSES_H
#define AMP_BACKEND_PASSES_H

#include "amp/Backend/CPU/Passes.h"
#include "amp/Backend/Common/Passes.h"
#include "amp/Backend/GPU/Passes.h"
#include "amp/Backend/SPIRV/Passes.h"

namespace mlir {
namespace amp {

/// Registers the passes of every backend.
inline void registerAmpBackendPasses() {
  registerAmpCommonPasses();
  registerAmpCPUPasses();
  registerAmpGPUPasses();
  registerAmpSPIRVPasses();
}

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_PASSES_H

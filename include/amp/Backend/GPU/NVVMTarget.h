//===- NVVMTarget.h - NVIDIA targets for amp's vocabulary -------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_GPU_NVVMTARGET_H
#define AMP_BACKEND_GPU_NVVMTARGET_H

namespace mlir {
class DialectRegistry;
namespace amp {

/// Attaches AmpTargetAttrInterface to `#nvvm.target`: what an NVIDIA GPU
/// computes in f16 and bf16, by compute capability.
void registerNVVMTargetModel(DialectRegistry &registry);

/// Registers the GPU backend for the target names `sm_<N>[a|f]`
/// (amp/Target/TargetNames.h), process-wide.
void registerNVVMTargets();

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_GPU_NVVMTARGET_H

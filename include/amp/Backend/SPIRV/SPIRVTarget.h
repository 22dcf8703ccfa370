//===- SPIRVTarget.h - Vulkan targets for amp's vocabulary ------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_SPIRV_SPIRVTARGET_H
#define AMP_BACKEND_SPIRV_SPIRVTARGET_H

namespace mlir {
class DialectRegistry;
namespace amp {

/// Attaches AmpTargetAttrInterface to `#spirv.target_env`: what a Vulkan
/// target computes and stores in f16 and bf16.
void registerSPIRVTargetModel(DialectRegistry &registry);

/// Registers the SPIR-V backend for the target names `vulkan` and
/// `vulkan-storage16` (amp/Target/TargetNames.h), process-wide.
void registerSPIRVTargets();

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_SPIRV_SPIRVTARGET_H

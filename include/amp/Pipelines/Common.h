//===- Common.h - What amp's lowering pipelines share -----------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The parts the backends' pipelines (lib/Backend/{CPU,GPU,SPIRV}/
// Pipeline.cpp) are built from: the tensor-level kernels, bufferization,
// the math approximations, and the GPU kernels both GPU backends share.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_PIPELINES_COMMON_H
#define AMP_PIPELINES_COMMON_H

#include "mlir/Pass/Pass.h"
#include "mlir/Support/LLVM.h"

#include <memory>

namespace mlir {
class OpPassManager;
namespace amp {

/// The tensor-level part every lowering shares: tosa to linalg, a copy of
/// each shared tensor cast per user, elementwise arith/math on tensors to
/// linalg.generic, aggregated ops decomposed, named ops generalized, and
/// elementwise fusion, which puts every cast into the kernel of its producer
/// or consumer.
void buildAmpFuseKernelsPipeline(OpPassManager &pm);

/// The kernels on buffers: a fill per destination, empty tensors
/// eliminated, one-shot bufferization across function boundaries with
/// identity layouts.
void buildAmpBufferizePipeline(OpPassManager &pm);

/// amp-approximate-math for `functions` (tanh, exp, log, erf, erfc).
std::unique_ptr<Pass>
createApproximateMathFor(ArrayRef<const char *> functions);

/// Fused kernels on buffers, as outlined GPU kernels (lib/Backend/GPU/
/// Pipeline.cpp): with `strategies`, contractions and row reductions
/// through the shared kernel strategies of lib/Backend/Common, whose
/// threads of a subgroup exchange values with shuffles where `subgroupSize`
/// is not 0; `addContractionKernels` adds a backend's own contraction
/// kernels before them (NVIDIA's tensor cores, Vulkan's cooperative
/// matrices), to the function pass manager it is given.
void buildAmpGPUKernelsPipeline(
    OpPassManager &pm, bool strategies, int64_t subgroupSize,
    function_ref<void(OpPassManager &)> addContractionKernels = nullptr);

} // namespace amp
} // namespace mlir

#endif // AMP_PIPELINES_COMMON_H

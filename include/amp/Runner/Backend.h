//===- Backend.h - Where amp-run runs a program -----------------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each backend is a row of one table: the registered amp pipeline that
// lowers the tensor-level program, and the runtime shared library (next to
// amp-run, in ../lib) that provides the mgpu* functions the lowered host
// code calls.
//
//   cpu     amp-lower-to-llvm                 (none)
//   vulkan  amp-lower-to-vulkan               libamp_vulkan_runtime.so
//   cuda    amp-lower-to-nvvm{chip= format=}  libamp_cuda_runtime.so
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_BACKEND_H
#define AMP_RUNTIME_BACKEND_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir {
namespace amp {
namespace runtime {

enum class Backend { CPU, Vulkan, CUDA };

struct BackendOptions {
  /// The NVIDIA GPU the CUDA backend compiles for.
  std::string cudaChip = "sm_90";
  /// What the kernels are embedded as: "isa" (PTX, compiled by the driver
  /// when loaded; needs no CUDA Toolkit), "bin" (cubin from ptxas) or
  /// "fatbin".
  std::string cudaFormat = "isa";
  /// The threads CPU code runs on (amp-lower-to-llvm{threads=N}).
  unsigned cpuThreads = 1;
  /// CPU code reduces bf16 products with AVX512-BF16
  /// (amp-lower-to-llvm{bf16-dot}); see hostHasBF16Dot and hostBF16DotPays.
  bool cpuBF16Dot = false;
  /// The CPU the code is for (amp-lower-to-llvm{cpu}): its vector
  /// registers choose the contraction kernels' register tile; empty for the
  /// pipeline's default. amp-run and amp.compile give the host's.
  std::string cpuChip;
  /// CPU code computes bf16 arithmetic in f32, rounding once per chain of
  /// ops (amp-lower-to-llvm{excess-precision}).
  bool cpuExcessPrecision = true;
  /// CPU code widens the f16/bf16 inputs that contractions read many times
  /// once, before them (amp-lower-to-llvm{widen-reused-inputs}).
  bool cpuWidenReusedInputs = true;
  /// GPU code runs contractions and row reductions through the shared
  /// kernel strategies (amp-lower-to-{vulkan,nvvm}{kernel-strategies}).
  bool gpuKernelStrategies = true;
  /// The Vulkan device's subgroup size, for reductions that shuffle within
  /// subgroups (amp-lower-to-vulkan{subgroup-size}); 0 for none.
  int64_t vulkanSubgroupSize = 0;
  /// CUDA code runs f16/bf16 contractions on tensor cores on sm_80 and
  /// later (amp-lower-to-nvvm{tensor-cores}).
  bool gpuTensorCores = true;
  /// Vulkan code runs the CUDA backend's tensor-core kernels with their
  /// warp-level ops emulated (amp-lower-to-vulkan{tensor-core-emulation}),
  /// for testing them without an NVIDIA GPU.
  bool vulkanTensorCoreEmulation = false;
  /// f32 contractions on TF32 tensor cores (CUDA, or Vulkan with the
  /// emulation): amp-lower-to-{nvvm,vulkan}{tf32}.
  bool gpuTF32 = false;
};

/// Whether this machine's CPU has the AVX512-BF16 dot product (and the
/// AVX512VL forms of it), as LLVM detects its features.
bool hostHasBF16Dot();

/// Whether this machine's CPU has the AVX512-BF16 dot product and adds
/// bf16 products faster with it than f32 products with fused multiply-adds
/// (amp::hasFastBF16Dot of its chip): amp-run's default for cpuBF16Dot.
bool hostBF16DotPays();

struct BackendDescription {
  Backend backend;
  llvm::StringRef name;
  /// The registered pipeline, without options.
  llvm::StringRef pipelineName;
  /// File name of the runtime library; empty when none is needed.
  llvm::StringRef runtimeLibrary;
  /// Whether kernels run on a device that cannot read the host's globals,
  /// so that the host code must ask the runtime for a device-visible copy
  /// of each (see routeGlobalsThroughRuntime).
  bool needsDeviceGlobals;
};

/// The backend named `name` ("cpu", "vulkan", "cuda"), if any.
std::optional<BackendDescription> lookupBackend(llvm::StringRef name);

/// The names of all backends, "cpu, vulkan, cuda".
std::string listBackends();

/// The textual pipeline (inside builtin.module(...)) for `backend`.
std::string getPipeline(const BackendDescription &backend,
                        const BackendOptions &options);

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNTIME_BACKEND_H

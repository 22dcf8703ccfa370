//===- Backend.cpp - Where amp-run runs a program -------------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Backend.h"
#include "amp/Backend/CPU/CPUTarget.h"
#include "amp/Pipelines/Backends.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir::amp::runtime;

namespace {
/// What running on a backend needs besides its pipeline (whose name, like
/// the backend's, comes from amp/Pipelines/Backends.h).
struct BackendRuntime {
  Backend backend;
  llvm::StringRef name;
  llvm::StringRef runtimeLibrary;
  bool needsDeviceGlobals;
};
} // namespace

static const BackendRuntime kRuntimes[] = {
    {Backend::CPU, "cpu", "", false},
    {Backend::Vulkan, "vulkan", "libamp_vulkan_runtime.so", false},
    {Backend::CUDA, "cuda", "libamp_cuda_runtime.so", true},
};

std::optional<BackendDescription>
mlir::amp::runtime::lookupBackend(llvm::StringRef name) {
  const amp::BackendInfo *info = amp::lookupBackend(name);
  if (!info || !info->runnable)
    return std::nullopt;
  for (const BackendRuntime &runtime : kRuntimes)
    if (runtime.name == name)
      return BackendDescription{runtime.backend, info->name, info->pipeline,
                                runtime.runtimeLibrary,
                                runtime.needsDeviceGlobals};
  return std::nullopt;
}

std::string mlir::amp::runtime::listBackends() {
  return amp::getBackendNamesHelp(/*runnable=*/true);
}

std::string mlir::amp::runtime::getPipeline(const BackendDescription &backend,
                                            const BackendOptions &options) {
  std::string pipeline = backend.pipelineName.str();
  std::string strategies =
      options.gpuKernelStrategies ? "" : " kernel-strategies=false";
  if (backend.backend == Backend::CUDA)
    pipeline += "{chip=" + options.cudaChip + " format=" + options.cudaFormat +
                strategies +
                (options.gpuTensorCores ? "" : " tensor-cores=false") +
                (options.gpuTF32 ? " tf32=true" : "") + "}";
  if (backend.backend == Backend::Vulkan) {
    std::string vulkanOptions = strategies;
    if (options.vulkanTensorCoreEmulation)
      vulkanOptions += " tensor-core-emulation=true";
    if (options.gpuTF32)
      vulkanOptions += " tf32=true";
    if (options.vulkanSubgroupSize > 0)
      vulkanOptions +=
          " subgroup-size=" + std::to_string(options.vulkanSubgroupSize);
    if (!vulkanOptions.empty())
      pipeline += "{" + vulkanOptions.substr(1) + "}";
  }
  if (backend.backend == Backend::CPU) {
    llvm::SmallVector<std::string> cpuOptions;
    if (options.cpuThreads != 1)
      cpuOptions.push_back("threads=" + std::to_string(options.cpuThreads));
    if (options.cpuBF16Dot)
      cpuOptions.push_back("bf16-dot=true");
    if (!options.cpuExcessPrecision)
      cpuOptions.push_back("excess-precision=false");
    if (!options.cpuWidenReusedInputs)
      cpuOptions.push_back("widen-reused-inputs=false");
    if (!options.cpuChip.empty())
      cpuOptions.push_back("cpu=" + options.cpuChip);
    if (!cpuOptions.empty())
      pipeline += "{" + llvm::join(cpuOptions, " ") + "}";
  }
  return pipeline;
}

bool mlir::amp::runtime::hostBF16DotPays() {
  return hostHasBF16Dot() && hasFastBF16Dot(llvm::sys::getHostCPUName());
}

bool mlir::amp::runtime::hostHasBF16Dot() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  return features.lookup("avx512bf16") && features.lookup("avx512vl");
}

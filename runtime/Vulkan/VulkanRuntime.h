//===- VulkanRuntime.h - amp's Vulkan compute runtime -----------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Runs the SPIR-V kernels that amp-lower-to-vulkan embeds in gpu.binary ops.
// Host code made by gpu-to-llvm (bare pointers, interspersed sizes) calls the
// `mgpu*` functions of VulkanRuntimeWrappers.cpp, which use the classes here.
// Plain C++ over libvulkan: no MLIR or LLVM headers.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_RUNTIME_VULKANRUNTIME_H
#define AMP_LIB_RUNTIME_VULKANRUNTIME_H

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace amp {
namespace vulkan {

/// Prints `amp vulkan runtime: <message>` on stderr and exits with status 1.
/// Every error of the runtime ends here: a program that cannot run its
/// kernels must not go on with wrong data.
[[noreturn]] void fail(const std::string &message);

/// What a SPIR-V module declares that the runtime checks before running it.
struct SPIRVModuleInfo {
  uint32_t version = 0; // 0x00MMmm00 as in the SPIR-V header
  std::vector<uint32_t> capabilities;
  std::vector<std::string> entryPoints;
};

/// Reads the header, OpCapability and OpEntryPoint instructions of `words`.
/// Returns false with `error` set when `words` is not a SPIR-V module.
bool parseSPIRV(const std::vector<uint32_t> &words, SPIRVModuleInfo &info,
                std::string &error);

/// One host buffer passed to a kernel: the pointer and size in bytes that
/// gpu-to-llvm passes for a memref argument.
struct HostBuffer {
  void *data;
  size_t bytes;
};

class Device;

/// A compute pipeline for one entry point and number of buffer bindings.
struct Pipeline {
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
};

class Module;

/// What mgpuModuleGetFunction returns: a module and an entry point name.
struct Kernel {
  Module *module;
  std::string name;
};

/// A SPIR-V binary loaded by mgpuModuleLoad. The Vulkan objects are made on
/// first launch, so that loading (done by a global constructor of the
/// program) needs no device.
class Module {
public:
  Module(const void *data, size_t bytes);
  ~Module();

  /// The kernel `name`; fails when the module has no such entry point.
  Kernel *getKernel(const char *name);

  /// Runs `kernel` on a grid of workgroups, binding buffer i to
  /// (set 0, binding i), and waits for it.
  void launch(Kernel &kernel, const uint32_t grid[3],
              const std::vector<HostBuffer> &buffers);

private:
  const Pipeline &getPipeline(Device &device, const std::string &entry,
                              size_t numBindings);

  std::vector<uint32_t> words;
  SPIRVModuleInfo info;
  VkShaderModule shader = VK_NULL_HANDLE;
  std::map<std::pair<std::string, size_t>, Pipeline> pipelines;
  std::vector<std::unique_ptr<Kernel>> kernels;
};

/// Name and type of the device the runtime would use, or why there is none.
/// Returns false (with the reason in `description`) when no usable Vulkan
/// device is present; never exits.
bool probe(std::string &description);

/// The subgroup size of the process's device when its compute shaders may
/// shuffle within subgroups, else 0 (fails like any use of the device when
/// there is none).
int subgroupShuffleSize();

} // namespace vulkan
} // namespace amp

#endif // AMP_LIB_RUNTIME_VULKANRUNTIME_H

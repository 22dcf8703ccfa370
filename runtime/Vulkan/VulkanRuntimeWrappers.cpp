//===- VulkanRuntimeWrappers.cpp - mgpu* functions over Vulkan ------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The C functions that host code lowered by gpu-to-llvm calls, implemented
// with amp's Vulkan runtime. The calling convention is the one
// amp-lower-to-vulkan selects: kernels get bare pointers with interspersed
// sizes, so `params` of mgpuLaunchKernel is
//   { &ptr0, &bytes0, &ptr1, &bytes1, ... }
// and buffer i is bound to (descriptor set 0, binding i), as the SPIR-V
// lowering of the kernel's i-th argument expects.
//
// Memory is host memory throughout: every launch copies its buffers in and
// out, so the gpu.alloc / gpu.memcpy family are plain host operations, and
// streams and events are trivial because launches are synchronous.
//
//===----------------------------------------------------------------------===//

#include "VulkanRuntime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define AMP_VULKAN_EXPORT extern "C" __attribute__((visibility("default")))

using namespace amp::vulkan;

namespace {
/// Streams and events carry no state: a launch has finished when
/// mgpuLaunchKernel returns.
char streamToken, eventToken;
} // namespace

AMP_VULKAN_EXPORT void *mgpuModuleLoad(const void *data, size_t bytes) {
  return new Module(data, bytes);
}

AMP_VULKAN_EXPORT void *mgpuModuleLoadJIT(void *, int) {
  fail("kernels given as SPIR-V assembly are not supported; serialise them "
       "to a binary (gpu-module-to-binary with the default format)");
}

AMP_VULKAN_EXPORT void mgpuModuleUnload(void *module) {
  delete static_cast<Module *>(module);
}

AMP_VULKAN_EXPORT void *mgpuModuleGetFunction(void *module, const char *name) {
  if (!module)
    fail("mgpuModuleGetFunction called without a module");
  return static_cast<Module *>(module)->getKernel(name);
}

AMP_VULKAN_EXPORT void
mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                 intptr_t /*blockX*/, intptr_t /*blockY*/, intptr_t /*blockZ*/,
                 int32_t sharedMemBytes, void * /*stream*/, void **params,
                 void **extra, size_t paramsCount) {
  auto *kernel = static_cast<Kernel *>(function);
  if (!kernel)
    fail("mgpuLaunchKernel called without a kernel");
  // The workgroup size is part of the SPIR-V entry point; dynamic shared
  // memory and `extra` have no meaning here.
  if (sharedMemBytes != 0)
    fail("kernel '" + kernel->name +
         "' asks for dynamic shared memory, which Vulkan kernels cannot have");
  if (extra)
    fail("kernel '" + kernel->name + "': unexpected extra launch parameters");
  if (paramsCount % 2 != 0)
    fail("kernel '" + kernel->name + "' has " + std::to_string(paramsCount) +
         " parameters; expected (pointer, size) pairs: lower the host with "
         "gpu-to-llvm{use-bare-pointers-for-kernels "
         "intersperse-sizes-for-kernels} (amp-lower-to-vulkan does)");
  std::vector<HostBuffer> buffers;
  for (size_t i = 0; i < paramsCount; i += 2)
    buffers.push_back({*static_cast<void **>(params[i]),
                       *static_cast<size_t *>(params[i + 1])});
  for (intptr_t g : {gridX, gridY, gridZ})
    if (g <= 0 || g > UINT32_MAX)
      fail("kernel '" + kernel->name + "': bad grid size " + std::to_string(g));
  uint32_t grid[3] = {static_cast<uint32_t>(gridX),
                      static_cast<uint32_t>(gridY),
                      static_cast<uint32_t>(gridZ)};
  kernel->module->launch(*kernel, grid, buffers);
}

AMP_VULKAN_EXPORT void *mgpuStreamCreate() { return &streamToken; }
AMP_VULKAN_EXPORT void mgpuStreamDestroy(void *) {}
AMP_VULKAN_EXPORT void mgpuStreamSynchronize(void *) {}
AMP_VULKAN_EXPORT void mgpuStreamWaitEvent(void *, void *) {}
AMP_VULKAN_EXPORT void *mgpuEventCreate() { return &eventToken; }
AMP_VULKAN_EXPORT void mgpuEventDestroy(void *) {}
AMP_VULKAN_EXPORT void mgpuEventSynchronize(void *) {}
AMP_VULKAN_EXPORT void mgpuEventRecord(void *, void *) {}

AMP_VULKAN_EXPORT void *mgpuMemAlloc(uint64_t bytes, void * /*stream*/,
                                     bool /*isHostShared*/) {
  // Aligned like memref.alloc's default so that vector loads are fine.
  void *p = nullptr;
  if (posix_memalign(&p, 64, bytes ? bytes : 1))
    fail("cannot allocate " + std::to_string(bytes) + " bytes");
  return p;
}
AMP_VULKAN_EXPORT void mgpuMemFree(void *ptr, void * /*stream*/) {
  std::free(ptr);
}
AMP_VULKAN_EXPORT void mgpuMemcpy(void *dst, void *src, size_t bytes,
                                  void * /*stream*/) {
  std::memmove(dst, src, bytes);
}
AMP_VULKAN_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                                    void * /*stream*/) {
  auto *p = static_cast<unsigned int *>(dst);
  for (size_t i = 0; i < count; ++i)
    p[i] = value;
}
AMP_VULKAN_EXPORT void mgpuMemset16(void *dst, unsigned short value,
                                    size_t count, void * /*stream*/) {
  auto *p = static_cast<unsigned short *>(dst);
  for (size_t i = 0; i < count; ++i)
    p[i] = value;
}
// Host memory needs no registration.
AMP_VULKAN_EXPORT void mgpuMemHostRegisterMemRef(int64_t, void *, int64_t) {}
AMP_VULKAN_EXPORT void mgpuMemHostUnregisterMemRef(int64_t, void *, int64_t) {}
AMP_VULKAN_EXPORT void mgpuSetDefaultDevice(int32_t) {}

/// The device's subgroup size when compute shaders may shuffle within
/// subgroups, else 0: what amp-run passes as
/// amp-lower-to-vulkan{subgroup-size}.
AMP_VULKAN_EXPORT int ampRuntimeSubgroupShuffleSize() {
  return subgroupShuffleSize();
}

/// Prints the Vulkan device the runtime would use and returns 0, or prints
/// why there is none and returns 1. Used by amp-vulkan-probe (and lit's
/// `vulkan` feature); never exits the process.
AMP_VULKAN_EXPORT int ampVulkanProbe() {
  std::string description;
  bool ok = probe(description);
  std::printf("%s%s\n", ok ? "" : "amp vulkan runtime: ", description.c_str());
  std::fflush(stdout);
  return ok ? 0 : 1;
}

//===- CudaRuntime.cpp - amp's CUDA runtime for JIT-compiled programs -----===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// libamp_cuda_runtime.so: the mgpu* functions that the host code of
// amp-lower-to-nvvm calls (module loading, kernel launch, streams, events,
// memory), implemented on the CUDA driver API. The driver is opened with
// dlopen("libcuda.so.1") on first use, so the library builds and loads on
// machines without a GPU and reports there that no driver is present.
//
// Memory. The lowered host code allocates its buffers with malloc and
// passes host pointers to kernels. amp-run gives it ampRuntimeAlloc and
// ampRuntimeFree as malloc and free, and puts the inputs there too: every
// buffer is CUDA managed memory (cuMemAllocManaged), valid at the same
// address on the host and on the device, migrated on demand; after a
// kernel the host code synchronises its stream before reading. Globals
// (the program's dense constants) live in the JIT's memory, which the
// device cannot read: amp-run routes the host code's addresses of them
// through ampRuntimeMapGlobal, which returns a managed copy made once.
// Freed buffers are kept, by size, for the next call's allocations (up to
// AMP_BUFFER_POOL_MIB, as amp's CPU buffer pool).
//
// Errors of the driver are fatal: the message names the call and the CUDA
// error, and the process exits with status 1 (a failed launch must not
// produce results).
//
//===----------------------------------------------------------------------===//

#include "Common/BufferPool.h"

#include <dlfcn.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#define AMP_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

// The few driver API types and constants used here (cuda.h, CUDA 12/13).
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;
constexpr unsigned CU_MEM_ATTACH_GLOBAL = 0x1;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr int CU_JIT_OPTIMIZATION_LEVEL = 7;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83;

/// The driver entry points, by the names libcuda exports (the _v2 ones
/// where cuda.h maps the plain name to them).
struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*cuMemHostRegister)(void *, size_t, unsigned);
  CUresult (*cuMemHostUnregister)(void *);
};

/// The driver, the device and its primary context, set up once.
struct Runtime {
  Driver driver{};
  CUcontext context = nullptr;
  /// Empty when usable; otherwise why not.
  std::string failure;
  std::mutex globalsMutex;
  std::map<const void *, void *> globals;
};

int defaultDevice = 0;

[[noreturn]] void fatal(const char *format, ...) {
  std::fflush(stdout);
  std::fputs("amp-run: CUDA: ", stderr);
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fputc('\n', stderr);
  std::fflush(stderr);
  std::_Exit(1);
}

std::string describe(const Driver &driver, CUresult result) {
  const char *name = nullptr, *text = nullptr;
  if (driver.cuGetErrorName)
    driver.cuGetErrorName(result, &name);
  if (driver.cuGetErrorString)
    driver.cuGetErrorString(result, &text);
  std::string message = name ? name : "CUDA error " + std::to_string(result);
  if (text)
    message += std::string(" (") + text + ")";
  return message;
}

template <typename Function>
bool bind(void *library, const char *name, Function &function) {
  function = reinterpret_cast<Function>(dlsym(library, name));
  return function != nullptr;
}

void initialize(Runtime &runtime) {
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    runtime.failure = "no CUDA driver (libcuda.so.1 not found)";
    return;
  }
  Driver &d = runtime.driver;
  const char *missing = nullptr;
#define AMP_BIND(field, symbol)                                                \
  if (!missing && !bind(library, symbol, d.field))                             \
    missing = symbol;
  AMP_BIND(cuInit, "cuInit")
  AMP_BIND(cuDriverGetVersion, "cuDriverGetVersion")
  AMP_BIND(cuDeviceGetCount, "cuDeviceGetCount")
  AMP_BIND(cuDeviceGet, "cuDeviceGet")
  AMP_BIND(cuDeviceGetName, "cuDeviceGetName")
  AMP_BIND(cuDeviceGetAttribute, "cuDeviceGetAttribute")
  AMP_BIND(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")
  AMP_BIND(cuCtxSetCurrent, "cuCtxSetCurrent")
  AMP_BIND(cuGetErrorName, "cuGetErrorName")
  AMP_BIND(cuGetErrorString, "cuGetErrorString")
  AMP_BIND(cuModuleLoadData, "cuModuleLoadData")
  AMP_BIND(cuModuleLoadDataEx, "cuModuleLoadDataEx")
  AMP_BIND(cuModuleUnload, "cuModuleUnload")
  AMP_BIND(cuModuleGetFunction, "cuModuleGetFunction")
  AMP_BIND(cuLaunchKernel, "cuLaunchKernel")
  AMP_BIND(cuStreamCreate, "cuStreamCreate")
  AMP_BIND(cuStreamDestroy, "cuStreamDestroy_v2")
  AMP_BIND(cuStreamSynchronize, "cuStreamSynchronize")
  AMP_BIND(cuStreamWaitEvent, "cuStreamWaitEvent")
  AMP_BIND(cuEventCreate, "cuEventCreate")
  AMP_BIND(cuEventDestroy, "cuEventDestroy_v2")
  AMP_BIND(cuEventSynchronize, "cuEventSynchronize")
  AMP_BIND(cuEventRecord, "cuEventRecord")
  AMP_BIND(cuMemAlloc, "cuMemAlloc_v2")
  AMP_BIND(cuMemAllocManaged, "cuMemAllocManaged")
  AMP_BIND(cuMemFree, "cuMemFree_v2")
  AMP_BIND(cuMemcpyAsync, "cuMemcpyAsync")
  AMP_BIND(cuMemsetD32Async, "cuMemsetD32Async")
  AMP_BIND(cuMemsetD16Async, "cuMemsetD16Async")
  AMP_BIND(cuMemHostRegister, "cuMemHostRegister_v2")
  AMP_BIND(cuMemHostUnregister, "cuMemHostUnregister")
#undef AMP_BIND
  if (missing) {
    runtime.failure = std::string("the CUDA driver (libcuda.so.1) lacks ") +
                      missing + "; it is too old";
    return;
  }

  auto check = [&](CUresult result, const char *call) {
    if (result == CUDA_SUCCESS)
      return true;
    runtime.failure = std::string(call) + " failed: " + describe(d, result);
    return false;
  };
  if (!check(d.cuInit(0), "cuInit"))
    return;
  int count = 0;
  if (!check(d.cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return;
  if (defaultDevice >= count) {
    runtime.failure = count == 0
                          ? std::string("no CUDA device")
                          : "no CUDA device " + std::to_string(defaultDevice) +
                                " (there are " + std::to_string(count) + ")";
    return;
  }
  CUdevice device;
  if (!check(d.cuDeviceGet(&device, defaultDevice), "cuDeviceGet"))
    return;
  int managed = 0;
  if (!check(d.cuDeviceGetAttribute(&managed,
                                    CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, device),
             "cuDeviceGetAttribute"))
    return;
  if (!managed) {
    runtime.failure = "the CUDA device has no managed memory, which "
                      "amp-run's buffers need";
    return;
  }
  if (!check(d.cuDevicePrimaryCtxRetain(&runtime.context, device),
             "cuDevicePrimaryCtxRetain") ||
      !check(d.cuCtxSetCurrent(runtime.context), "cuCtxSetCurrent"))
    return;
}

Runtime &getRuntime() {
  static Runtime *runtime = [] {
    auto *created = new Runtime;
    initialize(*created);
    return created;
  }();
  return *runtime;
}

/// The driver, with the context current on this thread; fatal when there is
/// none.
const Driver &driver() {
  Runtime &runtime = getRuntime();
  if (!runtime.failure.empty())
    fatal("%s", runtime.failure.c_str());
  runtime.driver.cuCtxSetCurrent(runtime.context);
  return runtime.driver;
}

void check(CUresult result, const char *call) {
  if (result != CUDA_SUCCESS)
    fatal("%s failed: %s", call, describe(getRuntime().driver, result).c_str());
}

CUdeviceptr toDevice(const void *pointer) {
  return reinterpret_cast<CUdeviceptr>(pointer);
}

} // namespace

//===----------------------------------------------------------------------===//
// amp-run's functions (see amp/Runtime/RuntimeLibrary.h)
//===----------------------------------------------------------------------===//

AMP_EXPORT int ampRuntimeCheck(char *message, size_t size) {
  Runtime &runtime = getRuntime();
  if (runtime.failure.empty())
    return 0;
  std::snprintf(message, size, "%s", runtime.failure.c_str());
  return 1;
}

/// The program's buffers: managed memory, kept for reuse once freed (the
/// driver's managed allocations and frees synchronise and cost far more
/// than a kernel on small tensors, every call).
static mlir::amp::runtime::BlockCache &managedMemory() {
  static auto *cache = new mlir::amp::runtime::BlockCache(
      [](uint64_t bytes) -> void * {
        const Driver &d = driver();
        CUdeviceptr pointer = 0;
        CUresult result =
            d.cuMemAllocManaged(&pointer, bytes, CU_MEM_ATTACH_GLOBAL);
        if (result != CUDA_SUCCESS)
          fatal("cannot allocate %llu bytes of managed memory: %s",
                (unsigned long long)bytes, describe(d, result).c_str());
        return reinterpret_cast<void *>(pointer);
      },
      [](void *pointer) {
        check(driver().cuMemFree(toDevice(pointer)), "cuMemFree");
      },
      mlir::amp::runtime::poolLimitBytes());
  return *cache;
}

AMP_EXPORT void *ampRuntimeAlloc(uint64_t bytes) {
  void *pointer = managedMemory().allocate(bytes);
  if (!pointer)
    fatal("cannot allocate %llu bytes of managed memory",
          (unsigned long long)bytes);
  return pointer;
}

AMP_EXPORT void ampRuntimeFree(void *pointer) {
  // Device memory (gpu.alloc without host_shared) is not in the cache.
  if (!managedMemory().release(pointer))
    check(driver().cuMemFree(toDevice(pointer)), "cuMemFree");
}

AMP_EXPORT void *ampRuntimeMapGlobal(void *host, int64_t bytes) {
  Runtime &runtime = getRuntime();
  std::lock_guard<std::mutex> lock(runtime.globalsMutex);
  auto [it, inserted] = runtime.globals.try_emplace(host, nullptr);
  if (inserted) {
    it->second = ampRuntimeAlloc(bytes);
    std::memcpy(it->second, host, bytes);
  }
  return it->second;
}

//===----------------------------------------------------------------------===//
// The mgpu* API of MLIR's gpu-to-llvm lowering (LLVM 22 signatures)
//===----------------------------------------------------------------------===//

AMP_EXPORT CUmodule mgpuModuleLoad(void *data, size_t /*size*/) {
  CUmodule module = nullptr;
  check(driver().cuModuleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

/// PTX text, compiled by the driver; its log explains a failure.
AMP_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  const Driver &d = driver();
  CUmodule module = nullptr;
  char log[8192] = {0};
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log)),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CUresult result = d.cuModuleLoadDataEx(&module, data, 3, options, values);
  if (result != CUDA_SUCCESS)
    fatal("compiling the PTX failed: %s%s%s%s", describe(d, result).c_str(),
          log[0] ? "\n" : "", log,
          std::strstr(log, "__nv_")
              ? "\n(the kernels call libdevice, which was not linked: "
                "lower them with amp-lower-to-nvvm{libdevice=...} or set "
                "CUDA_HOME to the CUDA Toolkit)"
              : "");
  return module;
}

AMP_EXPORT void mgpuModuleUnload(CUmodule module) {
  Runtime &runtime = getRuntime();
  // Also called by destructors at exit; nothing to do without a driver.
  if (runtime.failure.empty() && module)
    check(runtime.driver.cuModuleUnload(module), "cuModuleUnload");
}

AMP_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  CUfunction function = nullptr;
  CUresult result = driver().cuModuleGetFunction(&function, module, name);
  if (result != CUDA_SUCCESS)
    fatal("no kernel '%s' in the loaded module: %s", name,
          describe(getRuntime().driver, result).c_str());
  return function;
}

AMP_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                 intptr_t gridY, intptr_t gridZ,
                                 intptr_t blockX, intptr_t blockY,
                                 intptr_t blockZ, int32_t sharedMemoryBytes,
                                 CUstream stream, void **params, void **extra,
                                 size_t /*paramsCount*/) {
  check(driver().cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                                blockZ, sharedMemoryBytes, stream, params,
                                extra),
        "cuLaunchKernel");
}

AMP_EXPORT CUstream mgpuStreamCreate() {
  CUstream stream = nullptr;
  check(driver().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
        "cuStreamCreate");
  return stream;
}

AMP_EXPORT void mgpuStreamDestroy(CUstream stream) {
  check(driver().cuStreamDestroy(stream), "cuStreamDestroy");
}

/// Also where errors of asynchronous kernels surface.
AMP_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  check(driver().cuStreamSynchronize(stream), "cuStreamSynchronize");
}

AMP_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  check(driver().cuStreamWaitEvent(stream, event, 0), "cuStreamWaitEvent");
}

AMP_EXPORT CUevent mgpuEventCreate() {
  CUevent event = nullptr;
  check(driver().cuEventCreate(&event, CU_EVENT_DISABLE_TIMING),
        "cuEventCreate");
  return event;
}

AMP_EXPORT void mgpuEventDestroy(CUevent event) {
  check(driver().cuEventDestroy(event), "cuEventDestroy");
}

AMP_EXPORT void mgpuEventSynchronize(CUevent event) {
  check(driver().cuEventSynchronize(event), "cuEventSynchronize");
}

AMP_EXPORT void mgpuEventRecord(CUevent event, CUstream stream) {
  check(driver().cuEventRecord(event, stream), "cuEventRecord");
}

/// gpu.alloc: device memory, or managed memory for `host_shared`.
AMP_EXPORT void *mgpuMemAlloc(uint64_t bytes, CUstream /*stream*/,
                              bool isHostShared) {
  if (isHostShared)
    return ampRuntimeAlloc(bytes);
  CUdeviceptr pointer = 0;
  check(driver().cuMemAlloc(&pointer, bytes ? bytes : 1), "cuMemAlloc");
  return reinterpret_cast<void *>(pointer);
}

AMP_EXPORT void mgpuMemFree(void *pointer, CUstream /*stream*/) {
  ampRuntimeFree(pointer);
}

AMP_EXPORT void mgpuMemcpy(void *destination, void *source, size_t bytes,
                           CUstream stream) {
  check(driver().cuMemcpyAsync(toDevice(destination), toDevice(source), bytes,
                               stream),
        "cuMemcpyAsync");
}

AMP_EXPORT void mgpuMemset32(void *destination, unsigned value, size_t count,
                             CUstream stream) {
  check(driver().cuMemsetD32Async(toDevice(destination), value, count, stream),
        "cuMemsetD32Async");
}

AMP_EXPORT void mgpuMemset16(void *destination, unsigned short value,
                             size_t count, CUstream stream) {
  check(driver().cuMemsetD16Async(toDevice(destination), value, count, stream),
        "cuMemsetD16Async");
}

AMP_EXPORT void mgpuMemHostRegister(void *pointer, uint64_t bytes) {
  check(driver().cuMemHostRegister(pointer, bytes, 0), "cuMemHostRegister");
}

AMP_EXPORT void mgpuMemHostUnregister(void *pointer) {
  check(driver().cuMemHostUnregister(pointer), "cuMemHostUnregister");
}

namespace {
/// The dense byte range of a ranked memref descriptor
/// {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct MemRefRange {
  char *begin;
  uint64_t bytes;
};

MemRefRange getRange(int64_t rank, const void *descriptor,
                     int64_t elementBytes) {
  const auto *fields = static_cast<const int64_t *>(descriptor);
  char *aligned = reinterpret_cast<char *>(fields[1]);
  int64_t offset = fields[2];
  uint64_t count = 1;
  for (int64_t i = 0; i < rank; ++i)
    count *= fields[3 + i];
  return {aligned + offset * elementBytes, count * elementBytes};
}
} // namespace

AMP_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                          int64_t elementBytes) {
  MemRefRange range = getRange(rank, descriptor, elementBytes);
  mgpuMemHostRegister(range.begin, range.bytes);
}

AMP_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                            int64_t elementBytes) {
  mgpuMemHostUnregister(getRange(rank, descriptor, elementBytes).begin);
}

AMP_EXPORT void mgpuSetDefaultDevice(int32_t device) { defaultDevice = device; }

//===- RuntimeLibrary.h - A backend's runtime shared library ----*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A GPU backend's lowered host code calls mgpu* functions (module load,
// kernel launch, streams), which its runtime library provides. Besides
// those, an amp runtime library may export these C functions, which amp-run
// uses when present:
//
//   int   ampRuntimeCheck(char *message, size_t size);
//         0 when a device is usable; otherwise nonzero, with the reason.
//   void *ampRuntimeAlloc(uint64_t bytes);
//   void  ampRuntimeFree(void *pointer);
//         Memory both the host and the device can use: amp-run puts the
//         inputs there and gives these to the program as malloc and free.
//   void *ampRuntimeMapGlobal(void *host, int64_t bytes);
//         A device-visible copy of a host global (see
//         routeGlobalsThroughRuntime).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_RUNTIMELIBRARY_H
#define AMP_RUNTIME_RUNTIMELIBRARY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace mlir {
namespace amp {
namespace runtime {

struct RuntimeLibrary {
  using CheckFn = int (*)(char *, size_t);
  using AllocFn = void *(*)(uint64_t);
  using FreeFn = void (*)(void *);
  using MapGlobalFn = void *(*)(void *, int64_t);
  using SubgroupSizeFn = int (*)();

  std::string path;
  CheckFn check = nullptr;
  AllocFn alloc = nullptr;
  FreeFn free = nullptr;
  MapGlobalFn mapGlobal = nullptr;
  /// The device's subgroup size for shuffles in compute shaders (0: none);
  /// null when the library does not say.
  SubgroupSizeFn subgroupShuffleSize = nullptr;

  /// Loads the library (once per process) and finds its amp functions.
  static llvm::Expected<RuntimeLibrary> load(llvm::StringRef path);

  /// Runs ampRuntimeCheck, if the library has it.
  llvm::Error checkDevice() const;
};

/// `fileName` in the lib/ directory next to the bin/ directory holding the
/// running executable (`argv0`).
std::string locateRuntimeLibrary(const char *argv0, llvm::StringRef fileName);

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNTIME_RUNTIMELIBRARY_H

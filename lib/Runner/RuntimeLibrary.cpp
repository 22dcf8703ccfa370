//===- RuntimeLibrary.cpp - A backend's runtime shared library ------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/RuntimeLibrary.h"

#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir::amp::runtime;

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<RuntimeLibrary> RuntimeLibrary::load(llvm::StringRef path) {
  if (!llvm::sys::fs::exists(path))
    return fail("runtime library '" + path + "' not found");
  std::string error;
  auto library = llvm::sys::DynamicLibrary::getPermanentLibrary(
      path.str().c_str(), &error);
  if (!library.isValid())
    return fail("cannot load runtime library '" + path + "': " + error);
  RuntimeLibrary runtime;
  runtime.path = path.str();
  runtime.check =
      reinterpret_cast<CheckFn>(library.getAddressOfSymbol("ampRuntimeCheck"));
  runtime.alloc =
      reinterpret_cast<AllocFn>(library.getAddressOfSymbol("ampRuntimeAlloc"));
  runtime.free =
      reinterpret_cast<FreeFn>(library.getAddressOfSymbol("ampRuntimeFree"));
  runtime.mapGlobal = reinterpret_cast<MapGlobalFn>(
      library.getAddressOfSymbol("ampRuntimeMapGlobal"));
  runtime.subgroupShuffleSize = reinterpret_cast<SubgroupSizeFn>(
      library.getAddressOfSymbol("ampRuntimeSubgroupShuffleSize"));
  // Memory comes from the library in pairs or not at all.
  if (!runtime.alloc || !runtime.free)
    runtime.alloc = nullptr, runtime.free = nullptr;
  return runtime;
}

llvm::Error RuntimeLibrary::checkDevice() const {
  if (!check)
    return llvm::Error::success();
  char message[512] = {0};
  if (check(message, sizeof(message)) == 0)
    return llvm::Error::success();
  return fail(message[0] ? message : "no usable device");
}

std::string mlir::amp::runtime::locateRuntimeLibrary(const char *argv0,
                                                     llvm::StringRef fileName) {
  static int anchor;
  std::string executable = llvm::sys::fs::getMainExecutable(argv0, &anchor);
  llvm::SmallString<256> path(llvm::sys::path::parent_path(executable));
  llvm::sys::path::append(path, "..", "lib", fileName);
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  return std::string(path);
}

//===- BufferPool.cpp - Buffers kept for reuse between calls --------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Common/BufferPool.h"

#include <cstdlib>
#include <optional>

using namespace mlir::amp::runtime;

namespace {
/// Sizes round up to 64 bytes, and to 4 KiB above 64 KiB, so that buffers
/// of nearly equal sizes share blocks.
uint64_t sizeClass(uint64_t bytes) {
  uint64_t granule = bytes > (64u << 10) ? 4096 : 64;
  return (bytes + granule - 1) / granule * granule;
}
} // namespace

void *BlockCache::allocate(uint64_t bytes) {
  if (bytes > UINT64_MAX - 4096)
    return nullptr;
  uint64_t size = sizeClass(bytes ? bytes : 1);
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = freeBlocks.find(size);
    if (it != freeBlocks.end() && !it->second.empty()) {
      void *block = it->second.back();
      it->second.pop_back();
      held -= size;
      sizeOf[block] = size;
      return block;
    }
  }
  void *block = allocateFn(size);
  if (!block)
    return nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  sizeOf[block] = size;
  return block;
}

bool BlockCache::release(void *block) {
  if (!block)
    return true;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = sizeOf.find(block);
    if (it == sizeOf.end())
      return false;
    uint64_t size = it->second;
    sizeOf.erase(it);
    if (held + size <= limit) {
      freeBlocks[size].push_back(block);
      held += size;
      return true;
    }
  }
  releaseFn(block);
  return true;
}

uint64_t BlockCache::heldBytes() {
  std::lock_guard<std::mutex> lock(mutex);
  return held;
}

/// AMP_BUFFER_POOL_MIB in bytes: nullopt when unset, 0 with `valid` false
/// when it is not a count of MiB below 2^44.
static std::optional<uint64_t> readLimitVariable(bool &valid) {
  valid = true;
  const char *mib = std::getenv("AMP_BUFFER_POOL_MIB");
  if (!mib)
    return std::nullopt;
  char *end = nullptr;
  unsigned long long value = std::strtoull(mib, &end, 10);
  valid = *mib >= '0' && *mib <= '9' && *end == '\0' && value < (1ull << 44);
  return valid ? uint64_t(value) << 20 : 0;
}

bool mlir::amp::runtime::poolLimitVariableIsValid() {
  bool valid;
  (void)readLimitVariable(valid);
  return valid;
}

uint64_t mlir::amp::runtime::poolLimitBytes() {
  static const uint64_t limit = [] {
    bool valid;
    std::optional<uint64_t> bytes = readLimitVariable(valid);
    return valid && bytes ? *bytes : uint64_t(1) << 30;
  }();
  return limit;
}

static BlockCache &pool() {
  // Never destroyed: OpenMP workers may free after static destructors ran.
  static BlockCache *instance =
      new BlockCache([](uint64_t bytes) { return std::malloc(bytes); },
                     std::free, poolLimitBytes());
  return *instance;
}

void *mlir::amp::runtime::poolAllocate(uint64_t bytes) {
  return pool().allocate(bytes);
}

void mlir::amp::runtime::poolRelease(void *pointer) {
  if (!pool().release(pointer))
    std::free(pointer);
}

uint64_t mlir::amp::runtime::poolHeldBytes() { return pool().heldBytes(); }

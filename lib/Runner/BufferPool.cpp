//===- BufferPool.cpp - Buffers kept for reuse between calls --------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/BufferPool.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

using namespace mlir::amp::runtime;

namespace {
/// Each block starts with its size class; the caller's bytes follow.
constexpr uint64_t kHeaderBytes = 16;

struct Pool {
  std::mutex mutex;
  std::unordered_map<uint64_t, std::vector<char *>> freeBlocks;
  uint64_t heldBytes = 0;
};

Pool &pool() {
  // Never destroyed: OpenMP workers may free after static destructors ran.
  static Pool *instance = new Pool;
  return *instance;
}

/// Sizes round up to 64 bytes, and to 4 KiB above 64 KiB, so that buffers
/// of nearly equal sizes share blocks.
uint64_t sizeClass(uint64_t bytes) {
  uint64_t granule = bytes > (64u << 10) ? 4096 : 64;
  return (bytes + granule - 1) / granule * granule;
}
} // namespace

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

void *mlir::amp::runtime::poolAllocate(uint64_t bytes) {
  uint64_t size = sizeClass(bytes);
  Pool &p = pool();
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    auto it = p.freeBlocks.find(size);
    if (it != p.freeBlocks.end() && !it->second.empty()) {
      char *block = it->second.back();
      it->second.pop_back();
      p.heldBytes -= size;
      return block + kHeaderBytes;
    }
  }
  if (size > UINT64_MAX - kHeaderBytes)
    return nullptr;
  auto *block = static_cast<char *>(std::malloc(size + kHeaderBytes));
  if (!block)
    return nullptr;
  std::memcpy(block, &size, sizeof(size));
  return block + kHeaderBytes;
}

void mlir::amp::runtime::poolRelease(void *pointer) {
  if (!pointer)
    return;
  char *block = static_cast<char *>(pointer) - kHeaderBytes;
  uint64_t size;
  std::memcpy(&size, block, sizeof(size));
  Pool &p = pool();
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    if (p.heldBytes + size <= poolLimitBytes()) {
      p.freeBlocks[size].push_back(block);
      p.heldBytes += size;
      return;
    }
  }
  std::free(block);
}

uint64_t mlir::amp::runtime::poolHeldBytes() {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  return p.heldBytes;
}

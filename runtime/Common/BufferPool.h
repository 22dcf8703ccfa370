//===- BufferPool.h - Buffers kept for reuse between calls ------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Freed blocks kept for reuse between calls. A lowered program allocates
// its temporaries on every call and frees them when they die; the C library
// returns large blocks to the system on free, so each call would fault in
// fresh pages (for a small CNN, most of its time), and the CUDA driver's
// managed allocations and frees cost more still. A BlockCache keeps freed
// blocks, by size, for the next allocation of that size, up to a bound on
// the bytes it holds; thread-safe (OpenMP workers allocate too). The CPU
// programs' malloc and free are the pool below; the CUDA runtime keeps its
// managed memory in a BlockCache of its own.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_COMMON_BUFFERPOOL_H
#define AMP_RUNTIME_COMMON_BUFFERPOOL_H

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace mlir {
namespace amp {
namespace runtime {

/// Blocks from an allocator, kept by size class once freed. The cache
/// records each block's size itself (it never touches a block's memory), so
/// the blocks may be memory the host cannot read.
class BlockCache {
public:
  using AllocateFn = void *(*)(uint64_t bytes);
  using ReleaseFn = void (*)(void *block);

  /// Blocks come from `allocate` and go back to `release` when the cache
  /// holds `limitBytes` of freed blocks.
  BlockCache(AllocateFn allocate, ReleaseFn release, uint64_t limitBytes)
      : allocateFn(allocate), releaseFn(release), limit(limitBytes) {}

  /// A block of at least `bytes` bytes (a freed one of the same size class
  /// if the cache holds one); null when the allocator returns null.
  void *allocate(uint64_t bytes);

  /// Keeps `block` for reuse, or gives it back to the allocator when the
  /// cache is full. Returns false, and does nothing, when `block` did not
  /// come from this cache. Null is ignored (and returns true).
  bool release(void *block);

  /// The bytes held in freed blocks.
  uint64_t heldBytes();

private:
  AllocateFn allocateFn;
  ReleaseFn releaseFn;
  uint64_t limit;
  std::mutex mutex;
  /// The size class of every block handed out and not given back.
  std::unordered_map<void *, uint64_t> sizeOf;
  std::unordered_map<uint64_t, std::vector<void *>> freeBlocks;
  uint64_t held = 0;
};

/// A block of at least `bytes` bytes, 16-byte aligned; null when the system
/// has no memory.
void *poolAllocate(uint64_t bytes);

/// Returns a block of poolAllocate to the pool (or to the system when the
/// pool holds its bound). Null is ignored; a block the pool did not hand out
/// goes to the C library's free.
void poolRelease(void *pointer);

/// The bytes the pool holds in freed blocks.
uint64_t poolHeldBytes();

/// The most bytes the pool (and the CUDA runtime's cache) holds in freed
/// blocks (1 GiB by default; the environment variable AMP_BUFFER_POOL_MIB,
/// read once, overrides it; 0 disables reuse).
uint64_t poolLimitBytes();

/// False when AMP_BUFFER_POOL_MIB is set to something other than a count of
/// MiB (the pool then keeps its default; tools report it as an error).
bool poolLimitVariableIsValid();

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNTIME_COMMON_BUFFERPOOL_H

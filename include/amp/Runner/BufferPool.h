//===- BufferPool.h - Buffers kept for reuse between calls ------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CPU programs' malloc and free. A lowered program allocates its
// temporaries on every call and frees them when they die; the C library
// returns large blocks to the system on free, so each call would fault in
// fresh pages (for a small CNN, most of its time). The pool keeps freed
// blocks, by size, for the next allocation of that size, up to a bound on
// the bytes it holds; thread-safe (OpenMP workers allocate too).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_BUFFERPOOL_H
#define AMP_RUNNER_BUFFERPOOL_H

#include <cstdint>

namespace mlir {
namespace amp {
namespace runtime {

/// A block of at least `bytes` bytes, 16-byte aligned; null when the system
/// has no memory.
void *poolAllocate(uint64_t bytes);

/// Returns a block of poolAllocate to the pool (or to the system when the
/// pool holds its bound). Null is ignored.
void poolRelease(void *pointer);

/// The bytes the pool holds in freed blocks.
uint64_t poolHeldBytes();

/// The most bytes the pool holds in freed blocks (1 GiB by default; the
/// environment variable AMP_BUFFER_POOL_MIB, read once, overrides it; 0
/// disables the pool's reuse).
uint64_t poolLimitBytes();

/// False when AMP_BUFFER_POOL_MIB is set to something other than a count of
/// MiB (the pool then keeps its default; tools report it as an error).
bool poolLimitVariableIsValid();

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_BUFFERPOOL_H

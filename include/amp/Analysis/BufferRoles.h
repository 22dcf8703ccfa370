//===- BufferRoles.h - How amp treats float buffers (memrefs) ---*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The analysis's view of buffers: what each op does with the float buffers
// it uses, which decides how buffers are grouped into storage that shares
// one element type (docs/Design.md, "Buffers"). Running an op on converted
// copies is the rewrite's part (amp/Interfaces/BufferCopies.h).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_BUFFERROLES_H
#define AMP_ANALYSIS_BUFFERROLES_H

#include "amp/Interfaces/BufferCopies.h"

namespace mlir {
namespace amp {

/// What an op does with the float buffers among its operands and results.
enum class BufferRole {
  /// No float buffer operands or results.
  None,
  /// Control flow, calls and returns: the buffers they carry are tied like
  /// any value they carry.
  ControlFlow,
  /// Allocates a new buffer (memref.alloc, memref.alloca): created in the
  /// type its buffer group gets.
  Allocation,
  /// A view of its operand's storage (subview, cast, reshapes, transpose,
  /// reinterpret_cast): operand and result share one element type.
  View,
  /// Reads or writes elements (memref/affine/vector loads and stores): the
  /// element values have the buffer's element type.
  Access,
  /// memref.copy: both buffers have one element type.
  Copy,
  /// Looks at the buffer but not at its values (dealloc, dim): any type.
  Inspect,
  /// A linalg op on buffers: reads and writes its operands, which can be
  /// converted copies.
  Compute,
  /// Anything else (memref.get_global, bufferization casts, unknown ops):
  /// its buffers keep their type.
  Opaque,
};

/// The role of `op` for the float buffers it uses or defines.
BufferRole getBufferRole(Operation *op);

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_BUFFERROLES_H

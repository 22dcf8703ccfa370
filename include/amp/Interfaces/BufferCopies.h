//===- BufferCopies.h - Running ops on converted buffer copies --*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A memref is a reference to storage that other values may alias and that
// ops write in place, so it cannot be cast like a tensor: a buffer's element
// type is the type of its storage, shared by every view of it. amp converts
// buffers whose storage it owns (allocations) by retyping the allocation and
// every view, load and store of it; an op that computes in another type than
// a buffer it uses runs on a converted copy, copied back after the op when
// the op writes it. Buffers amp cannot follow (globals, function arguments of
// fixed signatures, buffers passed to ops of unknown behaviour) keep f32.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_BUFFERCOPIES_H
#define AMP_INTERFACES_BUFFERCOPIES_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {

/// True for memrefs of float (or complex float) elements.
bool isFloatBuffer(Type type);

/// The buffers amp made for one op: converted copies of its operands.
struct BufferCopies {
  /// Every op created, in program order (allocations, copies in, copies
  /// back, deallocations).
  SmallVector<Operation *> created;
  /// The operands replaced, with their original values.
  SmallVector<std::pair<unsigned, Value>> replaced;
  /// Erases the copies and gives `op` its original operands back.
  void undo(RewriterBase &rewriter, Operation *op);
};

/// Makes `op` run on buffers of `types`: each float buffer operand whose
/// type differs from its entry in `types` (same shape, other element type)
/// is replaced by a new buffer, filled with its converted values before `op`
/// when `op` may read it, copied back (converted) after `op` when `op` may
/// write it, and deallocated after that. Ops `op` is later replaced by must
/// take its place (the copies back stay after it). Fails, changing nothing,
/// if some buffer cannot be copied (an unranked memref, for one).
FailureOr<BufferCopies> convertBufferOperands(RewriterBase &rewriter,
                                              Operation *op,
                                              ArrayRef<Type> types);

/// Writes the values of buffer `from` into buffer `to` of the same shape,
/// converted to `to`'s element type, as an elementwise linalg.generic.
Operation *createBufferConversion(OpBuilder &builder, Location loc, Value from,
                                  Value to);

} // namespace amp
} // namespace mlir

#endif // AMP_INTERFACES_BUFFERCOPIES_H

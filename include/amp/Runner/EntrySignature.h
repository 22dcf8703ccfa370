//===- EntrySignature.h - What the entry function exchanges -----*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The arguments and results of the function amp-run invokes, read from its
// tensor-level signature before lowering: ranked tensors (or identity-layout
// memrefs) and scalars of the element kinds amp-run supports. After
// bufferization each tensor is a memref descriptor
// {allocated, aligned, offset, sizes[rank], strides[rank]}.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_ENTRYSIGNATURE_H
#define AMP_RUNTIME_ENTRYSIGNATURE_H

#include "amp/Runner/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

namespace mlir {
namespace amp {
namespace runtime {

/// One argument or result: a ranked array (sizes may be dynamic) or a
/// scalar.
struct ValueSpec {
  bool isScalar = false;
  ElementKind kind = ElementKind::F32;
  llvm::SmallVector<int64_t> shape;
  /// The MLIR type as written, for messages.
  std::string typeString;

  bool hasStaticShape() const;
  /// "argument 1 (tensor<4x?xf32>)".
  std::string describe(llvm::StringRef role, unsigned index) const;
};

struct EntrySignature {
  std::string name;
  llvm::SmallVector<ValueSpec> arguments;
  llvm::SmallVector<ValueSpec> results;
};

/// Reads the signature of the function `name` in `module`. Fails with a
/// message when there is no such function, it has no body, or one of its
/// types cannot be exchanged.
llvm::Expected<EntrySignature> readEntrySignature(ModuleOp module,
                                                  llvm::StringRef name);

/// Checks that `tensor` (read from `source`) fits argument `index`: same
/// element kind, same rank, same static sizes.
llvm::Error checkArgument(const EntrySignature &signature, unsigned index,
                          const HostTensor &tensor, llvm::StringRef source);

/// `tensor` (read from `source`) as argument `index`: converted to the
/// argument's float type when `castFloats` and both are floats, then
/// checked as checkArgument does; the message says when a cast would help.
llvm::Expected<HostTensor> matchArgument(const EntrySignature &signature,
                                         unsigned index, HostTensor tensor,
                                         bool castFloats,
                                         llvm::StringRef source);

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNTIME_ENTRYSIGNATURE_H

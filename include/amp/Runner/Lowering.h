//===- Lowering.h - From the tensor-level file to the JIT -------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// amp-run lowers the program it is given itself, with the backend's
// registered amp pipeline, after making the entry function callable from
// outside: public, and with read-only tensor arguments (so that running it
// twice sees the same inputs).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_LOWERING_H
#define AMP_RUNTIME_LOWERING_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace amp {
namespace runtime {

/// Keeps only `entry` and the functions it reaches (a test driver in the
/// same file is neither lowered nor compiled), makes `entry` public and
/// marks its tensor arguments `bufferization.writable = false`:
/// bufferization then never writes into the caller's buffers.
void prepareEntry(ModuleOp module, StringRef entry);

/// Runs `pipeline` (pass text as inside builtin.module(...)) on `module`;
/// failures are reported through the context's diagnostics.
LogicalResult lowerModule(ModuleOp module, StringRef pipeline);

/// In LLVM-dialect host code, replaces every address of a data global with
/// `runtimeFunction(address, sizeInBytes)`, declared as
/// `ptr (ptr, i64)`: the runtime returns a copy the device can read (the
/// constants of a program are such globals, and kernels get their
/// addresses as arguments).
void routeGlobalsThroughRuntime(ModuleOp module, StringRef runtimeFunction);

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNTIME_LOWERING_H

//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Reads and writes version 1-3 .npy files in C order and little-endian byte
// order. dtypes: '<f2' (f16), '<f4' (f32), '<f8' (f64), '<i4' (i32), '<i8'
// (i64), and bf16 as its 16-bit words: written as '<u2', read from '<u2' or
// '<i2' (NumPy has no bf16 dtype; amp-run reads no other 16-bit integers).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_NPY_H
#define AMP_RUNTIME_NPY_H

#include "amp/Runner/HostTensor.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace amp {
namespace runtime {

/// Reads the .npy file at `path`.
llvm::Expected<HostTensor> readNpy(llvm::StringRef path);
/// Reads the bytes of a .npy file; `path` names it in errors.
llvm::Expected<HostTensor> parseNpy(llvm::StringRef bytes,
                                    llvm::StringRef path);

/// Writes `tensor` to `path` (through a temporary file: never partly).
llvm::Error writeNpy(llvm::StringRef path, const HostTensor &tensor);
/// Prints the bytes of a .npy file holding `tensor`.
void printNpy(llvm::raw_ostream &os, const HostTensor &tensor);

/// The dtype a .npy file holds for `kind`, e.g. "'<f4' (float32)".
std::string describeNpyDtype(ElementKind kind);

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNTIME_NPY_H

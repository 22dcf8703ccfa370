//===- Backends.h - The names of amp's backends, defined once ---*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one vocabulary of amp's edges: the backends amp-run runs on,
// amp.lower() lowers for and the C API names, each with its pipeline, and
// the checks of their options. amp-run, the C API and Python (through the
// C API) read it from here; none of them parses a name or an option of
// its own.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_PIPELINES_BACKENDS_H
#define AMP_PIPELINES_BACKENDS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
namespace amp {

struct BackendInfo {
  /// What users write: "cpu", "vulkan", "cuda", "spirv".
  StringRef name;
  /// The lowering pipeline (amp-opt's name for it).
  StringRef pipeline;
  /// One line for help texts.
  StringRef summary;
  /// amp-run can run what it lowers (spirv stops at the kernels).
  bool runnable;
};

/// Every backend, in the order help texts list them.
ArrayRef<BackendInfo> getBackends();

/// The backend named `name`, or null.
const BackendInfo *lookupBackend(StringRef name);

/// The one-line error for a backend name lookupBackend does not know.
std::string describeUnknownBackend(StringRef name);

/// "cpu, vulkan, cuda or spirv" (runnable ones only with `runnable`).
std::string getBackendNamesHelp(bool runnable = false);

/// The pipeline of `backend` with `options` ("name=value ..." as
/// amp-opt takes them), checked by the pipeline's own parser:
/// "amp-lower-to-llvm{threads=2}". `backend` may also be a CUDA chip,
/// "sm_90", for the cuda backend with that chip. Errors are one line,
/// the same wherever the name or options come from.
llvm::Expected<std::string> getBackendPipeline(StringRef backend,
                                               StringRef options = {});

/// The options of `backend`'s pipeline with their defaults, as
/// "{name=value ...}".
llvm::Expected<std::string> describeBackendOptions(StringRef backend);

} // namespace amp
} // namespace mlir

#endif // AMP_PIPELINES_BACKENDS_H

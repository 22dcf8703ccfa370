//===- ObjectCompiler.h - LLVM-dialect modules to object files --*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Compiles a lowered module (LLVM dialect) to relocatable object files for
// the host: what the JIT loads (Executable.h), what the compile cache keeps
// (CompileCache.h) and what amp-compile links into a shared library.
//
// The module is split into partitions of about equal size, by function,
// and each partition is optimized and compiled on a thread of its own;
// kernels outlined as functions (amp-outline-kernels) are what makes the
// split even. One LLVM function of a whole model would otherwise be one
// serial compile whose machine scheduler grows faster than its size.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_OBJECTCOMPILER_H
#define AMP_RUNNER_OBJECTCOMPILER_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <mutex>
#include <string>

namespace mlir {
namespace amp {
namespace runtime {

/// The function through which a JIT calls the entry `name`: it takes an
/// array of pointers, one per argument of the lowered signature and one to
/// the storage of its result (as MLIR's ExecutionEngine packs them).
std::string getPackedEntryName(llvm::StringRef name);

/// The functions that run the module's constructors and destructors
/// (llvm.global_ctors/dtors, e.g. a GPU module's loading) when they are
/// compiled as explicit functions (`explicitInitializers`).
inline constexpr llvm::StringLiteral kInitializeFunction = "__amp_initialize";
inline constexpr llvm::StringLiteral kFinalizeFunction = "__amp_finalize";

/// Where compileToObjects spent its time, summed over its threads.
struct CompileTimes {
  double translateSeconds = 0, optimizeSeconds = 0, codegenSeconds = 0;
  unsigned partitions = 0;
  void add(double optimize, double codegen);

private:
  std::mutex mutex;
};

struct ObjectCompileOptions {
  /// LLVM optimization and code generation level (0-3).
  unsigned optLevel = 3;
  /// Partitions compiled in parallel; 0: one per core. The object files
  /// differ with the count, the code of each function does not.
  unsigned threads = 0;
  /// The CPU and its features; empty: the host's.
  std::string cpu;
  std::string features;
  /// Constructors and destructors as the functions above instead of
  /// llvm.global_ctors/dtors, which a JIT given object files does not run.
  bool explicitInitializers = true;
  /// The entry keeps its name and gets the packed wrapper
  /// (getPackedEntryName) next to it.
  std::string entry;
  /// When set, receives where the time went.
  CompileTimes *times = nullptr;
};

/// The object files (ELF, position independent) of `module`, whose ops
/// must all be in the LLVM dialect (or translatable to LLVM IR).
llvm::Expected<std::vector<std::string>>
compileToObjects(ModuleOp module, const ObjectCompileOptions &options);

/// The CPU and features code is compiled for, resolved as compileToObjects
/// resolves them ("cpu +feature,-feature,..."): part of the cache's key.
std::string describeCompileTarget(const ObjectCompileOptions &options);

/// Fails, saying why, unless code compiled for the LLVM CPU `cpu` (as llc
/// -mcpu names it) runs on this machine: LLVM knows the CPU, and every
/// feature the host lacks is off for it (code for haswell runs on a Zen 4,
/// code for znver4 not on a Zen 3).
llvm::Error checkRunsOnHost(llvm::StringRef cpu);

/// Whether LLVM enables `feature` ("avx512bf16") for the LLVM CPU `cpu`.
bool cpuHasFeature(llvm::StringRef cpu, llvm::StringRef feature);

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_OBJECTCOMPILER_H

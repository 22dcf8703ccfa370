//===- Executable.h - The lowered program, JIT-compiled ---------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Wraps mlir::ExecutionEngine around an LLVM-dialect module and calls its
// entry function through the packed wrapper the engine generates
// (`_mlir_<name>(void **)`): every argument of the lowered function gets a
// pointer to its value -- a tensor is a memref descriptor, expanded into
// allocated pointer, aligned pointer, offset, sizes and strides -- and the
// last pointer receives the result, one value or a struct of them laid out
// with natural alignment.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_EXECUTABLE_H
#define AMP_RUNTIME_EXECUTABLE_H

#include "amp/Runner/EntrySignature.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"

#include <memory>

namespace mlir {
namespace amp {
namespace runtime {

struct ExecutableOptions {
  /// Libraries whose symbols the program may call (mgpu*, runner utils).
  llvm::SmallVector<std::string> sharedLibraries;
  /// LLVM optimization level for the JIT (0-3).
  unsigned optLevel = 3;
  /// Memory for inputs and for the program's malloc/free; amp's buffer pool
  /// (BufferPool.h) when null.
  void *(*alloc)(uint64_t) = nullptr;
  void (*free)(void *) = nullptr;
  /// Host functions the program calls by name (amp-run's probes).
  llvm::SmallVector<std::pair<std::string, void *>> symbols;
  /// Run the program on a thread of its own with a stack of this many bytes
  /// (0: on the calling thread). Lowered models keep temporaries on the
  /// stack (`memref.alloca`), more than a main thread's 8 MiB holds for a
  /// large model. Device runtimes whose contexts belong to the calling
  /// thread need 0.
  unsigned stackBytes = 0;
};

class Executable {
public:
  /// JIT-compiles `module` (LLVM dialect) and resolves the entry function
  /// and every symbol it needs, reporting what is missing.
  static llvm::Expected<std::unique_ptr<Executable>>
  create(ModuleOp module, EntrySignature signature,
         const ExecutableOptions &options);

  /// Calls the entry `repeat` times on `inputs` (checked against the
  /// signature by the caller), appending each call's wall time in
  /// milliseconds to `millis`, and returns the results of the last call.
  llvm::Expected<llvm::SmallVector<HostTensor>>
  run(llvm::ArrayRef<HostTensor> inputs, unsigned repeat,
      llvm::SmallVectorImpl<double> &millis);

private:
  Executable(std::unique_ptr<ExecutionEngine> engine, EntrySignature signature,
             const ExecutableOptions &options, void (*entry)(void **))
      : engine(std::move(engine)), signature(std::move(signature)),
        options(options), entry(entry) {}

  void *allocate(uint64_t bytes) const;
  void release(void *pointer) const;

  std::unique_ptr<ExecutionEngine> engine;
  EntrySignature signature;
  ExecutableOptions options;
  void (*entry)(void **);
};

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNTIME_EXECUTABLE_H

//===- Executable.h - The lowered program, JIT-compiled ---------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Loads the object files of a lowered program (ObjectCompiler.h, or the
// compile cache) into an ORC JIT and calls its entry through the packed
// wrapper compiled next to it (`_amp_packed_<name>(void **)`): every
// argument of the lowered function gets a pointer to its value -- a tensor
// is a memref descriptor, expanded into allocated pointer, aligned pointer,
// offset, sizes and strides -- and the last pointer receives the result,
// one value or a struct of them laid out with natural alignment.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_EXECUTABLE_H
#define AMP_RUNTIME_EXECUTABLE_H

#include "amp/Runner/EntrySignature.h"
#include "amp/Runner/ObjectCompiler.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"

#include <memory>

namespace mlir {
namespace amp {
namespace runtime {

struct ExecutableOptions {
  /// Libraries whose symbols the program may call (mgpu*, runner utils).
  llvm::SmallVector<std::string> sharedLibraries;
  /// LLVM optimization level (0-3).
  unsigned optLevel = 3;
  /// The LLVM CPU the code is compiled for; empty: this machine's.
  std::string cpu;
  /// Threads that compile the module's partitions (0: one per core).
  unsigned compileThreads = 0;
  /// When set, receives where compiling spent its time.
  CompileTimes *compileTimes = nullptr;
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
  /// Compiles `module` (LLVM dialect) and loads it as load() does.
  static llvm::Expected<std::unique_ptr<Executable>>
  create(ModuleOp module, EntrySignature signature,
         const ExecutableOptions &options);

  /// Compiles `module` (LLVM dialect) to the object files load() takes.
  static llvm::Expected<std::vector<std::string>>
  compile(ModuleOp module, llvm::StringRef entry,
          const ExecutableOptions &options);

  /// Links `objects` (from compile()) in a JIT, resolves the entry function
  /// and every symbol it needs, reporting what is missing, and runs the
  /// program's constructors.
  static llvm::Expected<std::unique_ptr<Executable>>
  load(llvm::ArrayRef<std::string> objects, EntrySignature signature,
       const ExecutableOptions &options);

  /// Runs the program's destructors.
  ~Executable();

  /// Calls the entry `repeat` times on `inputs` (checked against the
  /// signature by the caller), appending each call's wall time in
  /// milliseconds to `millis`, and returns the results of the last call.
  llvm::Expected<llvm::SmallVector<HostTensor>>
  run(llvm::ArrayRef<HostTensor> inputs, unsigned repeat,
      llvm::SmallVectorImpl<double> &millis);

private:
  Executable(std::unique_ptr<llvm::orc::LLJIT> jit, EntrySignature signature,
             const ExecutableOptions &options, void (*entry)(void **),
             void (*finalize)())
      : jit(std::move(jit)), signature(std::move(signature)), options(options),
        entry(entry), finalize(finalize) {}

  void *allocate(uint64_t bytes) const;
  void release(void *pointer) const;

  std::unique_ptr<llvm::orc::LLJIT> jit;
  EntrySignature signature;
  ExecutableOptions options;
  void (*entry)(void **);
  void (*finalize)();
};

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNTIME_EXECUTABLE_H

//===- SharedLibrary.h - Compiled programs as C libraries -------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What amp-compile makes of a program's object files: a shared library
// whose one exported function has a plain C ABI,
//
//   int amp_main(const float *x, float *result0);
//
// one pointer per tensor argument (dense, row-major, never written) and
// one per result (dense, row-major, the caller's storage, filled), for
// functions of tensors of static shapes. The function calls the program
// through its packed wrapper and copies each result out, freeing what the
// program allocated for it; it returns 0. The library needs libc and libm,
// and LLVM's libomp when the program runs on several threads: no MLIR, no
// LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_SHAREDLIBRARY_H
#define AMP_RUNNER_SHAREDLIBRARY_H

#include "amp/Runner/EntrySignature.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace mlir {
namespace amp {
namespace runtime {

class CompileCache;

/// Checks that `signature` has the C ABI above: tensors of static shapes
/// only, at least one result.
llvm::Error checkLibrarySignature(const EntrySignature &signature);

/// The C type of an element of `kind` (16-bit floats as uint16_t bits).
llvm::StringRef getCElementType(ElementKind kind);

/// The C source of `function`, which calls the packed wrapper `packed` of
/// the program with `signature` (checkLibrarySignature holds).
/// `memrefCopy`: the program calls MLIR's memrefCopy, defined here too.
std::string emitLibrarySource(const EntrySignature &signature,
                              llvm::StringRef function, llvm::StringRef packed,
                              bool memrefCopy);

/// A C header declaring `function`, its arguments named after the entry's
/// and its shapes in comments; `source` names the program.
std::string emitLibraryHeader(const EntrySignature &signature,
                              llvm::StringRef function, llvm::StringRef source);

struct LinkOptions {
  /// The C compiler that links ("cc" found on the PATH by default).
  std::string compiler = "cc";
  /// The folder of libomp, for a program that runs on several threads
  /// (empty: it does not).
  std::string openmpDirectory;
};

struct LibraryOptions {
  /// The function to compile; empty: the module's one public function.
  std::string entry;
  /// The C name of the library's entry; empty: amp_<entry>.
  std::string function;
  /// Threads large ops are split over (OpenMP, with LLVM's libomp).
  unsigned threads = 1;
  /// LLVM's optimization level.
  unsigned optLevel = 3;
  /// Also write a C header declaring the entry here.
  std::string header;
  /// What the header says the program came from.
  std::string sourceName = "<input>";
  LinkOptions link;
  /// Where the compiled objects of a program are kept and looked up (the
  /// cache amp-run uses, CompileCache::openDefault); null: none. A program
  /// found there is neither lowered nor compiled again, only linked.
  const CompileCache *cache = nullptr;
  /// Told what goes wrong with the cache (an entry removed as corrupt, one
  /// not stored); a library is made regardless.
  std::function<void(const llvm::Twine &)> warn;
};

/// What amp-compile does: lowers the entry of `module` (changed in place;
/// from the cache, only prepared and renamed) with amp's CPU pipeline as
/// amp-run sets it for this host, compiles it, and links it with its C
/// entry into the shared library `output`.
/// With `options.cache`, the objects of a program compiled before with the
/// same options, for the same CPU, by the same build are taken from it.
/// Errors are one line each.
llvm::Error compileSharedLibrary(ModuleOp module, llvm::StringRef output,
                                 const LibraryOptions &options);

/// Whether `objects` call `symbol` (it is undefined in one of them).
llvm::Expected<bool> objectsReference(llvm::ArrayRef<std::string> objects,
                                      llvm::StringRef symbol);

/// Links `objects` and the C `source` into the shared library `output`,
/// exporting `function` only.
llvm::Error linkSharedLibrary(llvm::ArrayRef<std::string> objects,
                              llvm::StringRef source, llvm::StringRef function,
                              llvm::StringRef output,
                              const LinkOptions &options);

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_SHAREDLIBRARY_H

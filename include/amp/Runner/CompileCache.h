//===- CompileCache.h - Compiled programs kept between runs -----*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A directory of compiled programs (the object files ObjectCompiler.h
// makes, with whatever GPU binaries they embed), one file per program,
// named by a BLAKE3 digest of everything the code depends on (the
// program, its pipeline and options, the CPU, amp's and LLVM's builds).
//
// Entries are written to a temporary file and renamed into place, so a
// reader sees a whole entry or none, and processes may share the
// directory. Each entry holds its key and a checksum of its contents: one
// that does not match (truncated, corrupt, from another format) is removed
// and reported, never loaded. Lookups refresh an entry's time; the least
// recently used entries go when the directory outgrows its limit.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_COMPILECACHE_H
#define AMP_RUNNER_COMPILECACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
namespace cl {
class OptionCategory;
} // namespace cl
} // namespace llvm

namespace mlir {
class Operation;
namespace amp {
namespace runtime {

/// A raw_ostream that hashes what is written to it (a module printed
/// straight into the key, without a copy of its text).
class HashingStream : public llvm::raw_ostream {
public:
  HashingStream() { SetUnbuffered(); }
  /// The hex digest of everything written so far; ends the stream.
  std::string digest();

private:
  void write_impl(const char *data, size_t size) override;
  uint64_t current_pos() const override { return position; }

  llvm::BLAKE3 hasher;
  uint64_t position = 0;
};

/// Writes the names of the locations of `op` and of the ops in it (those
/// of NameLoc, an ONNX node's): a key that prints a module without its
/// locations must still tell apart programs whose kernels they name
/// (amp-outline-kernels).
void printLocationNames(Operation *op, llvm::raw_ostream &os);

/// The key of the compiled program `module` (its entry prepared): a digest
/// of `maker` (who compiles, and what else the code depends on), the build
/// of amp (getBuildIdentity), the compile `target`
/// (describeCompileTarget), the optimization level, the `pipeline`, the
/// `entry`, the module printed without locations and its locations'
/// names.
std::string getProgramKey(llvm::StringRef maker, Operation *module,
                          llvm::StringRef target, unsigned optLevel,
                          llvm::StringRef pipeline, llvm::StringRef entry);

/// The options given on the command line that are not in `own` (LLVM's,
/// such as --unroll-threshold): they may change the code in ways a cache
/// key does not see, so a tool given any compiles without the cache.
/// (`own` and the tool's options must be defined in the same file.)
std::vector<std::string>
getForeignOptionsGiven(int argc, const char *const *argv,
                       const llvm::cl::OptionCategory &own);

/// What identifies the build of amp that compiles: its version and the
/// size and time of the file holding this code (amp-run, or the library
/// it is in), so that a rebuilt amp does not load what an older one made.
std::string getBuildIdentity();

class CompileCache {
public:
  /// The default limit on the directory's size.
  static constexpr uint64_t kDefaultMaxBytes = uint64_t(1) << 30;

  /// The cache amp's tools share, as the environment sets it up: none
  /// when AMP_NO_CACHE is set (to anything but 0 or empty); else in
  /// $AMP_CACHE_DIR, or $XDG_CACHE_HOME/amp, or ~/.cache/amp, limited to
  /// AMP_CACHE_MAX_SIZE bytes (suffixes K, M, G; default 1G). A bad
  /// AMP_CACHE_MAX_SIZE is an error.
  static llvm::Expected<std::optional<CompileCache>> openDefault();

  CompileCache(std::string directory, uint64_t maxBytes)
      : directory(std::move(directory)), maxBytes(maxBytes) {}

  llvm::StringRef getDirectory() const { return directory; }

  /// The objects stored under `key` (a 64-digit hex digest), or none. An entry
  /// that cannot be read back whole and intact is removed, `warn` told why.
  std::optional<std::vector<std::string>>
  lookup(llvm::StringRef key,
         llvm::function_ref<void(const llvm::Twine &)> warn) const;

  /// Stores `objects` under `key`, atomically, then removes the least
  /// recently used entries while the directory is over its limit.
  llvm::Error store(llvm::StringRef key,
                    llvm::ArrayRef<std::string> objects) const;

  /// Removes the entry of `key` (one that failed to load).
  void remove(llvm::StringRef key) const;

  /// The path of the entry of `key`.
  std::string getPath(llvm::StringRef key) const;

private:
  void evict() const;

  std::string directory;
  uint64_t maxBytes;
};

/// Parses a size in bytes with an optional K, M or G suffix (powers of
/// 1024): "512M".
std::optional<uint64_t> parseByteSize(llvm::StringRef text);

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_COMPILECACHE_H

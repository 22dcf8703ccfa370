//===- ReplayMain.cpp - Runs a fuzz target over files -----------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The main of amp's fuzz targets when they are not built with libFuzzer
// (-DAMP_LIBFUZZER=OFF, the default): it feeds each file named on the
// command line, and each file in each folder named, to
// LLVMFuzzerTestOneInput once, so that the seed corpora and the inputs
// libFuzzer once found crashing run as regression tests with any compiler.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef path = argv[i];
    if (!llvm::sys::fs::is_directory(path)) {
      files.push_back(path.str());
      continue;
    }
    std::error_code ec;
    for (llvm::sys::fs::recursive_directory_iterator it(path, ec), end;
         it != end && !ec; it.increment(ec))
      if (llvm::sys::fs::is_regular_file(it->path()))
        files.push_back(it->path());
    if (ec) {
      llvm::errs() << argv[0] << ": cannot list '" << path
                   << "': " << ec.message() << "\n";
      return 1;
    }
  }
  if (files.empty()) {
    llvm::errs() << "usage: " << argv[0] << " FILE|FOLDER...\n";
    return 1;
  }
  std::sort(files.begin(), files.end());
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      llvm::errs() << argv[0] << ": cannot read '" << file
                   << "': " << buffer.getError().message() << "\n";
      return 1;
    }
    LLVMFuzzerTestOneInput(
        reinterpret_cast<const uint8_t *>((*buffer)->getBufferStart()),
        (*buffer)->getBufferSize());
  }
  llvm::outs() << "replayed " << files.size() << " inputs\n";
  return 0;
}

//===- amp-compile.cpp - Programs as shared libraries ahead of time -------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// amp-compile FILE -o libmodel.so [--header model.h] [--entry NAME]
//             [--function NAME] [--threads N] [-O N] [--cc CC] [--no-cache]
//
// Lowers a function of a tensor-level MLIR file with amp's CPU pipeline
// (as amp-run --backend=cpu lowers it, for this host's CPU), compiles it
// with the same LLVM pipeline, and links it with a C entry into a shared
// library that needs no MLIR or LLVM at run time (SharedLibrary.h); the
// header declares the entry. The compiled objects are kept in amp's
// compile cache (CompileCache.h), which amp-run shares: a program compiled
// before is only linked. See docs/Embedding.md.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/LowPrecisionWork.h"
#include "amp/Backend/CPU/CPUTarget.h"
#include "amp/InitAll.h"
#include "amp/Runner/CompileCache.h"
#include "amp/Runner/SharedLibrary.h"
#include "amp/Support/TextNesting.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::amp::runtime;
namespace cl = llvm::cl;

static cl::OptionCategory category("amp-compile options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.mlir>"),
                                      cl::Required, cl::cat(category));
static cl::opt<std::string> outputFile("o", cl::desc("The shared library"),
                                       cl::value_desc("libmodel.so"),
                                       cl::Required, cl::cat(category));
static cl::opt<std::string>
    headerFile("header", cl::desc("Also write a C header declaring the entry"),
               cl::value_desc("model.h"), cl::cat(category));
static cl::opt<std::string> entryName(
    "entry",
    cl::desc("The function to compile (by default the file's only public "
             "function)"),
    cl::value_desc("name"), cl::cat(category));
static cl::opt<std::string> functionName(
    "function",
    cl::desc("The C name of the library's entry (default: amp_<entry>)"),
    cl::value_desc("name"), cl::cat(category));
/// --threads. libLLVM registers an option of that name that amp-compile
/// does not use; main() unregisters it before this one is first asked for.
static cl::opt<unsigned> &threads() {
  static cl::opt<unsigned> option(
      "threads",
      cl::desc("The threads large ops are split over (OpenMP; the library "
               "then needs LLVM's libomp). Results do not depend on it"),
      cl::init(1), cl::cat(category));
  return option;
}
static cl::opt<unsigned> optLevel("O",
                                  cl::desc("LLVM optimization level (0-3)"),
                                  cl::Prefix, cl::init(3), cl::cat(category));
static cl::opt<std::string>
    compilerName("cc",
                 cl::desc("The C compiler that links the library (default: "
                          "$CC, else cc)"),
                 cl::value_desc("compiler"), cl::cat(category));

static cl::opt<bool> noCache(
    "no-cache",
    cl::desc("Compile the program even if the compile cache holds it, and "
             "do not store it (also AMP_NO_CACHE=1). The cache is "
             "$AMP_CACHE_DIR, $XDG_CACHE_HOME/amp or ~/.cache/amp, limited "
             "to AMP_CACHE_MAX_SIZE bytes (default 1G)"),
    cl::cat(category));

static int error(const llvm::Twine &message) {
  llvm::errs() << "amp-compile: " << message << "\n";
  return 1;
}

static int error(llvm::Error err) { return error(toString(std::move(err))); }

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (cl::Option *unused = cl::getRegisteredOptions().lookup("threads"))
    unused->removeArgument();
  unsigned &threadCount = threads().getValue();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "amp-compile: a function of a tensor-level MLIR file as a shared "
      "library for this CPU, with a plain C entry\n");
  DialectRegistry registry;
  amp::registerEverything(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  auto file = llvm::MemoryBuffer::getFile(inputFile, /*IsText=*/true);
  if (!file)
    return error("cannot open '" + inputFile +
                 "': " + file.getError().message());
  llvm::StringRef text = (*file)->getBuffer();
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  if (failed(amp::checkTextNesting(text, inputFile, &context)))
    return error("cannot parse '" + inputFile + "'");
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return error("cannot parse '" + inputFile + "'");

  // The note amp-run prints for a program converted without a target,
  // found before lowering, said once the library is there.
  context.getOrLoadDialect<LLVM::LLVMDialect>();
  std::optional<std::string> note = amp::describeLowPrecisionWorkWithoutUnits(
      *module, amp::getHostCPUTarget(&context),
      ("this CPU (" + llvm::sys::getHostCPUName() + ")").str(),
      "mixed-precision{target=cpu}");

  LibraryOptions options;
  std::optional<CompileCache> cache;
  // LLVM's own options may change the code without changing the key.
  if (!noCache && getForeignOptionsGiven(argc, argv, category).empty()) {
    auto opened = CompileCache::openDefault();
    if (!opened)
      return error(opened.takeError());
    cache = std::move(*opened);
  }
  options.cache = cache ? &*cache : nullptr;
  options.warn = [](const llvm::Twine &message) {
    llvm::errs() << "amp-compile: warning: " << message << "\n";
  };
  options.entry = entryName;
  options.function = functionName;
  options.threads = threadCount;
  options.optLevel = optLevel;
  options.header = headerFile;
  options.sourceName = inputFile;
  if (!compilerName.empty())
    options.link.compiler = compilerName;
  else if (std::optional<std::string> cc = llvm::sys::Process::GetEnv("CC");
           cc && !cc->empty())
    options.link.compiler = *cc;
  if (llvm::Error err = compileSharedLibrary(*module, outputFile, options))
    return error(std::move(err));
  if (note)
    llvm::errs() << "amp-compile: note: '" << inputFile << "': " << *note
                 << "\n";
  return 0;
}

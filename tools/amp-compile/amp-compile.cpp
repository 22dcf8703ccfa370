//===- amp-compile.cpp - Programs as shared libraries ahead of time -------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// amp-compile FILE -o libmodel.so [--header model.h] [--entry NAME]
//             [--function NAME] [--threads N] [-O N] [--cc CC]
//
// Lowers a function of a tensor-level MLIR file with amp's CPU pipeline
// (as amp-run --backend=cpu lowers it, for this host's CPU), compiles it
// with the same LLVM pipeline, and links it with a C entry into a shared
// library that needs no MLIR or LLVM at run time (SharedLibrary.h); the
// header declares the entry. See docs/Embedding.md.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/LowPrecisionWork.h"
#include "amp/Backend/CPU/CPUTarget.h"
#include "amp/InitAll.h"
#include "amp/Runner/Backend.h"
#include "amp/Runner/EntrySignature.h"
#include "amp/Runner/Lowering.h"
#include "amp/Runner/ObjectCompiler.h"
#include "amp/Runner/SharedLibrary.h"
#include "amp/Support/TextNesting.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/TargetParser/Host.h"

#include <thread>

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
static cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimization level (0-3)"),
                                  cl::Prefix, cl::init(3), cl::cat(category));
static cl::opt<std::string>
    compilerName("cc",
                 cl::desc("The C compiler that links the library (default: "
                          "$CC, else cc)"),
                 cl::value_desc("compiler"), cl::cat(category));

static int error(const llvm::Twine &message) {
  llvm::errs() << "amp-compile: " << message << "\n";
  return 1;
}

static int error(llvm::Error err) { return error(toString(std::move(err))); }

static bool isCIdentifier(llvm::StringRef name) {
  return !name.empty() && !llvm::isDigit(name.front()) &&
         llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

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
  if (optLevel > 3)
    return error("-O must be 0, 1, 2 or 3, got " + llvm::Twine(optLevel));
  if (threadCount == 0 || threadCount > 1024)
    return error("--threads must be in [1, 1024], got " +
                 llvm::Twine(threadCount));
  if (!llvm::StringRef(outputFile).ends_with(".so"))
    return error("-o names the shared library, a .so file; got '" +
                 outputFile + "'");

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

  std::string entry = entryName;
  if (entry.empty()) {
    llvm::SmallVector<std::string> public_;
    for (auto function : module->getOps<func::FuncOp>())
      if (function.isPublic() && !function.isDeclaration())
        public_.push_back(function.getName().str());
    if (public_.size() != 1)
      return error("'" + inputFile + "' has " + llvm::Twine(public_.size()) +
                   " public functions; give the one to compile with "
                   "--entry=NAME");
    entry = public_.front();
  }
  auto signature = readEntrySignature(*module, entry);
  if (!signature)
    return error(signature.takeError());
  if (llvm::Error err = checkLibrarySignature(*signature))
    return error(std::move(err));
  std::string function =
      functionName.empty() ? "amp_" + entry : std::string(functionName);
  if (!isCIdentifier(function))
    return error("--function must be a C identifier, got '" + function + "'");

  // The entry gets a name no C program uses (its own would often be
  // `main`); the library exports `function` only.
  prepareEntry(*module, entry);
  auto func = SymbolTable::lookupSymbolIn(*module, entry);
  std::string internal = "__amp_entry_" + function;
  if (failed(SymbolTable::replaceAllSymbolUses(
          func, StringAttr::get(&context, internal), *module)))
    return error("cannot rename @" + entry);
  SymbolTable::setSymbolName(func, internal);

  context.getOrLoadDialect<LLVM::LLVMDialect>();
  if (std::optional<std::string> note = amp::describeLowPrecisionWorkWithoutUnits(
          *module, amp::getHostCPUTarget(&context),
          ("this CPU (" + llvm::sys::getHostCPUName() + ")").str(),
          "mixed-precision{target=cpu}"))
    llvm::errs() << "amp-compile: note: '" << inputFile << "': " << *note
                 << "\n";

  // The CPU pipeline as amp-run sets it for this host.
  BackendOptions backendOptions;
  backendOptions.cpuThreads = threadCount;
  backendOptions.cpuBF16Dot = hostBF16DotPays();
  if (!hostHasAVX512())
    backendOptions.cpuTileCols = 1;
  std::string pipeline = getPipeline(*lookupBackend("cpu"), backendOptions);
  if (failed(lowerModule(*module, pipeline)))
    return error("lowering '" + inputFile + "' with " + pipeline + " failed");

  bool memrefCopy = false;
  module->walk([&](LLVM::LLVMFuncOp op) {
    memrefCopy |= op.isExternal() && op.getName() == "memrefCopy";
  });
  ObjectCompileOptions compileOptions;
  compileOptions.optLevel = optLevel;
  compileOptions.entry = internal;
  compileOptions.explicitInitializers = false;
  auto objects = compileToObjects(*module, compileOptions);
  if (!objects)
    return error(objects.takeError());

  LinkOptions link;
  if (!compilerName.empty())
    link.compiler = compilerName;
  else if (std::optional<std::string> cc = llvm::sys::Process::GetEnv("CC");
           cc && !cc->empty())
    link.compiler = *cc;
  if (threadCount > 1) {
    llvm::SmallString<256> openmp(AMP_MLIR_LIBRARY_DIR);
    llvm::sys::path::append(openmp, "libomp.so");
    if (!llvm::sys::fs::exists(openmp))
      return error("--threads=" + llvm::Twine(threadCount) +
                   " needs the OpenMP runtime " + openmp +
                   " (Debian: libomp-22-dev)");
    link.openmpDirectory = AMP_MLIR_LIBRARY_DIR;
  }
  std::string source =
      emitLibrarySource(*signature, function, getPackedEntryName(internal),
                        memrefCopy);
  if (llvm::Error err =
          linkSharedLibrary(*objects, source, function, outputFile, link))
    return error(std::move(err));

  if (!headerFile.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream out(headerFile, ec);
    if (ec)
      return error("cannot write '" + headerFile + "': " + ec.message());
    out << emitLibraryHeader(*signature, function,
                             llvm::sys::path::filename(inputFile));
  }
  return 0;
}

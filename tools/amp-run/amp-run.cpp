//===- amp-run.cpp - Run a function of an MLIR file on a backend ----------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// amp-run FILE.mlir --entry=NAME [--backend=cpu|vulkan|cuda]
//         [--input=a.npy ... [--cast-inputs] | --seed=N] [--save-inputs=DIR]
//         [--output=r.npy ...] [--repeat=N]
//         [--compare=ref.npy ... --rtol=R --atol=A]
//
// FILE holds tensor-level MLIR (the f32 original or what mixed-precision
// made of it). amp-run lowers it in-process with the backend's amp
// pipeline, JIT-compiles it with mlir::ExecutionEngine, calls the entry
// function on .npy or seeded inputs, and writes, prints, times or compares
// its results. See docs/Runner.md.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAll.h"
#include "amp/Runner/Backend.h"
#include "amp/Runner/Comparison.h"
#include "amp/Runner/EntrySignature.h"
#include "amp/Runner/Executable.h"
#include "amp/Runner/Lowering.h"
#include "amp/Runner/Npy.h"
#include "amp/Runner/RandomInputs.h"
#include "amp/Runner/RuntimeLibrary.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::amp::runtime;
namespace cl = llvm::cl;

static cl::OptionCategory category("amp-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.mlir>"),
                                      cl::cat(category));
static cl::opt<std::string> entryName("entry", cl::desc("The function to run"),
                                      cl::value_desc("name"),
                                      cl::cat(category));
static cl::opt<std::string>
    backendName("backend", cl::desc("cpu (default), vulkan or cuda"),
                cl::init("cpu"), cl::cat(category));
static cl::list<std::string>
    inputs("input", cl::desc("A .npy file per argument, in order"),
           cl::value_desc("file.npy"), cl::CommaSeparated, cl::cat(category));
static cl::opt<bool> castInputs(
    "cast-inputs",
    cl::desc("Convert --input files of another float dtype to the float "
             "type of their argument (rounding to nearest even): f32 data "
             "for a function with f16 or bf16 arguments"),
    cl::init(false), cl::cat(category));
static cl::opt<uint64_t>
    seed("seed",
         cl::desc("Seed of the generated inputs (used when no --input is "
                  "given): floats uniform in [-1, 1), integers in [0, 16)"),
         cl::init(0), cl::cat(category));
static cl::opt<std::string>
    saveInputs("save-inputs",
               cl::desc("Write the inputs to DIR/arg<k>.npy before running"),
               cl::value_desc("dir"), cl::cat(category));
static cl::list<std::string>
    outputs("output", cl::desc("A .npy file per result, in order"),
            cl::value_desc("file.npy"), cl::CommaSeparated, cl::cat(category));
static cl::opt<unsigned>
    repeat("repeat",
           cl::desc("Call the function N times and print the min and median "
                    "wall time of a call"),
           cl::init(1), cl::cat(category));
static cl::list<std::string>
    references("compare", cl::desc("A reference .npy file per result"),
               cl::value_desc("ref.npy"), cl::CommaSeparated,
               cl::cat(category));
static cl::opt<double>
    relativeTolerance("rtol", cl::desc("Relative tolerance of --compare"),
                      cl::init(1e-5), cl::cat(category));
static cl::opt<double>
    absoluteTolerance("atol", cl::desc("Absolute tolerance of --compare"),
                      cl::init(1e-8), cl::cat(category));
static cl::opt<std::string>
    chip("chip",
         cl::desc("CUDA backend: the GPU to compile for (sm_80, sm_90)"),
         cl::init("sm_90"), cl::cat(category));
static cl::opt<std::string> gpuFormat(
    "gpu-format",
    cl::desc("CUDA backend: kernels as isa (PTX, compiled by the driver; the "
             "default), bin (cubin, needs ptxas) or fatbin"),
    cl::init("isa"), cl::cat(category));
static cl::opt<unsigned> optLevel("O", cl::desc("JIT optimization level (0-3)"),
                                  cl::Prefix, cl::init(3), cl::cat(category));
static cl::opt<bool>
    printLowered("print-lowered",
                 cl::desc("Print the lowered module to stderr"),
                 cl::init(false), cl::cat(category));

/// Prints "amp-run: <message>" and returns the exit code of a failure.
static int error(const llvm::Twine &message) {
  llvm::outs().flush();
  llvm::errs() << "amp-run: " << message << "\n";
  return 1;
}

static int error(llvm::Error err) {
  return error(llvm::toString(std::move(err)));
}

static void printSummary(unsigned index, const HostTensor &result) {
  llvm::outs() << "result " << index << ": " << result.getTypeString();
  int64_t count = result.getNumElements();
  double sum = 0, absSum = 0;
  for (int64_t i = 0; i < count; ++i) {
    double value = result.getAsDouble(i);
    sum += value;
    absSum += std::fabs(value);
  }
  llvm::outs() << " [";
  for (int64_t i = 0, e = std::min<int64_t>(count, 8); i < e; ++i)
    llvm::outs() << (i ? ", " : "")
                 << llvm::format("%.6g", result.getAsDouble(i));
  llvm::outs() << (count > 8 ? ", ...]" : "]")
               << llvm::format(" sum=%.9g abs_sum=%.9g\n", sum, absSum);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "amp-run: run a function of a tensor-level MLIR file on the CPU, "
      "Vulkan or CUDA\n");

  // Options first: nothing is loaded or compiled for a bad command line.
  if (inputFile.empty())
    return error("no input file (usage: amp-run FILE.mlir --entry=NAME ...)");
  if (entryName.empty())
    return error("give the function to run with --entry=NAME");
  std::optional<BackendDescription> backend = lookupBackend(backendName);
  if (!backend)
    return error("unknown backend '" + backendName +
                 "' (backends: " + listBackends() + ")");
  if (optLevel > 3)
    return error("-O must be 0 to 3");
  if (relativeTolerance < 0 || absoluteTolerance < 0)
    return error("--rtol and --atol must not be negative");

  // The backend's runtime, and whether a device is there, before any work.
  std::optional<RuntimeLibrary> runtime;
  if (!backend->runtimeLibrary.empty()) {
    std::string path = locateRuntimeLibrary(argv[0], backend->runtimeLibrary);
    auto loaded = RuntimeLibrary::load(path);
    if (!loaded)
      return error("the " + backend->name + " backend needs its runtime: " +
                   llvm::toString(loaded.takeError()));
    if (llvm::Error err = loaded->checkDevice())
      return error(std::move(err));
    runtime = std::move(*loaded);
  }

  DialectRegistry registry;
  amp::registerEverything(registry);
  MLIRContext context(registry);

  // Parse errors are printed with their location by the handler.
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  auto file = llvm::MemoryBuffer::getFile(inputFile, /*IsText=*/true);
  if (!file)
    return error("cannot open '" + inputFile +
                 "': " + file.getError().message());
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return error("cannot parse '" + inputFile + "'");

  auto signature = readEntrySignature(*module, entryName);
  if (!signature)
    return error(signature.takeError());
  if (!outputs.empty() && outputs.size() != signature->results.size())
    return error("@" + entryName + " has " +
                 llvm::Twine(signature->results.size()) + " results, got " +
                 llvm::Twine(outputs.size()) + " --output files");
  if (!references.empty() && references.size() != signature->results.size())
    return error("@" + entryName + " has " +
                 llvm::Twine(signature->results.size()) + " results, got " +
                 llvm::Twine(references.size()) + " --compare files");

  // Inputs: from .npy files, or generated.
  llvm::SmallVector<HostTensor> arguments;
  if (!inputs.empty() && inputs.size() != signature->arguments.size())
    return error("@" + entryName + " takes " +
                 llvm::Twine(signature->arguments.size()) + " arguments, got " +
                 llvm::Twine(inputs.size()) + " --input files");
  for (unsigned i = 0, e = signature->arguments.size(); i < e; ++i) {
    if (inputs.empty()) {
      auto generated = generateArgument(*signature, i, seed);
      if (!generated)
        return error(generated.takeError());
      arguments.push_back(std::move(*generated));
      continue;
    }
    auto read = readNpy(inputs[i]);
    if (!read)
      return error(read.takeError());
    ElementKind expected = signature->arguments[i].kind;
    bool convertible = read->getElementKind() != expected &&
                       isFloatKind(read->getElementKind()) &&
                       isFloatKind(expected);
    if (castInputs && convertible)
      *read = read->convertTo(expected);
    if (llvm::Error err = checkArgument(*signature, i, *read, inputs[i])) {
      bool hint = convertible && !castInputs;
      return error(toString(std::move(err)) +
                   (hint ? " (--cast-inputs converts it)" : ""));
    }
    arguments.push_back(std::move(*read));
  }
  if (!saveInputs.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(saveInputs))
      return error("cannot create '" + saveInputs + "': " + ec.message());
    for (auto [i, argument] : llvm::enumerate(arguments)) {
      llvm::SmallString<256> path(saveInputs);
      llvm::sys::path::append(path, "arg" + llvm::Twine(i) + ".npy");
      if (llvm::Error err = writeNpy(path, argument))
        return error(std::move(err));
    }
  }

  // Lower with the backend's pipeline.
  prepareEntry(*module, entryName);
  std::string pipeline = getPipeline(
      *backend, BackendOptions{chip.getValue(), gpuFormat.getValue()});
  if (failed(lowerModule(*module, pipeline)))
    return error("lowering '" + inputFile + "' with " + pipeline + " failed");
  if (backend->needsDeviceGlobals && runtime && runtime->mapGlobal)
    routeGlobalsThroughRuntime(*module, "ampRuntimeMapGlobal");
  if (printLowered)
    module->print(llvm::errs());

  ExecutableOptions executableOptions;
  executableOptions.optLevel = optLevel;
  if (runtime) {
    executableOptions.sharedLibraries.push_back(runtime->path);
    executableOptions.alloc = runtime->alloc;
    executableOptions.free = runtime->free;
  }
  // Helpers lowered code may call: memrefCopy and friends, and the print
  // functions of test drivers that sit in the same file as the entry.
  for (llvm::StringRef name :
       {"libmlir_c_runner_utils.so", "libmlir_runner_utils.so"}) {
    llvm::SmallString<256> path(AMP_MLIR_LIBRARY_DIR);
    llvm::sys::path::append(path, name);
    if (llvm::sys::fs::exists(path))
      executableOptions.sharedLibraries.push_back(std::string(path));
  }

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto executable = Executable::create(*module, *signature, executableOptions);
  if (!executable)
    return error(executable.takeError());

  llvm::SmallVector<double> millis;
  auto results = (*executable)->run(arguments, repeat, millis);
  if (!results)
    return error(results.takeError());

  if (repeat.getNumOccurrences()) {
    llvm::sort(millis);
    llvm::outs() << llvm::format(
        "time: min %.3f ms, median %.3f ms (%u runs)\n", millis.front(),
        millis[millis.size() / 2], unsigned(millis.size()));
  }

  for (auto [i, result] : llvm::enumerate(*results)) {
    if (!outputs.empty()) {
      if (llvm::Error err = writeNpy(outputs[i], result))
        return error(std::move(err));
    } else if (references.empty()) {
      printSummary(i, result);
    }
  }

  int status = 0;
  for (auto [i, path] : llvm::enumerate(references)) {
    auto reference = readNpy(path);
    if (!reference)
      return error(reference.takeError());
    const HostTensor &result = (*results)[i];
    auto stats = compareWithReference(result, *reference, relativeTolerance,
                                      absoluteTolerance);
    if (!stats)
      return error("result " + llvm::Twine(i) + " vs '" + path +
                   "': " + llvm::toString(stats.takeError()));
    bool ok = stats->outOfTolerance == 0;
    llvm::outs() << llvm::format(
        "compare result %u (%s) with '%s': max_abs_err=%.3e max_rel_err=%.3e "
        "mean_abs_err=%.3e out_of_tolerance=%lld/%lld (rtol=%g atol=%g) %s\n",
        unsigned(i), result.getTypeString().c_str(), path.c_str(),
        stats->maxAbsError, stats->maxRelError, stats->meanAbsError,
        (long long)stats->outOfTolerance, (long long)stats->count,
        double(relativeTolerance), double(absoluteTolerance),
        ok ? "OK" : "FAIL");
    if (!ok) {
      int64_t bad = stats->firstBadIndex;
      error(llvm::formatv("result {0} is out of tolerance against '{1}': {2} "
                          "of {3} elements (first at index {4}: {5} vs {6})",
                          i, path, stats->outOfTolerance, stats->count, bad,
                          llvm::format("%.9g", result.getAsDouble(bad)),
                          llvm::format("%.9g", reference->getAsDouble(bad))));
      status = 1;
    }
  }
  return status;
}

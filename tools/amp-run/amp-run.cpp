//===- amp-run.cpp - Run a function of an MLIR file on a backend ----------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// amp-run FILE.mlir --entry=NAME [--backend=cpu|vulkan|cuda]
//         [--input=a.npy ... [--cast-inputs] | --seed=N] [--save-inputs=DIR]
//         [--output=r.npy ...] [--repeat=N]
//         [--compare=ref.npy ... --rtol=R --atol=A]
//         [--input-dir=DIR ...] [--calibrate=ranges.json]
//         [--find-nonfinite [--f32=orig.mlir] [--nonfinite-report=r.json]]
//
// FILE holds tensor-level MLIR (the f32 original or what mixed-precision
// made of it). amp-run lowers it in-process with the backend's amp
// pipeline, compiles it to object files on all cores (ObjectCompiler.h), or
// loads them from the compile cache (CompileCache.h), links them in an ORC
// JIT, calls the entry
// function on .npy or seeded inputs, and writes, prints, times or compares
// its results. With probes in the program (CPU only), it also writes the
// ranges of its f32 values for mixed-precision{ranges=...}, or reports the
// first op that computed an infinity or a NaN. See docs/Runner.md.
//
//===----------------------------------------------------------------------===//

#include "Common/BufferPool.h"
#include "amp/Analysis/LowPrecisionWork.h"
#include "amp/Backend/CPU/CPUTarget.h"
#include "amp/InitAll.h"
#include "amp/Pipelines/Backends.h"
#include "amp/Runner/Backend.h"
#include "amp/Runner/Comparison.h"
#include "amp/Runner/CompileCache.h"
#include "amp/Runner/EntrySignature.h"
#include "amp/Runner/Executable.h"
#include "amp/Runner/Lowering.h"
#include "amp/Runner/NonfiniteReport.h"
#include "amp/Runner/Npy.h"
#include "amp/Runner/ObjectCompiler.h"
#include "amp/Runner/Probes.h"
#include "amp/Runner/RandomInputs.h"
#include "amp/Runner/RuntimeLibrary.h"
#include "amp/Support/TextNesting.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
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
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>

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
/// --threads. libLLVM registers an option of that name that amp-run does
/// not use; main() unregisters it before this one is first asked for.
static cl::opt<unsigned> &threads() {
  static cl::opt<unsigned> option(
      "threads",
      cl::desc("CPU backend: the threads large ops are split over (OpenMP; "
               "0, the default: one per core, or 1 where libomp is "
               "missing). Results do not depend on it: no reduction is "
               "split"),
      cl::init(0), cl::cat(category));
  return option;
}
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
static cl::opt<bool> bf16Dot(
    "bf16-dot",
    cl::desc("CPU backend: reduce bf16 products with the AVX512-BF16 dot "
             "product (the CPU must have it) also on a chip where f32 "
             "multiply-adds outrun it; by default amp-run uses it only where "
             "it is faster (Zen 4)"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string> cpuName(
    "cpu",
    cl::desc("CPU backend: compile for this LLVM CPU (as llc -mcpu names it: "
             "haswell, znver3, skylake-avx512) instead of this machine's: "
             "its vector width, registers and kernels. The code must run "
             "here: a CPU with instructions this machine lacks is an error"),
    cl::value_desc("name"), cl::init(""), cl::cat(category));
static cl::opt<bool> noBF16Dot(
    "no-bf16-dot",
    cl::desc("CPU backend: do not use the AVX512-BF16 dot product for bf16 "
             "contractions, even on a chip where it is faster"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> noExcessPrecision(
    "no-excess-precision",
    cl::desc("CPU backend: round the result of every bf16 op to bf16, as "
             "the program says, instead of once per chain of ops computed "
             "in f32"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> noWidenReusedInputs(
    "no-widen-reused-inputs",
    cl::desc("CPU backend: widen the f16/bf16 operands of contractions at "
             "every read in their kernels instead of once before them"),
    cl::init(false), cl::cat(category));

static cl::opt<bool> noKernelStrategies(
    "no-kernel-strategies",
    cl::desc("GPU backends: map every op to one thread per output element "
             "instead of tiling contractions in workgroup memory and "
             "reducing rows across workgroups"),
    cl::init(false), cl::cat(category));

static cl::opt<bool> noTensorCores(
    "no-tensor-cores",
    cl::desc("CUDA backend: compute f16/bf16 contractions with the SIMT "
             "kernel instead of tensor cores (mma.sync)"),
    cl::init(false), cl::cat(category));

static cl::opt<bool> vulkanEmulateTensorCores(
    "vulkan-emulate-tensor-cores",
    cl::desc("Vulkan backend, for testing: run the CUDA backend's "
             "tensor-core kernels for f16/bf16 contractions with their "
             "warp-level ops emulated through workgroup memory"),
    cl::init(false), cl::cat(category));

static cl::opt<bool> tf32(
    "tf32",
    cl::desc("CUDA (and Vulkan with --vulkan-emulate-tensor-cores): compute "
             "f32 contractions on TF32 tensor cores, their operands rounded "
             "to 10 mantissa bits; off by default, f32 stays exact"),
    cl::init(false), cl::cat(category));

static cl::opt<int64_t> vulkanSubgroupSize(
    "vulkan-subgroup-size",
    cl::desc("Vulkan backend: reductions combine within subgroups of this "
             "many threads with shuffles (by default the device's size, when "
             "its compute shaders may shuffle; another size than the "
             "device's is an error); 0 combines through workgroup memory "
             "only"),
    cl::init(-1), cl::cat(category));

/// What amp-lower-to-vulkan{subgroup-size} gets: --vulkan-subgroup-size
/// checked against, or taken from, the device.
static int64_t effectiveSubgroupSize = 0;

static cl::opt<unsigned> optLevel("O", cl::desc("JIT optimization level (0-3)"),
                                  cl::Prefix, cl::init(3), cl::cat(category));
static cl::list<std::string> inputDirs(
    "input-dir",
    cl::desc("A folder of .npy files named arg<k>.npy (as --save-inputs "
             "writes them): one call per folder"),
    cl::value_desc("dir"), cl::CommaSeparated, cl::cat(category));
static cl::opt<std::string> calibratePath(
    "calibrate",
    cl::desc("Observe every f32 value the program computes (CPU backend) and "
             "write their ranges to FILE, for mixed-precision{ranges=FILE}"),
    cl::value_desc("ranges.json"), cl::cat(category));
static cl::opt<bool> findNonfinite(
    "find-nonfinite",
    cl::desc("Observe every f32, f16 and bf16 value the program computes "
             "(CPU backend) and report the first one to hold inf or NaN"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string>
    f32Path("f32",
            cl::desc("With --find-nonfinite: the f32 program the one run was "
                     "converted from; says what it computes at the op found"),
            cl::value_desc("orig.mlir"), cl::cat(category));
static cl::opt<std::string> nonfiniteReportPath(
    "nonfinite-report",
    cl::desc("With --find-nonfinite: also write the findings as JSON"),
    cl::value_desc("report.json"), cl::cat(category));
static cl::opt<bool>
    printLowered("print-lowered",
                 cl::desc("Print the lowered module to stderr"),
                 cl::init(false), cl::cat(category));

static cl::opt<std::string> pipelineOptions(
    "pipeline-options",
    cl::desc("More options of the backend's lowering pipeline, as amp-opt "
             "takes them (\"outline-kernels=false tile-cols=1\"); checked by "
             "the pipeline's parser"),
    cl::value_desc("options"), cl::cat(category));
static cl::opt<unsigned> compileThreads(
    "compile-threads",
    cl::desc("Threads that compile the program's partitions (0, the "
             "default: one per core)"),
    cl::init(0), cl::cat(category));

static cl::opt<bool> noCache(
    "no-cache",
    cl::desc("Compile the program even if the compile cache holds it, and "
             "do not store it there (AMP_NO_CACHE=1 does the same; the "
             "cache is $AMP_CACHE_DIR, $XDG_CACHE_HOME/amp or ~/.cache/amp, "
             "AMP_CACHE_MAX_SIZE bytes at most, 1G by default)"),
    cl::init(false), cl::cat(category));

/// The compile cache, or null without one (set up in main).
static std::optional<CompileCache> &compileCacheStorage() {
  static std::optional<CompileCache> cache;
  return cache;
}
static CompileCache *compileCache() {
  auto &cache = compileCacheStorage();
  return cache ? &*cache : nullptr;
}

static cl::opt<bool> timePhases(
    "time-phases",
    cl::desc("Print to stderr where the time to the first result went: "
             "parsing, lowering, LLVM's optimizer and code generator (summed "
             "over the threads that compile the program's partitions), "
             "linking, the first call"),
    cl::init(false), cl::cat(category));

namespace {
/// Wall-clock seconds of amp-run's phases (--time-phases).
struct PhaseTimes {
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
  llvm::SmallVector<std::pair<std::string, double>> phases;
  CompileTimes compile;

  /// Records the time since the last mark as `phase`.
  void mark(llvm::StringRef phase) {
    auto now = std::chrono::steady_clock::now();
    phases.push_back(
        {phase.str(), std::chrono::duration<double>(now - start).count()});
    start = now;
  }

  void print() const {
    llvm::errs() << "amp-run: time:";
    for (const auto &[phase, seconds] : phases)
      llvm::errs() << llvm::format(" %s %.3f s,", phase.c_str(), seconds);
    llvm::errs() << llvm::format(
        " of which LLVM: translate %.3f s, optimize %.3f s, codegen %.3f s "
        "(%u partitions)\n",
        compile.translateSeconds, compile.optimizeSeconds,
        compile.codegenSeconds, compile.partitions);
  }
};
} // namespace

static PhaseTimes &phaseTimes() {
  static PhaseTimes times;
  return times;
}

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

namespace {
/// A program file parsed in a context of its own, its diagnostics printed
/// against its source.
struct ProgramFile {
  explicit ProgramFile(const DialectRegistry &registry)
      : context(registry), diagnostics(sourceMgr, &context) {}

  llvm::Error load(llvm::StringRef path) {
    auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!file)
      return llvm::createStringError("cannot open '" + path +
                                     "': " + file.getError().message());
    // The text is parsed from a source manager of its own, released once
    // the module is built (a model's weights are most of it: 250 MB of
    // hex for 31M parameters). Diagnostics after that read the file again
    // through the handler's manager, to print the line they point at.
    llvm::SourceMgr parsed;
    llvm::StringRef text = (*file)->getBuffer();
    parsed.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
    if (failed(amp::checkTextNesting(text, path, &context)))
      return llvm::createStringError("cannot parse '" + path + "'");
    module = parseSourceFile<ModuleOp>(parsed, &context);
    if (!module)
      return llvm::createStringError("cannot parse '" + path + "'");
    return llvm::Error::success();
  }

  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics;
  OwningOpRef<ModuleOp> module;
};

/// The arguments of one call, and the folder they came from (empty for
/// --input and --seed).
struct InputSet {
  std::string folder;
  llvm::SmallVector<HostTensor> arguments;
};
} // namespace

/// Reads argument `index` from `path`, converting its float dtype with
/// --cast-inputs.
static llvm::Expected<HostTensor> readArgument(const EntrySignature &signature,
                                               unsigned index,
                                               llvm::StringRef path) {
  auto read = readNpy(path);
  if (!read)
    return read.takeError();
  return matchArgument(signature, index, std::move(*read), castInputs, path);
}

/// The calls to make: one per --input-dir folder, or one on the --input
/// files or seeded inputs.
static llvm::Expected<std::vector<InputSet>>
readInputSets(const EntrySignature &signature) {
  unsigned count = signature.arguments.size();
  std::vector<InputSet> sets;
  for (const std::string &folder : inputDirs) {
    InputSet set{folder, {}};
    for (unsigned i = 0; i < count; ++i) {
      llvm::SmallString<256> path(folder);
      llvm::sys::path::append(path, "arg" + llvm::Twine(i) + ".npy");
      auto argument = readArgument(signature, i, path);
      if (!argument)
        return argument.takeError();
      set.arguments.push_back(std::move(*argument));
    }
    sets.push_back(std::move(set));
  }
  if (!sets.empty())
    return sets;

  if (!inputs.empty() && inputs.size() != count)
    return llvm::createStringError(
        "@" + entryName + " takes " + llvm::Twine(count) + " arguments, got " +
        llvm::Twine(inputs.size()) + " --input files");
  InputSet set;
  for (unsigned i = 0; i < count; ++i) {
    auto argument = inputs.empty() ? generateArgument(signature, i, seed)
                                   : readArgument(signature, i, inputs[i]);
    if (!argument)
      return argument.takeError();
    set.arguments.push_back(std::move(*argument));
  }
  sets.push_back(std::move(set));
  return sets;
}

/// Lowers `module` with the backend's pipeline and JIT-compiles it, with
/// the probe functions bound when `probes`.
static llvm::Expected<std::unique_ptr<Executable>>
compile(ModuleOp module, const EntrySignature &signature,
        const BackendDescription &backend,
        const std::optional<RuntimeLibrary> &runtime, llvm::StringRef fileName,
        bool probes) {
  prepareEntry(module, signature.name);
  // A program converted without a target, run on a CPU without units for
  // its f16/bf16 work, is slower than f32: said once, with the option.
  static bool noted = false;
  if (backend.backend == Backend::CPU && !probes && !noted) {
    // The host's #llvm.target (and amp's model of it) live in the LLVM
    // dialect.
    module.getContext()->getOrLoadDialect<LLVM::LLVMDialect>();
    std::string cpu = ("this CPU (" + llvm::sys::getHostCPUName() + ")").str();
    if (std::optional<std::string> note =
            amp::describeLowPrecisionWorkWithoutUnits(
                module, amp::getHostCPUTarget(module.getContext()), cpu,
                "mixed-precision{target=cpu}")) {
      llvm::errs() << "amp-run: note: '" << fileName << "': " << *note << "\n";
      noted = true;
    }
  }
  // Probes record values from one thread at a time.
  unsigned cpuThreads =
      probes || backend.backend != Backend::CPU ? 1 : threads().getValue();
  if (cpuThreads == 0)
    cpuThreads = std::max(1u, std::thread::hardware_concurrency());
  if (cpuThreads > 1024)
    return llvm::createStringError("--threads must be at most 1024, got " +
                                   llvm::Twine(cpuThreads));
  // Threaded CPU code calls the OpenMP runtime LLVM ships: asked for, it
  // must be there; by default, one thread runs without it.
  llvm::SmallString<256> openmpRuntime(AMP_MLIR_LIBRARY_DIR);
  llvm::sys::path::append(openmpRuntime, "libomp.so");
  if (cpuThreads > 1 && !llvm::sys::fs::exists(openmpRuntime)) {
    if (threads().getNumOccurrences())
      return llvm::createStringError("--threads=" + llvm::Twine(cpuThreads) +
                                     " needs the OpenMP runtime " +
                                     openmpRuntime +
                                     " (Debian: libomp-22-dev)");
    cpuThreads = 1;
  }
  // The CPU the code is for: this one, or --cpu's (if it runs here).
  std::string cpu = llvm::sys::getHostCPUName().str();
  bool useBF16Dot = bf16Dot || (!noBF16Dot && hostBF16DotPays());
  if (!cpuName.empty() && backend.backend == Backend::CPU) {
    if (llvm::Error err = checkRunsOnHost(cpuName))
      return llvm::createStringError("--cpu: " +
                                     llvm::toString(std::move(err)));
    cpu = cpuName;
    bool hasDot = cpuHasFeature(cpu, "avx512bf16");
    if (bf16Dot && !hasDot)
      return llvm::createStringError(
          "--bf16-dot: CPU '" + cpu +
          "' has no AVX512-BF16 dot product (--cpu)");
    useBF16Dot = bf16Dot || (!noBF16Dot && hasDot && amp::hasFastBF16Dot(cpu));
  }
  std::string pipeline = getPipeline(
      backend,
      BackendOptions{chip.getValue(), gpuFormat.getValue(), cpuThreads,
                     useBF16Dot, cpu, !noExcessPrecision, !noWidenReusedInputs,
                     !noKernelStrategies, effectiveSubgroupSize, !noTensorCores,
                     vulkanEmulateTensorCores, tf32});
  {
    // The backend's options and the user's, checked together by the
    // pipeline's parser (one line for a bad value).
    llvm::StringRef options = llvm::StringRef(pipeline).split('{').second;
    options.consume_back("}");
    auto checked = amp::getBackendPipeline(
        backend.name, (options + " " + pipelineOptions).str());
    if (!checked)
      return checked.takeError();
    pipeline = *checked;
  }
  ExecutableOptions options;
  options.optLevel = optLevel;
  if (backend.backend == Backend::CPU && !cpuName.empty())
    options.cpu = cpu;
  options.compileThreads = compileThreads;
  options.compileTimes = &phaseTimes().compile;
  if (runtime) {
    options.sharedLibraries.push_back(runtime->path);
    options.alloc = runtime->alloc;
    options.free = runtime->free;
  } else {
    // On the CPU the program runs on a thread with a 1 GiB stack (reserved,
    // not committed): a large model's stack temporaries exceed 8 MiB.
    options.stackBytes = 1u << 30;
  }
  // Helpers lowered code may call: memrefCopy and friends, and the print
  // functions of test drivers that sit in the same file as the entry.
  for (llvm::StringRef name :
       {"libmlir_c_runner_utils.so", "libmlir_runner_utils.so"}) {
    llvm::SmallString<256> path(AMP_MLIR_LIBRARY_DIR);
    llvm::sys::path::append(path, name);
    if (llvm::sys::fs::exists(path))
      options.sharedLibraries.push_back(std::string(path));
  }
  if (cpuThreads > 1) {
    // Worker threads get large stacks too (the caller's is 1 GiB), unless
    // the user sets OMP_STACKSIZE.
    ::setenv("OMP_STACKSIZE", "256M", /*overwrite=*/0);
    options.sharedLibraries.push_back(std::string(openmpRuntime));
  }
  if (probes)
    options.symbols = getProbeSymbols();

  // A program compiled before with the same pipeline, for the same CPU, by
  // the same build is loaded from the cache (--print-lowered needs the
  // lowering).
  CompileCache *cache = printLowered ? nullptr : compileCache();
  std::string key;
  auto warn = [](const llvm::Twine &message) {
    llvm::errs() << "amp-run: warning: " << message << "\n";
  };
  if (cache) {
    ObjectCompileOptions compileTarget;
    compileTarget.cpu = options.cpu;
    std::string maker = "amp-run";
    if (backend.needsDeviceGlobals && runtime && runtime->mapGlobal)
      maker += "\nglobals through the runtime";
    if (probes)
      maker += "\nprobes";
    key = getProgramKey(maker, module, describeCompileTarget(compileTarget),
                        options.optLevel, pipeline, signature.name);
    if (auto objects = cache->lookup(key, warn)) {
      auto executable = Executable::load(*objects, signature, options);
      if (executable)
        return executable;
      warn("cannot load '" + cache->getPath(key) +
           "': " + llvm::toString(executable.takeError()) +
           "; it is removed and the program compiled again");
      cache->remove(key);
    }
  }

  if (failed(lowerModule(module, pipeline)))
    return llvm::createStringError("lowering '" + fileName + "' with " +
                                   pipeline + " failed");
  phaseTimes().mark("lower");
  if (probes)
    removeProbeBufferizationHints(module);
  if (backend.needsDeviceGlobals && runtime && runtime->mapGlobal)
    routeGlobalsThroughRuntime(module, "ampRuntimeMapGlobal");
  if (printLowered)
    module->print(llvm::errs());

  auto objects = Executable::compile(module, signature.name, options);
  if (!objects)
    return objects.takeError();
  if (cache)
    if (llvm::Error err = cache->store(key, *objects))
      warn("the compile cache is not updated: " +
           llvm::toString(std::move(err)));
  return Executable::load(*objects, signature, options);
}

/// Runs the f32 program of --f32 with probes on the same inputs (their
/// floats converted to its argument types) and looks up in it the op the
/// report names.
static llvm::Error compareWithF32Program(const DialectRegistry &registry,
                                         const std::vector<InputSet> &sets,
                                         const ProbedProgram &converted,
                                         NonfiniteReport &report) {
  auto fail = [](const llvm::Twine &message) {
    return llvm::createStringError("--f32: " + message);
  };
  ProgramFile program(registry);
  if (llvm::Error err = program.load(f32Path))
    return fail(toString(std::move(err)));
  auto signature = readEntrySignature(*program.module, entryName);
  if (!signature)
    return fail(toString(signature.takeError()));
  unsigned count = signature->arguments.size();
  if (!sets.empty() && sets.front().arguments.size() != count)
    return fail("@" + entryName + " of '" + f32Path + "' takes " +
                llvm::Twine(count) + " arguments, the program run takes " +
                llvm::Twine(sets.front().arguments.size()));
  auto probed = insertProbes(*program.module,
                             ProbeOptions{/*lowPrecision=*/true, entryName});
  if (failed(probed))
    return fail("cannot insert probes into '" + f32Path + "'");
  auto executable = compile(*program.module, *signature, *lookupBackend("cpu"),
                            std::nullopt, f32Path, /*probes=*/true);
  if (!executable)
    return fail(toString(executable.takeError()));

  ProbeRecorder recorder(*probed);
  recorder.install();
  for (const InputSet &set : sets) {
    llvm::SmallVector<HostTensor> arguments;
    for (unsigned i = 0; i < count; ++i) {
      const HostTensor &input = set.arguments[i];
      ElementKind kind = signature->arguments[i].kind;
      bool convert = input.getElementKind() != kind &&
                     isFloatKind(input.getElementKind()) && isFloatKind(kind);
      arguments.push_back(convert ? input.convertTo(kind) : input);
      if (llvm::Error err =
              checkArgument(*signature, i, arguments.back(), "the input"))
        return fail(toString(std::move(err)));
    }
    llvm::SmallVector<double> millis;
    auto results = (*executable)->run(arguments, 1, millis);
    if (!results)
      return fail(toString(results.takeError()));
    recorder.countCall();
  }
  matchInF32Program(report, converted, *probed, recorder.getRanges(), f32Path);
  return llvm::Error::success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  phaseTimes(); // The clock starts here.
  if (cl::Option *unused = cl::getRegisteredOptions().lookup("threads"))
    unused->removeArgument();
  (void)threads();
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
  // sm_<N> names the cuda backend for that chip, as in amp.lower().
  if (llvm::StringRef(backendName).starts_with("sm_") &&
      !amp::lookupBackend(backendName)) {
    if (chip.getNumOccurrences() && chip != backendName)
      return error("--backend=" + backendName + " and --chip=" + chip +
                   " name two chips");
    chip = backendName.getValue();
    backendName = "cuda";
  }
  std::optional<BackendDescription> backend = lookupBackend(backendName);
  if (!backend)
    return error(amp::lookupBackend(backendName)
                     ? "the " + backendName +
                           " backend lowers programs but cannot run them; "
                           "amp-run runs " +
                           listBackends()
                     : amp::describeUnknownBackend(backendName));
  if (optLevel > 3)
    return error("-O must be 0 to 3");
  if (!poolLimitVariableIsValid())
    return error("AMP_BUFFER_POOL_MIB must be a count of MiB (0 turns the "
                 "buffer pool's reuse off), got '" +
                 std::string(std::getenv("AMP_BUFFER_POOL_MIB")) + "'");
  if (repeat < 1)
    return error("--repeat must be at least 1");
  if (relativeTolerance < 0 || absoluteTolerance < 0)
    return error("--rtol and --atol must not be negative");
  bool probing = !calibratePath.empty() || findNonfinite;
  if (probing && backend->backend != Backend::CPU)
    return error("--calibrate and --find-nonfinite run on the CPU backend "
                 "only, not --backend=" +
                 backendName);
  if (probing && repeat.getNumOccurrences())
    return error("--repeat does not go with --calibrate or --find-nonfinite "
                 "(it would time the probes)");
  if (!findNonfinite && (!f32Path.empty() || !nonfiniteReportPath.empty()))
    return error("--f32 and --nonfinite-report go with --find-nonfinite");
  if (!inputDirs.empty() && !inputs.empty())
    return error("give the inputs with --input or --input-dir, not both");
  if (bf16Dot && noBF16Dot)
    return error("--bf16-dot and --no-bf16-dot contradict each other");
  if (noTensorCores && backend->backend != Backend::CUDA)
    return error("--no-tensor-cores is for --backend=cuda");
  if (vulkanEmulateTensorCores && backend->backend != Backend::Vulkan)
    return error("--vulkan-emulate-tensor-cores is for --backend=vulkan");
  if (tf32 &&
      !(backend->backend == Backend::CUDA ||
        (backend->backend == Backend::Vulkan && vulkanEmulateTensorCores)))
    return error("--tf32 needs --backend=cuda (or vulkan with "
                 "--vulkan-emulate-tensor-cores)");
  if (tf32 && noTensorCores)
    return error("--tf32 computes on tensor cores; --no-tensor-cores "
                 "contradicts it");
  // f32 results are no longer those of f32 arithmetic: said once.
  if (tf32)
    llvm::errs() << "amp-run: note: --tf32: f32 contractions run on TF32 "
                    "tensor cores, their operands rounded to 10 mantissa "
                    "bits\n";
  // The code would stop at its first vdpbf16ps (an illegal instruction).
  if (bf16Dot && backend->backend == Backend::CPU && !hostHasBF16Dot())
    return error("--bf16-dot: this CPU has no AVX512-BF16 dot product");
  if (inputDirs.size() > 1 &&
      (!outputs.empty() || !references.empty() || !saveInputs.empty() ||
       repeat.getNumOccurrences()))
    return error("--output, --compare, --save-inputs and --repeat take one "
                 "set of inputs, got " +
                 llvm::Twine(inputDirs.size()) + " --input-dir folders");

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
  if (vulkanSubgroupSize.getNumOccurrences() && vulkanSubgroupSize < 0)
    return error("--vulkan-subgroup-size must be 0 or the device's subgroup "
                 "size, got " +
                 llvm::Twine(vulkanSubgroupSize));
  if (backend->backend == Backend::Vulkan && vulkanSubgroupSize != 0 &&
      runtime && runtime->subgroupShuffleSize) {
    int64_t device = runtime->subgroupShuffleSize();
    if (vulkanSubgroupSize > 0 && vulkanSubgroupSize != device)
      return error("--vulkan-subgroup-size=" + llvm::Twine(vulkanSubgroupSize) +
                   ", but the Vulkan device " +
                   (device ? "shuffles within subgroups of " +
                                 llvm::Twine(device) + " threads"
                           : llvm::Twine("cannot shuffle in compute "
                                         "shaders")));
    effectiveSubgroupSize = device;
  }

  // LLVM's own options may change the code without changing the key.
  if (!noCache && getForeignOptionsGiven(argc, argv, category).empty()) {
    auto cache = CompileCache::openDefault();
    if (!cache)
      return error(cache.takeError());
    compileCacheStorage() = std::move(*cache);
  }

  DialectRegistry registry;
  amp::registerEverything(registry);
  // Parse errors are printed with their location by the handler.
  ProgramFile program(registry);
  if (llvm::Error err = program.load(inputFile))
    return error(std::move(err));
  ModuleOp module = *program.module;
  phaseTimes().mark("parse");

  auto signature = readEntrySignature(module, entryName);
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

  // Inputs: from .npy files, or generated; and the references, read before
  // anything is written, so that a bad one leaves no output behind.
  auto sets = readInputSets(*signature);
  if (!sets)
    return error(sets.takeError());
  llvm::SmallVector<HostTensor> referenceTensors;
  for (const std::string &path : references) {
    auto reference = readNpy(path);
    if (!reference)
      return error(reference.takeError());
    referenceTensors.push_back(std::move(*reference));
  }
  // Saved before the call, so that a call that fails can be reproduced.
  if (!saveInputs.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(saveInputs))
      return error("cannot create '" + saveInputs + "': " + ec.message());
    for (auto [i, argument] : llvm::enumerate(sets->front().arguments)) {
      llvm::SmallString<256> path(saveInputs);
      llvm::sys::path::append(path, "arg" + llvm::Twine(i) + ".npy");
      if (llvm::Error err = writeNpy(path, argument))
        return error(std::move(err));
    }
  }

  // Probes go in before anything else changes the program, so that they
  // number its ops as the pass reading the ranges does.
  std::optional<ProbedProgram> probed;
  if (probing) {
    auto inserted = insertProbes(
        module, ProbeOptions{/*lowPrecision=*/findNonfinite, entryName});
    if (failed(inserted))
      return error("cannot insert probes into '" + inputFile + "'");
    probed = std::move(*inserted);
  }

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto executable =
      compile(module, *signature, *backend, runtime, inputFile, probing);
  if (!executable)
    return error(executable.takeError());
  phaseTimes().mark("compile");

  std::optional<ProbeRecorder> recorder;
  if (probed) {
    recorder.emplace(*probed);
    recorder->install();
  }
  llvm::SmallVector<double> millis;
  std::vector<llvm::SmallVector<HostTensor>> results;
  for (const InputSet &set : *sets) {
    if (recorder)
      recorder->observeArguments(set.arguments);
    auto call = (*executable)->run(set.arguments, repeat, millis);
    if (!call)
      return error(call.takeError());
    if (recorder)
      recorder->countCall();
    results.push_back(std::move(*call));
    if (results.size() == 1) {
      phaseTimes().mark("run");
      if (timePhases)
        phaseTimes().print();
    }
  }
  if (recorder)
    recorder->uninstall();

  if (repeat.getNumOccurrences()) {
    llvm::sort(millis);
    llvm::outs() << llvm::format(
        "time: min %.3f ms, median %.3f ms (%u runs)\n", millis.front(),
        millis[millis.size() / 2], unsigned(millis.size()));
  }

  for (auto [set, setResults] : llvm::zip(*sets, results)) {
    if (sets->size() > 1)
      llvm::outs() << "inputs '" << set.folder << "':\n";
    for (auto [i, result] : llvm::enumerate(setResults)) {
      if (!outputs.empty()) {
        if (llvm::Error err = writeNpy(outputs[i], result))
          return error(std::move(err));
      } else if (references.empty()) {
        printSummary(i, result);
      }
    }
  }

  int status = 0;
  for (auto [i, path] : llvm::enumerate(references)) {
    const HostTensor *reference = &referenceTensors[i];
    const HostTensor &result = results.front()[i];
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

  // The ranges of the f32 values computed at least once (a branch never
  // taken, a function never called have none).
  if (!calibratePath.empty()) {
    amp::CalibratedRanges ranges;
    ranges.calls = recorder->getNumCalls();
    for (auto [range, kind] : llvm::zip(recorder->getRanges(), probed->kinds))
      if (kind == ElementKind::F32 && range.count)
        ranges.values.push_back(range);
    if (llvm::Error err = amp::writeCalibratedRanges(calibratePath, ranges))
      return error(std::move(err));
    llvm::outs() << "calibrate: " << ranges.values.size()
                 << " f32 values observed over " << ranges.calls
                 << (ranges.calls == 1 ? " call" : " calls") << ", written to '"
                 << calibratePath << "'\n";
  }

  if (findNonfinite) {
    NonfiniteReport report = makeNonfiniteReport(*probed, *recorder, entryName);
    if (!f32Path.empty() && report.found && !report.isArgument)
      if (llvm::Error err =
              compareWithF32Program(registry, *sets, *probed, report))
        return error(std::move(err));
    printNonfiniteReport(llvm::outs(), report);
    if (!nonfiniteReportPath.empty()) {
      std::error_code ec;
      llvm::raw_fd_ostream os(nonfiniteReportPath, ec, llvm::sys::fs::OF_Text);
      if (ec)
        return error("cannot write '" + nonfiniteReportPath +
                     "': " + ec.message());
      os << llvm::formatv("{0:2}", toJSON(report)) << "\n";
    }
  }
  return status;
}

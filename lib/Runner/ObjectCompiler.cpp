//===- ObjectCompiler.cpp - LLVM-dialect modules to object files ----------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/ObjectCompiler.h"

#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <algorithm>
#include <chrono>
#include <mutex>

using namespace mlir;
using namespace mlir::amp::runtime;

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string mlir::amp::runtime::getPackedEntryName(llvm::StringRef name) {
  return ("_amp_packed_" + name).str();
}

namespace {
/// The CPU and features code is compiled for.
struct CompileTarget {
  std::string triple, cpu, features;
};
} // namespace

static CompileTarget resolveTarget(const ObjectCompileOptions &options) {
  CompileTarget target;
  target.triple = llvm::sys::getProcessTriple();
  target.cpu =
      options.cpu.empty() ? llvm::sys::getHostCPUName().str() : options.cpu;
  if (!options.features.empty() || !options.cpu.empty()) {
    target.features = options.features;
    return target;
  }
  // The host's features as the OS reports them: a VM may hide some that
  // its CPU model would imply (AVX512-FP16 on a virtual Sapphire Rapids).
  llvm::SmallVector<std::string> features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    features.push_back((feature.second ? "+" : "-") + feature.first().str());
  llvm::sort(features);
  target.features = llvm::join(features, ",");
  return target;
}

std::string
mlir::amp::runtime::describeCompileTarget(const ObjectCompileOptions &options) {
  CompileTarget target = resolveTarget(options);
  return target.triple + " " + target.cpu + " " + target.features;
}

/// LLVM's description of the CPU `cpu` of this machine's triple, or null.
static std::unique_ptr<llvm::MCSubtargetInfo>
getSubtarget(llvm::StringRef cpu) {
  llvm::InitializeNativeTarget();
  std::string error;
  llvm::Triple triple(llvm::sys::getProcessTriple());
  const llvm::Target *backend =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!backend)
    return nullptr;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      backend->createMCSubtargetInfo(triple, cpu, ""));
  if (!subtarget || !subtarget->isCPUStringValid(cpu))
    return nullptr;
  return subtarget;
}

bool mlir::amp::runtime::cpuHasFeature(llvm::StringRef cpu,
                                       llvm::StringRef feature) {
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget = getSubtarget(cpu);
  return subtarget && subtarget->checkFeatures(("+" + feature).str());
}

llvm::Error mlir::amp::runtime::checkRunsOnHost(llvm::StringRef cpu) {
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget = getSubtarget(cpu);
  llvm::Triple triple(llvm::sys::getProcessTriple());
  if (!subtarget)
    return fail("LLVM knows no CPU '" + cpu + "' for " + triple.str() +
                " (names as llc -mcpu takes them)");
  llvm::SmallVector<std::string> missing;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    if (!feature.second &&
        subtarget->checkFeatures("+" + feature.first().str()))
      missing.push_back(feature.first().str());
  if (!missing.empty()) {
    llvm::sort(missing);
    return fail("code for CPU '" + cpu + "' does not run on this one (" +
                llvm::sys::getHostCPUName() + "), which lacks " +
                llvm::join(missing, ", "));
  }
  return llvm::Error::success();
}

static llvm::CodeGenOptLevel getCodeGenLevel(unsigned optLevel) {
  return optLevel >= 3   ? llvm::CodeGenOptLevel::Aggressive
         : optLevel == 0 ? llvm::CodeGenOptLevel::None
                         : llvm::CodeGenOptLevel::Default;
}

static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const CompileTarget &target, unsigned optLevel) {
  std::string error;
  llvm::Triple triple(target.triple);
  const llvm::Target *backend =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!backend)
    return fail("no LLVM target for " + target.triple + ": " + error);
  std::unique_ptr<llvm::TargetMachine> machine(backend->createTargetMachine(
      triple, target.cpu, target.features, llvm::TargetOptions(),
      llvm::Reloc::PIC_, std::nullopt, getCodeGenLevel(optLevel)));
  if (!machine)
    return fail("cannot create an LLVM target machine for " + target.cpu);
  return machine;
}

/// Adds `void <packed>(ptr args)`, which loads each argument of `entry`
/// from the pointer in its slot of `args`, calls it, and stores its result
/// where the last slot points.
static void addPackedWrapper(llvm::Function &entry) {
  llvm::Module &module = *entry.getParent();
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> builder(context);
  auto *pointer = builder.getPtrTy();
  auto *type = llvm::FunctionType::get(builder.getVoidTy(), {pointer}, false);
  auto *wrapper =
      llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                             getPackedEntryName(entry.getName()), module);
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", wrapper));
  llvm::Value *slots = wrapper->getArg(0);
  auto slot = [&](unsigned index) {
    llvm::Value *address =
        builder.CreateConstGEP1_64(pointer, slots, index, "slot");
    return builder.CreateLoad(pointer, address);
  };
  llvm::SmallVector<llvm::Value *> arguments;
  for (llvm::Argument &argument : entry.args())
    arguments.push_back(
        builder.CreateLoad(argument.getType(), slot(argument.getArgNo())));
  llvm::CallInst *call = builder.CreateCall(&entry, arguments);
  if (!entry.getReturnType()->isVoidTy())
    builder.CreateStore(call, slot(entry.arg_size()));
  builder.CreateRetVoid();
  // The entry stays one function, called by the wrapper (and by the C
  // wrapper of a library), instead of a second copy inlined into it.
  entry.addFnAttr(llvm::Attribute::NoInline);
}

/// Replaces the appending global `name` (llvm.global_ctors or dtors) by an
/// external function `replacement` that calls its functions in priority
/// order (destructors: in reverse).
static void makeExplicit(llvm::Module &module, llvm::StringRef name,
                         llvm::StringRef replacement, bool reverse) {
  llvm::IRBuilder<> builder(module.getContext());
  auto *function = llvm::Function::Create(
      llvm::FunctionType::get(builder.getVoidTy(), false),
      llvm::GlobalValue::ExternalLinkage, replacement, module);
  builder.SetInsertPoint(
      llvm::BasicBlock::Create(module.getContext(), "entry", function));
  if (llvm::GlobalVariable *global = module.getGlobalVariable(name)) {
    llvm::SmallVector<std::pair<uint64_t, llvm::Function *>> calls;
    if (auto *array = llvm::dyn_cast_or_null<llvm::ConstantArray>(
            global->getInitializer()))
      for (llvm::Value *element : array->operands()) {
        auto *entry = llvm::dyn_cast<llvm::ConstantStruct>(element);
        if (!entry || entry->getNumOperands() < 2)
          continue;
        auto *priority =
            llvm::dyn_cast<llvm::ConstantInt>(entry->getOperand(0));
        auto *callee = llvm::dyn_cast<llvm::Function>(entry->getOperand(1));
        if (priority && callee)
          calls.push_back({priority->getZExtValue(), callee});
      }
    llvm::stable_sort(calls,
                      [](auto &a, auto &b) { return a.first < b.first; });
    if (reverse)
      std::reverse(calls.begin(), calls.end());
    for (auto &[priority, callee] : calls)
      builder.CreateCall(callee);
    global->eraseFromParent();
  }
  builder.CreateRetVoid();
}

/// LLVM's default pipeline at `optLevel`.
static llvm::Error optimize(llvm::Module &module, llvm::TargetMachine &machine,
                            unsigned optLevel) {
  if (optLevel == 0)
    return llvm::Error::success();
  // As MLIR's ExecutionEngine tunes it (the SLP vectorizer on).
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::OptimizationLevel level = optLevel == 1   ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  builder.buildPerModuleDefaultPipeline(level).run(module, modules);
  return llvm::Error::success();
}

/// Global arrays of this size or more are weights, not a kernel's
/// constants (see emitWeightsAsBytes).
static constexpr uint64_t kMinWeightBytes = 4096;

/// Appends the bytes of `constant` as memory holds them, where it is an
/// array of floats (arrays of such arrays too); false otherwise.
static bool appendFloatArrayBytes(const llvm::Constant *constant,
                                  std::string &bytes) {
  if (auto *data = llvm::dyn_cast<llvm::ConstantDataArray>(constant)) {
    if (!data->getElementType()->isFloatingPointTy())
      return false;
    bytes += data->getRawDataValues();
    return true;
  }
  auto *array = llvm::dyn_cast<llvm::ConstantArray>(constant);
  if (!array)
    return false;
  for (const llvm::Use &element : array->operands())
    if (!appendFloatArrayBytes(llvm::cast<llvm::Constant>(element.get()),
                               bytes))
      return false;
  return true;
}

/// Gives each large global array of floats (a model's weights) an array of
/// bytes of the same contents as its initializer. The code generator emits
/// an array of floats element by element (an APFloat and an integer each:
/// about 2 s for the 31M weights of a U-Net), an array of bytes in one
/// piece, and so do LLVM's bitcode writer and reader, through which the
/// module's partitions travel to their threads. Only arrays of 4 KiB or
/// more: the optimizer folds loads from constant arrays of floats, not of
/// bytes, and loads at constant offsets come from the small ones (a
/// kernel's constants); a model's weights are read in loops. The object's
/// bytes are the same.
static void emitWeightsAsBytes(llvm::Module &module) {
  const llvm::DataLayout &layout = module.getDataLayout();
  if (!layout.isLittleEndian() || !llvm::sys::IsLittleEndianHost)
    return;
  llvm::SmallVector<llvm::GlobalVariable *> globals;
  for (llvm::GlobalVariable &global : module.globals())
    if (global.hasInitializer() && global.getValueType()->isArrayTy() &&
        layout.getTypeAllocSize(global.getValueType()) >= kMinWeightBytes)
      globals.push_back(&global);
  for (llvm::GlobalVariable *global : globals) {
    std::string bytes;
    if (!appendFloatArrayBytes(global->getInitializer(), bytes) ||
        bytes.size() != layout.getTypeAllocSize(global->getValueType()))
      continue;
    llvm::Align align = layout.getPreferredAlign(global);
    llvm::Constant *initializer = llvm::ConstantDataArray::getString(
        module.getContext(), bytes, /*AddNull=*/false);
    auto *replacement = new llvm::GlobalVariable(
        module, initializer->getType(), global->isConstant(),
        global->getLinkage(), initializer, "", global,
        global->getThreadLocalMode(), global->getAddressSpace());
    replacement->copyAttributesFrom(global);
    replacement->setAlignment(align);
    replacement->takeName(global);
    global->replaceAllUsesWith(replacement);
    global->eraseFromParent();
  }
}

/// Moves the constant arrays of 4 KiB or more that `module` defines with
/// data of their own (the weights, once emitWeightsAsBytes made them
/// bytes) into a module of their own in its context, leaving hidden
/// external declarations of them: LLVM's module splitter, bitcode writer
/// and reader, through which the partitions reach their threads, then
/// handle no weights (they went element by element over them: 1.5 s of a
/// U-Net's cold start). Null where there are none.
static std::unique_ptr<llvm::Module> takeWeights(llvm::Module &module) {
  const llvm::DataLayout &layout = module.getDataLayout();
  std::unique_ptr<llvm::Module> weights;
  for (llvm::GlobalVariable &global : module.globals()) {
    if (!global.hasInitializer() || !global.isConstant() || !global.hasName() ||
        !llvm::isa<llvm::ConstantDataSequential>(global.getInitializer()) ||
        layout.getTypeAllocSize(global.getValueType()) < kMinWeightBytes)
      continue;
    if (!weights) {
      weights = std::make_unique<llvm::Module>("weights", module.getContext());
      weights->setDataLayout(layout);
      weights->setTargetTriple(module.getTargetTriple());
    }
    auto *definition = new llvm::GlobalVariable(
        *weights, global.getValueType(), /*isConstant=*/true,
        llvm::GlobalValue::ExternalLinkage, global.getInitializer(),
        global.getName(), nullptr, global.getThreadLocalMode(),
        global.getAddressSpace());
    definition->copyAttributesFrom(&global);
    definition->setAlignment(layout.getPreferredAlign(&global));
    for (llvm::GlobalVariable *side : {definition, &global}) {
      side->setLinkage(llvm::GlobalValue::ExternalLinkage);
      side->setVisibility(llvm::GlobalValue::HiddenVisibility);
      side->setDSOLocal(true);
    }
    global.setAlignment(definition->getAlign());
    global.setInitializer(nullptr);
  }
  return weights;
}

/// Optimizes `module` and emits it as an object file.
static llvm::Expected<std::string> compilePartition(llvm::Module &module,
                                                    const CompileTarget &target,
                                                    unsigned optLevel,
                                                    CompileTimes *times) {
  auto start = std::chrono::steady_clock::now();
  auto machine = createTargetMachine(target, optLevel);
  if (!machine)
    return machine.takeError();
  module.setDataLayout((*machine)->createDataLayout());
  module.setTargetTriple((*machine)->getTargetTriple());
  if (llvm::Error error = optimize(module, **machine, optLevel))
    return std::move(error);
  auto optimized = std::chrono::steady_clock::now();
  llvm::SmallString<0> object;
  llvm::raw_svector_ostream stream(object);
  llvm::legacy::PassManager codegen;
  if ((*machine)->addPassesToEmitFile(codegen, stream, nullptr,
                                      llvm::CodeGenFileType::ObjectFile))
    return fail("LLVM cannot emit object files for " + target.cpu);
  codegen.run(module);
  if (times) {
    auto done = std::chrono::steady_clock::now();
    times->add(std::chrono::duration<double>(optimized - start).count(),
               std::chrono::duration<double>(done - optimized).count());
  }
  return std::string(object.str());
}

void CompileTimes::add(double optimize, double codegen) {
  std::lock_guard<std::mutex> lock(mutex);
  optimizeSeconds += optimize;
  codegenSeconds += codegen;
}

llvm::Expected<std::vector<std::string>>
mlir::amp::runtime::compileToObjects(ModuleOp module,
                                     const ObjectCompileOptions &options) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  CompileTarget target = resolveTarget(options);

  auto start = std::chrono::steady_clock::now();
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context);
  if (options.times)
    options.times->translateSeconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  if (!llvmModule)
    return fail("cannot translate the lowered module to LLVM IR");
  if (!options.entry.empty()) {
    llvm::Function *entry = llvmModule->getFunction(options.entry);
    if (!entry || entry->isDeclaration())
      return fail("the lowered module has no function @" + options.entry);
    addPackedWrapper(*entry);
  }
  if (options.explicitInitializers) {
    makeExplicit(*llvmModule, "llvm.global_ctors", kInitializeFunction,
                 /*reverse=*/false);
    makeExplicit(*llvmModule, "llvm.global_dtors", kFinalizeFunction,
                 /*reverse=*/true);
  }

  // Before the split, which writes each partition as bitcode (element by
  // element for floats) and reads it back.
  {
    auto machine = createTargetMachine(target, options.optLevel);
    if (!machine)
      return machine.takeError();
    llvmModule->setDataLayout((*machine)->createDataLayout());
    emitWeightsAsBytes(*llvmModule);
  }

  unsigned definitions = llvm::count_if(
      llvmModule->functions(),
      [](const llvm::Function &function) { return !function.isDeclaration(); });
  unsigned threads = options.threads
                         ? options.threads
                         : llvm::hardware_concurrency().compute_thread_count();
  unsigned partitions = std::clamp(std::min(threads, definitions), 1u, 64u);
  if (options.times)
    options.times->partitions = partitions;
  if (partitions == 1) {
    auto object =
        compilePartition(*llvmModule, target, options.optLevel, options.times);
    if (!object)
      return object.takeError();
    return std::vector<std::string>{std::move(*object)};
  }

  // Each partition travels as bitcode to a context of its own, in which a
  // thread optimizes and compiles it; the weights stay in this context, an
  // object of their own.
  std::unique_ptr<llvm::Module> weights = takeWeights(*llvmModule);
  std::vector<llvm::SmallString<0>> bitcode;
  llvm::SplitModule(
      *llvmModule, partitions,
      [&](std::unique_ptr<llvm::Module> part) {
        llvm::SmallString<0> &buffer = bitcode.emplace_back();
        llvm::raw_svector_ostream stream(buffer);
        llvm::WriteBitcodeToFile(*part, stream);
      },
      /*PreserveLocals=*/false, /*RoundRobin=*/true);
  std::vector<std::string> objects(bitcode.size() + (weights ? 1 : 0));
  std::mutex errorLock;
  std::string errors;
  auto keep = [&](size_t i, llvm::Expected<std::string> object) {
    if (object) {
      objects[i] = std::move(*object);
      return;
    }
    std::lock_guard<std::mutex> lock(errorLock);
    errors += llvm::toString(object.takeError());
  };
  {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(partitions));
    // (No other task touches this context.)
    if (weights)
      pool.async([&] {
        keep(objects.size() - 1,
             compilePartition(*weights, target, options.optLevel, nullptr));
      });
    for (size_t i = 0; i < bitcode.size(); ++i)
      pool.async([&, i] {
        llvm::LLVMContext partContext;
        auto part = llvm::parseBitcodeFile(
            llvm::MemoryBufferRef(bitcode[i].str(), "partition"), partContext);
        keep(i, part ? compilePartition(**part, target, options.optLevel,
                                        options.times)
                     : llvm::Expected<std::string>(part.takeError()));
      });
    pool.wait();
  }
  if (!errors.empty())
    return fail(errors);
  return objects;
}

//===- Executable.cpp - The lowered program, JIT-compiled -----------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Executable.h"
#include "Common/BufferPool.h"

#include "amp/Runner/ObjectCompiler.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ExecutionEngine/JITEventListener.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/thread.h"

#include <chrono>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::amp::runtime;

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// What finalize-memref-to-llvm stores as the allocated pointer of a
/// memref.get_global: such buffers are not owned by anyone.
static constexpr uintptr_t kGlobalAllocatedPointer = 0xdeadbeef;

llvm::Expected<std::vector<std::string>>
Executable::compile(ModuleOp module, llvm::StringRef entry,
                    const ExecutableOptions &options) {
  ObjectCompileOptions compileOptions;
  compileOptions.optLevel = options.optLevel;
  compileOptions.cpu = options.cpu;
  compileOptions.threads = options.compileThreads;
  compileOptions.entry = entry.str();
  compileOptions.times = options.compileTimes;
  return compileToObjects(module, compileOptions);
}

llvm::Expected<std::unique_ptr<Executable>>
Executable::create(ModuleOp module, EntrySignature signature,
                   const ExecutableOptions &options) {
  auto objects = compile(module, signature.name, options);
  if (!objects)
    return objects.takeError();
  return load(*objects, std::move(signature), options);
}

llvm::Expected<std::unique_ptr<Executable>>
Executable::load(llvm::ArrayRef<std::string> objects, EntrySignature signature,
                 const ExecutableOptions &requested) {
  // Without a device runtime's memory, buffers come from amp's pool.
  ExecutableOptions options = requested;
  if (!options.alloc || !options.free) {
    options.alloc = poolAllocate;
    options.free = poolRelease;
  }
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  // AMP_JIT_PERF: the code is registered with perf (docs/Runner.md).
  llvm::JITEventListener *perf =
      std::getenv("AMP_JIT_PERF")
          ? llvm::JITEventListener::createPerfJITEventListener()
          : nullptr;
  auto jit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(std::move(*builder))
          .setObjectLinkingLayerCreator(
              [perf](llvm::orc::ExecutionSession &session)
                  -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
                auto layer =
                    std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
                        session, [](const llvm::MemoryBuffer &) {
                          return std::make_unique<llvm::SectionMemoryManager>();
                        });
                if (perf)
                  layer->registerJITEventListener(*perf);
                return layer;
              })
          .create();
  if (!jit)
    return jit.takeError();
  llvm::orc::JITDylib &library = (*jit)->getMainJITDylib();

  // Libraries the program calls into (device runtimes, runner utils,
  // OpenMP), then everything the process has loaded (libc, libm).
  for (const std::string &path : options.sharedLibraries) {
    std::string error;
    if (llvm::sys::DynamicLibrary::LoadLibraryPermanently(path.c_str(), &error))
      return fail("cannot load '" + path + "': " + error);
  }
  char prefix = (*jit)->getDataLayout().getGlobalPrefix();
  auto process =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process)
    return process.takeError();
  library.addGenerator(std::move(*process));

  // The program's malloc and free become the runtime's, so that every buffer
  // it allocates is one the device can use; host functions it calls by name
  // are bound to theirs.
  llvm::orc::SymbolMap symbols;
  llvm::orc::MangleAndInterner interner((*jit)->getExecutionSession(),
                                        (*jit)->getDataLayout());
  auto add = [&](llvm::StringRef name, void *address) {
    symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                               llvm::JITSymbolFlags::Exported};
  };
  add("malloc", reinterpret_cast<void *>(options.alloc));
  add("free", reinterpret_cast<void *>(options.free));
  for (const auto &[name, address] : options.symbols)
    add(name, address);
  if (llvm::Error error =
          library.define(llvm::orc::absoluteSymbols(std::move(symbols))))
    return std::move(error);

  for (auto [i, object] : llvm::enumerate(objects)) {
    auto buffer = llvm::MemoryBuffer::getMemBufferCopy(
        object, "amp-object-" + std::to_string(i));
    if (llvm::Error error = (*jit)->addObjectFile(std::move(buffer)))
      return std::move(error);
  }

  // Looking the entry up links every object, so missing symbols are
  // reported here rather than when constructors run.
  auto entry = (*jit)->lookup(getPackedEntryName(signature.name));
  if (!entry)
    return fail("cannot link @" + signature.name + ": " +
                llvm::toString(entry.takeError()));
  auto initialize = (*jit)->lookup(kInitializeFunction);
  auto finalize = (*jit)->lookup(kFinalizeFunction);
  if (!initialize || !finalize) {
    llvm::consumeError(initialize.takeError());
    llvm::consumeError(finalize.takeError());
    return fail("the compiled program has no " + kInitializeFunction + " or " +
                kFinalizeFunction);
  }
  // Runs the module's constructors, e.g. GPU module loading.
  initialize->toPtr<void (*)()>()();
  return std::unique_ptr<Executable>(new Executable(
      std::move(*jit), std::move(signature), options,
      entry->toPtr<void (*)(void **)>(), finalize->toPtr<void (*)()>()));
}

Executable::~Executable() {
  if (finalize)
    finalize();
}

void *Executable::allocate(uint64_t bytes) const {
  // Never zero bytes: an empty tensor still needs a distinct pointer.
  bytes = std::max<uint64_t>(bytes, 64);
  if (options.alloc)
    return options.alloc(bytes);
  return std::malloc(bytes);
}

void Executable::release(void *pointer) const {
  if (options.free)
    options.free(pointer);
  else
    std::free(pointer);
}

namespace {
/// Storage for the arguments of one call in the form the packed wrapper
/// reads them.
struct PackedArguments {
  /// One slot per scalar of the expanded signature (pointers, offsets,
  /// sizes, strides, scalar values); slots never move once filled.
  std::vector<uint64_t> slots;
  llvm::SmallVector<void *> pointers;
};

/// Size and alignment of a value of `spec` in the lowered signature.
struct Layout {
  size_t size, alignment;
};
} // namespace

static Layout getLayout(const ValueSpec &spec) {
  if (spec.isScalar) {
    size_t width = getElementByteWidth(spec.kind);
    return {width, width};
  }
  return {8 * (3 + 2 * spec.shape.size()), 8};
}

static size_t alignTo(size_t offset, size_t alignment) {
  return (offset + alignment - 1) / alignment * alignment;
}

/// Copies the memref described by `descriptor` (allocated, aligned, offset,
/// sizes, strides) into a dense HostTensor.
static HostTensor readMemRef(const ValueSpec &spec, const int64_t *descriptor) {
  size_t rank = spec.shape.size();
  llvm::ArrayRef<int64_t> sizes(descriptor + 3, rank);
  llvm::ArrayRef<int64_t> strides(descriptor + 3 + rank, rank);
  HostTensor tensor(spec.kind, sizes);
  unsigned width = getElementByteWidth(spec.kind);
  auto *base =
      reinterpret_cast<const uint8_t *>(descriptor[1]) + descriptor[2] * width;
  auto *out = static_cast<uint8_t *>(tensor.getData());
  int64_t count = tensor.getNumElements();
  if (count == 0)
    return tensor;
  // Dense row-major memrefs (what identity layouts give) are one copy.
  bool dense = true;
  for (int64_t i = rank - 1, expected = 1; i >= 0; --i) {
    if (sizes[i] != 1 && strides[i] != expected)
      dense = false;
    expected *= sizes[i];
  }
  if (dense) {
    std::memcpy(out, base, count * width);
    return tensor;
  }
  llvm::SmallVector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d)
      offset += index[d] * strides[d];
    std::memcpy(out + n * width, base + offset * width, width);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
  return tensor;
}

llvm::Expected<llvm::SmallVector<HostTensor>>
Executable::run(llvm::ArrayRef<HostTensor> inputs, unsigned repeat,
                llvm::SmallVectorImpl<double> &millis) {
  if (inputs.size() != signature.arguments.size())
    return fail("@" + signature.name + " takes " +
                llvm::Twine(signature.arguments.size()) + " arguments, got " +
                llvm::Twine(inputs.size()));

  // Input buffers, allocated where the device can use them.
  llvm::SmallVector<void *> buffers;
  llvm::DenseSet<uintptr_t> inputAllocations;
  llvm::scope_exit releaseInputs([&] {
    for (void *buffer : buffers)
      release(buffer);
  });

  size_t slotCount = 0;
  for (const ValueSpec &spec : signature.arguments)
    slotCount += spec.isScalar ? 1 : 3 + 2 * spec.shape.size();
  PackedArguments packed;
  packed.slots.assign(slotCount, 0);
  size_t next = 0;
  auto push = [&](uint64_t value) {
    packed.slots[next] = value;
    packed.pointers.push_back(&packed.slots[next++]);
  };
  for (auto [spec, input] : llvm::zip(signature.arguments, inputs)) {
    if (spec.isScalar) {
      uint64_t value = 0;
      std::memcpy(&value, input.getData(), input.getByteSize());
      push(value);
      continue;
    }
    void *buffer = allocate(input.getByteSize());
    buffers.push_back(buffer);
    inputAllocations.insert(reinterpret_cast<uintptr_t>(buffer));
    std::memcpy(buffer, input.getData(), input.getByteSize());
    push(reinterpret_cast<uintptr_t>(buffer));
    push(reinterpret_cast<uintptr_t>(buffer));
    push(0);
    for (int64_t size : input.getShape())
      push(size);
    int64_t stride = 1;
    llvm::SmallVector<int64_t> strides(input.getRank());
    for (int64_t d = input.getRank() - 1; d >= 0; --d) {
      strides[d] = stride;
      stride *= input.getShape()[d];
    }
    for (int64_t s : strides)
      push(s);
  }

  // The result: one value, or a struct of them with natural alignment.
  llvm::SmallVector<size_t> resultOffsets;
  size_t resultSize = 0;
  for (const ValueSpec &spec : signature.results) {
    Layout layout = getLayout(spec);
    resultSize = alignTo(resultSize, layout.alignment);
    resultOffsets.push_back(resultSize);
    resultSize += layout.size;
  }
  std::vector<uint64_t> resultStorage((resultSize + 7) / 8 + 1, 0);
  auto *resultBytes = reinterpret_cast<uint8_t *>(resultStorage.data());
  if (!signature.results.empty())
    packed.pointers.push_back(resultBytes);

  // Frees what the program allocated for its results (not the inputs it
  // may return, nor globals, nor a buffer returned twice).
  auto releaseResults = [&] {
    llvm::DenseSet<uintptr_t> released;
    for (auto [spec, offset] : llvm::zip(signature.results, resultOffsets)) {
      if (spec.isScalar)
        continue;
      uintptr_t allocated;
      std::memcpy(&allocated, resultBytes + offset, sizeof(allocated));
      if (!allocated || allocated == kGlobalAllocatedPointer ||
          inputAllocations.contains(allocated) ||
          !released.insert(allocated).second)
        continue;
      release(reinterpret_cast<void *>(allocated));
    }
  };

  auto calls = [&] {
    for (unsigned i = 0; i < std::max(repeat, 1u); ++i) {
      if (i)
        releaseResults();
      auto start = std::chrono::steady_clock::now();
      entry(packed.pointers.data());
      auto stop = std::chrono::steady_clock::now();
      millis.push_back(
          std::chrono::duration<double, std::milli>(stop - start).count());
    }
  };
  if (options.stackBytes) {
    llvm::thread worker(std::optional<unsigned>(options.stackBytes), calls);
    worker.join();
  } else {
    calls();
  }

  llvm::SmallVector<HostTensor> results;
  for (auto [spec, offset] : llvm::zip(signature.results, resultOffsets)) {
    if (spec.isScalar) {
      HostTensor scalar(spec.kind, {});
      std::memcpy(scalar.getData(), resultBytes + offset,
                  getElementByteWidth(spec.kind));
      results.push_back(std::move(scalar));
      continue;
    }
    int64_t descriptor[3 + 2 * 16];
    size_t fields = 3 + 2 * spec.shape.size();
    if (fields > std::size(descriptor))
      return fail("result ranks above 16 are not supported");
    std::memcpy(descriptor, resultBytes + offset, fields * 8);
    results.push_back(readMemRef(spec, descriptor));
  }
  releaseResults();
  return results;
}

//===- SharedLibrary.cpp - Compiled programs as C libraries ---------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/SharedLibrary.h"
#include "amp/Runner/Backend.h"
#include "amp/Runner/CompileCache.h"
#include "amp/Runner/Lowering.h"
#include "amp/Runner/ObjectCompiler.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir::amp::runtime;

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error
mlir::amp::runtime::checkLibrarySignature(const EntrySignature &signature) {
  auto check = [&](const ValueSpec &spec, llvm::StringRef role,
                   unsigned index) -> llvm::Error {
    if (spec.isScalar)
      return fail("@" + signature.name + " " + spec.describe(role, index) +
                  " is a scalar: a library's function takes and returns "
                  "tensors only");
    if (!spec.hasStaticShape())
      return fail("@" + signature.name + " " + spec.describe(role, index) +
                  " has a dynamic shape: a library's function takes and "
                  "returns tensors of static shapes");
    return llvm::Error::success();
  };
  for (auto [i, spec] : llvm::enumerate(signature.arguments))
    if (llvm::Error error = check(spec, "argument", i))
      return error;
  if (signature.results.empty())
    return fail("@" + signature.name + " returns nothing");
  for (auto [i, spec] : llvm::enumerate(signature.results))
    if (llvm::Error error = check(spec, "result", i))
      return error;
  return llvm::Error::success();
}

llvm::StringRef mlir::amp::runtime::getCElementType(ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
  case ElementKind::BF16:
    return "uint16_t";
  case ElementKind::F32:
    return "float";
  case ElementKind::F64:
    return "double";
  case ElementKind::I32:
    return "int32_t";
  case ElementKind::I64:
    return "int64_t";
  }
  llvm_unreachable("unknown element kind");
}

static std::string getShapeText(const ValueSpec &spec) {
  if (spec.shape.empty())
    return "scalar tensor";
  return llvm::join(
      llvm::map_range(spec.shape, [](int64_t d) { return std::to_string(d); }),
      "x");
}

/// The C declaration of `function`'s parameters.
static std::string getParameters(const EntrySignature &signature) {
  llvm::SmallVector<std::string> parameters;
  for (auto [i, spec] : llvm::enumerate(signature.arguments))
    parameters.push_back(llvm::formatv(
        "const {0} *arg{1} /* {2} {3} */", getCElementType(spec.kind), i,
        getShapeText(spec), getElementKindName(spec.kind)));
  for (auto [i, spec] : llvm::enumerate(signature.results))
    parameters.push_back(llvm::formatv(
        "{0} *result{1} /* {2} {3} */", getCElementType(spec.kind), i,
        getShapeText(spec), getElementKindName(spec.kind)));
  return llvm::join(parameters, ",\n    ");
}

/// What every library holds: the strided copy of a result, and the
/// descriptor layout.
static constexpr llvm::StringLiteral kPrelude = R"c(
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What finalize-memref-to-llvm stores as the allocated pointer of a
   buffer that is a global: owned by no one. */
#define AMP_GLOBAL_ALLOCATED ((uintptr_t)0xdeadbeef)

/* Copies a strided view (descriptor: allocated, aligned, offset, sizes,
   strides) densely into `out`. */
static void amp_copy_out(void *out, const int64_t *descriptor, int rank,
                         size_t width) {
  const int64_t *sizes = descriptor + 3, *strides = descriptor + 3 + rank;
  const char *base = (const char *)(uintptr_t)descriptor[1] +
                     descriptor[2] * (int64_t)width;
  int64_t count = 1, index[16] = {0};
  for (int d = 0; d < rank; ++d)
    count *= sizes[d];
  for (int64_t n = 0; n < count; ++n) {
    int64_t offset = 0;
    for (int d = 0; d < rank; ++d)
      offset += index[d] * strides[d];
    memcpy((char *)out + n * width, base + offset * width, width);
    for (int d = rank - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
}
)c";

/// MLIR's memrefCopy (the runner utils' ABI), for programs that call it.
static constexpr llvm::StringLiteral kMemrefCopy = R"c(
typedef struct { int64_t rank; void *descriptor; } amp_unranked_memref;

void memrefCopy(int64_t width, amp_unranked_memref *from,
                amp_unranked_memref *to) {
  int rank = (int)from->rank;
  const int64_t *source = (const int64_t *)from->descriptor;
  const int64_t *target = (const int64_t *)to->descriptor;
  const int64_t *sizes = source + 3;
  const int64_t *sourceStrides = source + 3 + rank;
  const int64_t *targetStrides = target + 3 + rank;
  const char *in = (const char *)(uintptr_t)source[1] + source[2] * width;
  char *out = (char *)(uintptr_t)target[1] + target[2] * width;
  int64_t count = 1, index[16] = {0};
  for (int d = 0; d < rank; ++d)
    count *= sizes[d];
  for (int64_t n = 0; n < count; ++n) {
    int64_t a = 0, b = 0;
    for (int d = 0; d < rank; ++d) {
      a += index[d] * sourceStrides[d];
      b += index[d] * targetStrides[d];
    }
    memcpy(out + b * width, in + a * width, (size_t)width);
    for (int d = rank - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
}
)c";

std::string
mlir::amp::runtime::emitLibrarySource(const EntrySignature &signature,
                                      llvm::StringRef function,
                                      llvm::StringRef packed, bool memrefCopy) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "/* Generated by amp-compile: the C entry of @" << signature.name
     << ". */\n"
     << kPrelude;
  if (memrefCopy)
    os << kMemrefCopy;
  os << "\nextern void " << packed << "(void **);\n\n";
  os << "__attribute__((visibility(\"default\")))\nint " << function
     << "(\n    " << getParameters(signature) << ") {\n";

  // Each argument's descriptor, one slot per scalar of the lowered
  // signature; then the storage of the results.
  size_t slots = 0;
  for (auto [i, spec] : llvm::enumerate(signature.arguments)) {
    size_t rank = spec.shape.size();
    os << llvm::formatv("  int64_t a{0}[{1}] = {{(int64_t)(uintptr_t)arg{0}, "
                        "(int64_t)(uintptr_t)arg{0}, 0",
                        i, 3 + 2 * rank);
    for (int64_t size : spec.shape)
      os << ", " << size;
    int64_t stride = 1;
    llvm::SmallVector<int64_t> strides(rank);
    for (int64_t d = rank - 1; d >= 0; --d) {
      strides[d] = stride;
      stride *= spec.shape[d];
    }
    for (int64_t s : strides)
      os << ", " << s;
    os << "};\n";
    slots += 3 + 2 * rank;
  }
  size_t resultWords = 0;
  for (const ValueSpec &spec : signature.results)
    resultWords += 3 + 2 * spec.shape.size();
  os << "  int64_t results[" << resultWords << "];\n";
  os << "  void *slots[" << slots + 1 << "];\n";
  size_t slot = 0;
  for (auto [i, spec] : llvm::enumerate(signature.arguments))
    for (size_t k = 0; k < 3 + 2 * spec.shape.size(); ++k)
      os << "  slots[" << slot++ << "] = &a" << i << "[" << k << "];\n";
  os << "  slots[" << slot << "] = results;\n";
  os << "  " << packed << "(slots);\n";

  // Results copied out; what the program allocated for them freed once
  // (not an argument, a global, or a buffer returned twice).
  size_t offset = 0;
  os << "  uintptr_t freed[" << signature.results.size() << "];\n";
  for (auto [i, spec] : llvm::enumerate(signature.results)) {
    size_t rank = spec.shape.size();
    os << llvm::formatv("  amp_copy_out(result{0}, results + {1}, {2}, {3});\n",
                        i, offset, rank, getElementByteWidth(spec.kind));
    os << "  {\n    uintptr_t allocated = (uintptr_t)results[" << offset
       << "];\n    int owned = allocated && allocated != AMP_GLOBAL_ALLOCATED";
    for (size_t a = 0; a < signature.arguments.size(); ++a)
      os << " &&\n        allocated != (uintptr_t)arg" << a;
    for (size_t r = 0; r < i; ++r)
      os << " &&\n        allocated != freed[" << r << "]";
    os << ";\n    freed[" << i << "] = allocated;\n"
       << "    if (owned)\n      free((void *)allocated);\n  }\n";
    offset += 3 + 2 * rank;
  }
  os << "  return 0;\n}\n";
  return text;
}

std::string
mlir::amp::runtime::emitLibraryHeader(const EntrySignature &signature,
                                      llvm::StringRef function,
                                      llvm::StringRef source) {
  std::string guard = "AMP_" + function.upper() + "_H";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "/* Generated by amp-compile from " << source << " (@" << signature.name
     << "). */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <stdint.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << "/* Runs @" << signature.name
     << " on dense row-major arguments, which it does not write, and fills\n"
        "   the results (the caller's storage, dense row-major). f16 and "
        "bf16\n   elements are their 16 bits. Returns 0. */\n"
     << "int " << function << "(\n    " << getParameters(signature)
     << ");\n\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
  return text;
}

llvm::Error mlir::amp::runtime::linkSharedLibrary(
    llvm::ArrayRef<std::string> objects, llvm::StringRef source,
    llvm::StringRef function, llvm::StringRef output,
    const LinkOptions &options) {
  auto compiler = llvm::sys::findProgramByName(options.compiler);
  if (!compiler)
    return fail("cannot find the C compiler '" + options.compiler +
                "' that links the library (set CC or --cc)");
  llvm::SmallString<128> directory;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("amp-compile", directory))
    return fail("cannot create a temporary folder: " + ec.message());
  auto write = [&](llvm::StringRef name,
                   llvm::StringRef contents) -> llvm::Expected<std::string> {
    llvm::SmallString<256> path(directory);
    llvm::sys::path::append(path, name);
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    if (ec)
      return fail("cannot write '" + path + "': " + ec.message());
    out << contents;
    return std::string(path);
  };
  llvm::SmallVector<std::string> files;
  llvm::scope_exit cleanup([&] {
    for (const std::string &file : files)
      (void)llvm::sys::fs::remove(file);
    (void)llvm::sys::fs::remove(directory);
  });
  auto add = [&](llvm::StringRef name,
                 llvm::StringRef contents) -> llvm::Error {
    auto path = write(name, contents);
    if (!path)
      return path.takeError();
    files.push_back(*path);
    return llvm::Error::success();
  };
  if (llvm::Error error = add("entry.c", source))
    return error;
  if (llvm::Error error = add("exports.map", "{ global: " + function.str() +
                                                 "; local: *; };\n"))
    return error;
  for (auto [i, object] : llvm::enumerate(objects))
    if (llvm::Error error = add("part" + std::to_string(i) + ".o", object))
      return error;

  llvm::SmallVector<std::string> arguments = {
      *compiler, "-shared", "-fPIC", "-O2", "-o", output.str(), files[0]};
  for (size_t i = 2; i < files.size(); ++i)
    arguments.push_back(files[i]);
  arguments.push_back("-Wl,--version-script=" + files[1]);
  arguments.push_back("-Wl,-z,noexecstack");
  if (!options.openmpDirectory.empty()) {
    arguments.push_back("-L" + options.openmpDirectory);
    arguments.push_back("-Wl,-rpath," + options.openmpDirectory);
    arguments.push_back("-lomp");
  }
  arguments.push_back("-lm");
  llvm::SmallVector<llvm::StringRef> argv(arguments.begin(), arguments.end());
  std::string message;
  llvm::SmallString<256> log(directory);
  llvm::sys::path::append(log, "link.log");
  files.push_back(std::string(log));
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log.str(),
                                                log.str()};
  int status = llvm::sys::ExecuteAndWait(*compiler, argv, std::nullopt,
                                         redirects, 0, 0, &message);
  if (status != 0) {
    auto text = llvm::MemoryBuffer::getFile(log);
    return fail("'" + llvm::join(argv, " ") + "' failed" +
                (message.empty() ? "" : ": " + message) + "\n" +
                (text ? (*text)->getBuffer() : ""));
  }
  return llvm::Error::success();
}

llvm::Expected<bool>
mlir::amp::runtime::objectsReference(llvm::ArrayRef<std::string> objects,
                                     llvm::StringRef symbol) {
  for (const std::string &object : objects) {
    auto file = llvm::object::ObjectFile::createObjectFile(
        llvm::MemoryBufferRef(object, "object"));
    if (!file)
      return file.takeError();
    for (const llvm::object::SymbolRef &entry : (*file)->symbols()) {
      auto flags = entry.getFlags();
      if (!flags)
        return flags.takeError();
      if (!(*flags & llvm::object::SymbolRef::SF_Undefined))
        continue;
      auto name = entry.getName();
      if (!name)
        return name.takeError();
      if (*name == symbol)
        return true;
    }
  }
  return false;
}

static bool isCIdentifier(llvm::StringRef name) {
  return !name.empty() && !llvm::isDigit(name.front()) &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

llvm::Error mlir::amp::runtime::compileSharedLibrary(
    ModuleOp module, llvm::StringRef output, const LibraryOptions &options) {
  if (options.optLevel > 3)
    return fail("-O must be 0, 1, 2 or 3, got " +
                llvm::Twine(options.optLevel));
  if (options.threads == 0 || options.threads > 1024)
    return fail("--threads must be in [1, 1024], got " +
                llvm::Twine(options.threads));
  if (!output.ends_with(".so"))
    return fail("-o names the shared library, a .so file; got '" + output +
                "'");
  std::string entry = options.entry;
  if (entry.empty()) {
    llvm::SmallVector<std::string> candidates;
    for (auto function : module.getOps<func::FuncOp>())
      if (function.isPublic() && !function.isDeclaration())
        candidates.push_back(function.getName().str());
    if (candidates.size() != 1)
      return fail("'" + options.sourceName + "' has " +
                  llvm::Twine(candidates.size()) +
                  " public functions; give the one to compile with "
                  "--entry=NAME");
    entry = candidates.front();
  }
  auto signature = readEntrySignature(module, entry);
  if (!signature)
    return signature.takeError();
  if (llvm::Error error = checkLibrarySignature(*signature))
    return error;
  std::string function =
      options.function.empty() ? "amp_" + entry : options.function;
  if (!isCIdentifier(function))
    return fail("--function must be a C identifier, got '" + function + "'");

  // The entry gets a name no C program uses (its own would often be
  // `main`); the library exports `function` only.
  prepareEntry(module, entry);
  Operation *func = SymbolTable::lookupSymbolIn(module, entry);
  std::string internal = "__amp_entry_" + function;
  MLIRContext *context = module.getContext();
  if (failed(SymbolTable::replaceAllSymbolUses(
          func, StringAttr::get(context, internal), module)))
    return fail("cannot rename @" + entry);
  SymbolTable::setSymbolName(func, internal);

  // The CPU pipeline as amp-run sets it for this host.
  BackendOptions backendOptions;
  backendOptions.cpuThreads = options.threads;
  backendOptions.cpuBF16Dot = hostBF16DotPays();
  backendOptions.cpuChip = llvm::sys::getHostCPUName().str();
  std::string pipeline = getPipeline(*lookupBackend("cpu"), backendOptions);
  ObjectCompileOptions compileOptions;
  compileOptions.optLevel = options.optLevel;
  compileOptions.entry = internal;
  compileOptions.explicitInitializers = false;

  // A program compiled before with the same pipeline, for the same CPU, by
  // the same build comes from the cache.
  auto warn = [&](const llvm::Twine &message) {
    if (options.warn)
      options.warn(message);
  };
  std::string key;
  std::optional<std::vector<std::string>> objects;
  std::optional<bool> memrefCopy;
  if (options.cache) {
    key = getProgramKey("amp-compile", module,
                        describeCompileTarget(compileOptions),
                        compileOptions.optLevel, pipeline, internal);
    objects = options.cache->lookup(key, warn);
    if (objects) {
      auto calls = objectsReference(*objects, "memrefCopy");
      if (calls) {
        memrefCopy = *calls;
      } else {
        warn("cannot read '" + options.cache->getPath(key) +
             "': " + llvm::toString(calls.takeError()) +
             "; it is removed and the program compiled again");
        options.cache->remove(key);
        objects.reset();
      }
    }
  }
  if (!objects) {
    if (failed(lowerModule(module, pipeline)))
      return fail("lowering '" + options.sourceName + "' with " + pipeline +
                  " failed");
    auto compiled = compileToObjects(module, compileOptions);
    if (!compiled)
      return compiled.takeError();
    objects = std::move(*compiled);
    auto calls = objectsReference(*objects, "memrefCopy");
    if (!calls)
      return calls.takeError();
    memrefCopy = *calls;
    if (options.cache)
      if (llvm::Error error = options.cache->store(key, *objects))
        warn("the compile cache is not updated: " +
             llvm::toString(std::move(error)));
  }

  LinkOptions link = options.link;
  if (options.threads > 1) {
    llvm::SmallString<256> openmp(AMP_MLIR_LIBRARY_DIR);
    llvm::sys::path::append(openmp, "libomp.so");
    if (!llvm::sys::fs::exists(openmp))
      return fail("--threads=" + llvm::Twine(options.threads) +
                  " needs the OpenMP runtime " + openmp +
                  " (Debian: libomp-22-dev)");
    link.openmpDirectory = AMP_MLIR_LIBRARY_DIR;
  }
  std::string source = emitLibrarySource(
      *signature, function, getPackedEntryName(internal), *memrefCopy);
  if (llvm::Error error =
          linkSharedLibrary(*objects, source, function, output, link))
    return error;

  if (!options.header.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream out(options.header, ec);
    if (ec)
      return fail("cannot write '" + options.header + "': " + ec.message());
    out << emitLibraryHeader(*signature, function,
                             llvm::sys::path::filename(options.sourceName));
  }
  return llvm::Error::success();
}

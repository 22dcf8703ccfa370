//===- Amp.cpp - C API for amp --------------------------------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The handles of amp-c/Amp.h over MLIR's C++ API: a context that collects
// diagnostics and mixed-precision reports, and modules parsed, transformed
// and printed in it.
//
//===----------------------------------------------------------------------===//

#include "amp-c/Amp.h"

#include "amp/Analysis/LowPrecisionWork.h"
#include "amp/Backend/CPU/CPUTarget.h"
#include "amp/InitAll.h"
#include "amp/Pipelines/Backends.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Runner/CompileCache.h"
#include "amp/Runner/SharedLibrary.h"
#include "amp/Support/TextNesting.h"
#include "amp/Target/TargetNames.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace mlir;

#ifndef AMP_VERSION
#define AMP_VERSION "0.1.0"
#endif

namespace {

struct CollectedDiagnostic {
  AmpSeverity severity;
  std::string location;
  std::string message;
};

} // namespace

struct AmpContextImpl {
  MLIRContext context;
  DiagnosticEngine::HandlerID handler;
  // Diagnostics come from whichever thread runs a pass; the diagnostic engine
  // serialises its handlers, and reports are appended under `reportMutex`.
  std::vector<CollectedDiagnostic> diagnostics;
  std::mutex reportMutex;
  std::vector<std::string> reports;

  explicit AmpContextImpl(const DialectRegistry &registry)
      : context(registry) {}
};

struct AmpModuleImpl {
  AmpContextImpl *owner;
  OwningOpRef<ModuleOp> module;
};

namespace {

/// Registers the passes and pipelines of amp-opt in the process-wide
/// registry (once: registering a pipeline twice is a fatal error) and builds
/// the dialect registry every context starts from.
const DialectRegistry &getAmpRegistry() {
  static const DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    amp::registerEverything(*r);
    return r;
  }();
  return *registry;
}

AmpSeverity toAmpSeverity(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return AmpSeverityError;
  case DiagnosticSeverity::Warning:
    return AmpSeverityWarning;
  case DiagnosticSeverity::Note:
    return AmpSeverityNote;
  case DiagnosticSeverity::Remark:
    return AmpSeverityRemark;
  }
  return AmpSeverityError;
}

/// "file:line:col" of the first file location inside `loc` (through names,
/// call sites and fusions; "file" for line 0), the printed location when
/// there is none, "" when unknown.
std::string locationString(Location loc) {
  if (isa<UnknownLoc>(loc))
    return "";
  FileLineColLoc fileLoc;
  loc->walk([&](Location nested) {
    fileLoc = dyn_cast<FileLineColLoc>(nested);
    return fileLoc ? WalkResult::interrupt() : WalkResult::advance();
  });
  std::string s;
  llvm::raw_string_ostream os(s);
  // Line 0 is the whole source (the module that parsing wraps around it).
  if (fileLoc && fileLoc.getLine() == 0)
    os << fileLoc.getFilename().getValue();
  else if (fileLoc)
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
  else
    loc.print(os);
  return s;
}

void collect(AmpContextImpl &ctx, Diagnostic &diag) {
  ctx.diagnostics.push_back({toAmpSeverity(diag.getSeverity()),
                             locationString(diag.getLocation()), diag.str()});
  for (Diagnostic &note : diag.getNotes())
    collect(ctx, note);
}

bool hasError(const AmpContextImpl &ctx, size_t since) {
  for (size_t i = since, e = ctx.diagnostics.size(); i < e; ++i)
    if (ctx.diagnostics[i].severity == AmpSeverityError)
      return true;
  return false;
}

/// The pipeline parser's messages on one line: its source excerpt and caret
/// become "at column N", and the options parser's lines are joined.
std::string tidyPipelineErrors(StringRef text) {
  SmallVector<StringRef> lines;
  text.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::string tidy;
  llvm::raw_string_ostream os(tidy);
  for (size_t i = 0, e = lines.size(); i < e; ++i) {
    StringRef line = lines[i].trim();
    if (line.empty())
      continue;
    if (!tidy.empty())
      os << "; ";
    // "MLIR Textual PassPipeline Parser:1:17: error: msg", then the
    // pipeline and a caret under column 17.
    if (line.consume_front("MLIR Textual PassPipeline Parser:")) {
      auto [lineNo, rest] = line.split(':');
      auto [column, message] = rest.split(':');
      message = message.trim();
      message.consume_front("error:");
      os << message.trim() << " (at column " << column << ")";
      if (i + 2 < e && lines[i + 2].trim().starts_with("^"))
        i += 2;
      continue;
    }
    line.consume_front("<Pass-Options-Parser>:");
    os << line.trim();
  }
  return tidy;
}

char *copyString(StringRef s) {
  char *copy = static_cast<char *>(std::malloc(s.size() + 1));
  if (!copy)
    return nullptr;
  std::memcpy(copy, s.data(), s.size());
  copy[s.size()] = '\0';
  return copy;
}

} // namespace

//===----------------------------------------------------------------------===//
// Library
//===----------------------------------------------------------------------===//

const char *ampGetVersion(void) {
  return "amp " AMP_VERSION " (MLIR " LLVM_VERSION_STRING ")";
}

void ampFree(void *ptr) { std::free(ptr); }

//===----------------------------------------------------------------------===//
// Context
//===----------------------------------------------------------------------===//

AmpContext ampContextCreate(void) {
  auto *ctx = new AmpContextImpl(getAmpRegistry());
  MLIRContext &context = ctx->context;
  // An error on an op must not drag the whole op into the message.
  context.printOpOnDiagnostic(false);
  ctx->handler = context.getDiagEngine().registerHandler([ctx](Diagnostic &d) {
    collect(*ctx, d);
    return success();
  });
  auto *amp = context.getOrLoadDialect<amp::AmpDialect>();
  amp->setReportHandler([ctx](StringRef json) {
    std::lock_guard<std::mutex> lock(ctx->reportMutex);
    ctx->reports.push_back(json.str());
  });
  return ctx;
}

void ampContextDestroy(AmpContext context) {
  if (!context)
    return;
  context->context.getDiagEngine().eraseHandler(context->handler);
  delete context;
}

void ampContextEnableMultithreading(AmpContext context, bool enable) {
  context->context.enableMultithreading(enable);
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

AmpDiagnostic *ampContextTakeDiagnostics(AmpContext context, size_t *count) {
  std::vector<CollectedDiagnostic> taken;
  taken.swap(context->diagnostics);
  *count = 0;
  if (taken.empty())
    return nullptr;
  auto *array = static_cast<AmpDiagnostic *>(
      std::calloc(taken.size(), sizeof(AmpDiagnostic)));
  if (!array)
    return nullptr;
  for (size_t i = 0, e = taken.size(); i < e; ++i) {
    array[i].severity = taken[i].severity;
    array[i].location = copyString(taken[i].location);
    array[i].message = copyString(taken[i].message);
  }
  *count = taken.size();
  return array;
}

void ampDiagnosticsDestroy(AmpDiagnostic *diagnostics, size_t count) {
  if (!diagnostics)
    return;
  for (size_t i = 0; i < count; ++i) {
    std::free(const_cast<char *>(diagnostics[i].location));
    std::free(const_cast<char *>(diagnostics[i].message));
  }
  std::free(diagnostics);
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

AmpModule ampModuleParse(AmpContext context, const char *text, size_t length,
                         const char *sourceName) {
  size_t before = context->diagnostics.size();
  StringRef name = sourceName ? StringRef(sourceName) : StringRef("<input>");
  if (failed(amp::checkTextNesting(StringRef(text, length), name,
                                   &context->context)))
    return nullptr;
  ParserConfig config(&context->context);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(StringRef(text, length), config, name);
  if (!module) {
    if (!hasError(*context, before))
      emitError(UnknownLoc::get(&context->context),
                "the input is not a valid MLIR module");
    return nullptr;
  }
  return new AmpModuleImpl{context, std::move(module)};
}

void ampModuleDestroy(AmpModule module) { delete module; }

char *ampModulePrint(AmpModule module, unsigned flags, size_t *length) {
  OpPrintingFlags printing;
  if (flags & AmpPrintDebugInfo)
    printing.enableDebugInfo();
  if (flags & AmpPrintGenericForm)
    printing.printGenericOpForm();
  std::string text;
  llvm::raw_string_ostream os(text);
  module->module->print(os, printing);
  if (length)
    *length = text.size();
  return copyString(text);
}

char *ampModuleDescribeLowPrecisionWorkOnHost(AmpModule module) {
  MLIRContext *context = &module->owner->context;
  context->getOrLoadDialect<LLVM::LLVMDialect>();
  std::string cpu = ("this CPU (" + llvm::sys::getHostCPUName() + ")").str();
  std::optional<std::string> note = amp::describeLowPrecisionWorkWithoutUnits(
      *module->module, amp::getHostCPUTarget(context), cpu,
      "mixed-precision{target=cpu}");
  return note ? copyString(*note) : nullptr;
}

bool ampModuleRunPipeline(AmpModule module, const char *pipeline) {
  AmpContextImpl &ctx = *module->owner;
  MLIRContext *context = &ctx.context;
  {
    std::lock_guard<std::mutex> lock(ctx.reportMutex);
    ctx.reports.clear();
  }
  size_t before = ctx.diagnostics.size();
  Location unknown = UnknownLoc::get(context);

  std::string parseErrors;
  llvm::raw_string_ostream errorStream(parseErrors);
  // A bad value of one of amp's pipelines' options is said here, not on
  // stderr.
  amp::OptionMessages badValues;
  FailureOr<OpPassManager> parsed = parsePassPipeline(pipeline, errorStream);
  if (failed(parsed)) {
    std::string message = tidyPipelineErrors(parseErrors);
    for (const std::string &bad : badValues.get())
      message = bad + (message.empty() ? "" : "; ") + message;
    emitError(unknown) << "invalid pass pipeline '" << pipeline << "'"
                       << (message.empty() ? "" : ": ") << message;
    return false;
  }
  StringRef anchor = parsed->getOpAnchorName();
  if (anchor != ModuleOp::getOperationName() &&
      anchor != OpPassManager::getAnyOpAnchorName()) {
    emitError(unknown) << "pass pipeline '" << pipeline << "' is anchored on '"
                       << anchor << "'; a module needs 'builtin.module(...)'";
    return false;
  }

  PassManager pm(context, anchor);
  static_cast<OpPassManager &>(pm) = std::move(*parsed);
  if (succeeded(pm.run(*module->module)))
    return true;
  if (!hasError(ctx, before))
    emitError(unknown) << "pass pipeline '" << pipeline << "' failed";
  return false;
}

bool ampModuleCompileLibrary(AmpModule module, const char *entry,
                             const char *function, const char *output,
                             const char *header, unsigned threads,
                             unsigned optLevel, const char *compiler) {
  AmpContextImpl &ctx = *module->owner;
  Location unknown = UnknownLoc::get(&ctx.context);
  if (!output) {
    emitError(unknown) << "amp-compile: no output library given";
    return false;
  }
  amp::runtime::LibraryOptions options;
  options.entry = entry ? entry : "";
  options.function = function ? function : "";
  options.header = header ? header : "";
  options.threads = threads;
  options.optLevel = optLevel;
  if (compiler && *compiler)
    options.link.compiler = compiler;
  else if (const char *cc = std::getenv("CC"); cc && *cc)
    options.link.compiler = cc;
  // The compile cache amp-run and amp-compile share, as the environment
  // sets it up.
  // (A bad AMP_CACHE_MAX_SIZE is a warning: the library is made without.)
  auto cache = amp::runtime::CompileCache::openDefault();
  std::optional<amp::runtime::CompileCache> opened;
  if (cache)
    opened = std::move(*cache);
  else
    emitWarning(unknown) << "amp-compile: " << llvm::toString(cache.takeError())
                         << "; the compile cache is not used";
  options.cache = opened ? &*opened : nullptr;
  options.warn = [&](const llvm::Twine &message) {
    emitWarning(unknown) << "amp-compile: " << message;
  };
  // A copy is lowered; the caller's module stays as it was.
  OwningOpRef<ModuleOp> copy(module->module->clone());
  if (llvm::Error error =
          amp::runtime::compileSharedLibrary(*copy, output, options)) {
    emitError(unknown) << "amp-compile: " << llvm::toString(std::move(error));
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Backends and targets
//===----------------------------------------------------------------------===//

char *ampGetBackendNames(void) {
  std::string names;
  for (const amp::BackendInfo &backend : amp::getBackends())
    names += (names.empty() ? "" : ",") + backend.name.str();
  return copyString(names);
}

char *ampGetBackendPipeline(const char *backend, const char *options,
                            char **error) {
  if (error)
    *error = nullptr;
  llvm::Expected<std::string> pipeline =
      amp::getBackendPipeline(backend ? backend : "", options ? options : "");
  if (pipeline)
    return copyString(*pipeline);
  std::string message = llvm::toString(pipeline.takeError());
  if (error)
    *error = copyString(message);
  return nullptr;
}

char *ampGetBackendOptions(const char *backend) {
  llvm::Expected<std::string> options =
      amp::describeBackendOptions(backend ? backend : "");
  if (options)
    return copyString(*options);
  llvm::consumeError(options.takeError());
  return nullptr;
}

char *ampCheckTargetName(const char *name) {
  if (name && amp::parseTargetName(name))
    return nullptr;
  return copyString(amp::describeUnsupportedTarget(name ? name : ""));
}

//===----------------------------------------------------------------------===//
// mixed-precision reports
//===----------------------------------------------------------------------===//

size_t ampContextGetNumReports(AmpContext context) {
  std::lock_guard<std::mutex> lock(context->reportMutex);
  return context->reports.size();
}

char *ampContextGetReport(AmpContext context, size_t index) {
  std::lock_guard<std::mutex> lock(context->reportMutex);
  if (index >= context->reports.size())
    return nullptr;
  return copyString(context->reports[index]);
}

//===- Backends.cpp - The names of amp's backends, defined once -----------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Pipelines/Backends.h"
#include "amp/Pipelines/Pipelines.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace mlir;

static const amp::BackendInfo kBackends[] = {
    {"cpu", "amp-lower-to-llvm", "the host's CPU, through LLVM", true},
    {"vulkan", "amp-lower-to-vulkan",
     "Vulkan compute (SPIR-V kernels, LLVM host code for amp's Vulkan "
     "runtime)",
     true},
    {"cuda", "amp-lower-to-nvvm", "NVIDIA GPUs (NVVM, PTX, cubin)", true},
    {"spirv", "amp-lower-to-spirv", "the SPIR-V kernels alone", false},
};

static llvm::Error fail(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

ArrayRef<amp::BackendInfo> amp::getBackends() { return kBackends; }

const amp::BackendInfo *amp::lookupBackend(StringRef name) {
  for (const BackendInfo &backend : kBackends)
    if (backend.name == name)
      return &backend;
  return nullptr;
}

std::string amp::describeUnknownBackend(StringRef name) {
  return ("unknown backend '" + name + "'; expected " + getBackendNamesHelp() +
          " (sm_<N> is cuda for that chip)")
      .str();
}

std::string amp::getBackendNamesHelp(bool runnable) {
  SmallVector<std::string> names;
  for (const BackendInfo &backend : kBackends)
    if (backend.runnable || !runnable)
      names.push_back(backend.name.str());
  std::string text = llvm::join(ArrayRef(names).drop_back(), ", ");
  return text + " or " + names.back();
}

/// A CUDA chip, sm_<N> with an optional a/f suffix.
static bool isCudaChip(StringRef name) {
  static const llvm::Regex chip("^sm_[0-9]+[af]?$");
  return chip.match(name);
}

llvm::Expected<std::string> amp::getBackendPipeline(StringRef name,
                                                    StringRef options) {
  std::string text = options.trim().str();
  if (isCudaChip(name)) {
    text = ("chip=" + name + (text.empty() ? "" : " ") + text).str();
    name = "cuda";
  }
  const BackendInfo *backend = lookupBackend(name);
  if (!backend)
    return fail(describeUnknownBackend(name));
  // The options parsed as the pipeline parses them, its messages kept.
  std::string message;
  llvm::raw_string_ostream errors(message);
  OptionMessages badValues;
  LogicalResult parsed = success();
  if (backend->name == "cpu") {
    LowerToLLVMOptions parsedOptions;
    parsed = parsedOptions.parseFromString(text, errors);
  } else if (backend->name == "cuda") {
    LowerToNVVMOptions parsedOptions;
    parsed = parsedOptions.parseFromString(text, errors);
    if (succeeded(parsed))
      parsed = verifyLowerToNVVMOptions(parsedOptions, [&](const Twine &error) {
        errors << error;
        return failure();
      });
  } else {
    LowerToSPIRVOptions parsedOptions;
    parsed = parsedOptions.parseFromString(text, errors);
  }
  if (failed(parsed)) {
    // A bad value's message, else the parser's, one per line, with their
    // prefixes.
    SmallVector<StringRef> lines;
    StringRef(message).split(lines, '\n', -1, /*KeepEmpty=*/false);
    SmallVector<std::string> tidy(badValues.get());
    if (!tidy.empty())
      lines.clear();
    for (StringRef line : lines) {
      line = line.trim();
      line.consume_front("<unknown>:0: error: ");
      line.consume_front("<Pass-Options-Parser>: ");
      line = line.trim();
      line.consume_front(backend->pipeline.str() + ": ");
      if (!line.empty())
        tidy.push_back(line.str());
    }
    return fail(backend->pipeline + ": " +
                (tidy.empty() ? "invalid options '" + text + "'"
                              : llvm::join(tidy, "; ")));
  }
  std::string pipeline = backend->pipeline.str();
  if (!text.empty())
    pipeline += "{" + text + "}";
  return pipeline;
}

llvm::Expected<std::string> amp::describeBackendOptions(StringRef name) {
  const BackendInfo *backend = lookupBackend(name);
  if (!backend)
    return fail(describeUnknownBackend(name));
  std::string text;
  llvm::raw_string_ostream os(text);
  if (name == "cpu")
    LowerToLLVMOptions().print(os);
  else if (name == "cuda")
    LowerToNVVMOptions().print(os);
  else
    LowerToSPIRVOptions().print(os);
  return text;
}

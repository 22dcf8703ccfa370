//===- Pipelines.cpp - amp's lowering pipelines, registered
//-----------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pipelines are built where their backends live
// (lib/Backend/{CPU,GPU,SPIRV}/Pipeline.cpp) from the parts they share
// (lib/Pipelines/Common.cpp); this file registers them by name.
//
//===----------------------------------------------------------------------===//

#include "amp/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::amp;

static thread_local OptionMessages *innermostMessages = nullptr;

OptionMessages::OptionMessages() : outer(innermostMessages) {
  innermostMessages = this;
}

OptionMessages::~OptionMessages() { innermostMessages = outer; }

void OptionMessages::report(llvm::cl::Option &option, const Twine &message) {
  if (innermostMessages)
    innermostMessages->messages.push_back(
        ("option " + option.ArgStr + ": " + message).str());
  else
    option.error(message);
}

void amp::reportBadEnumValue(llvm::cl::Option &option,
                             ArrayRef<StringRef> names, StringRef arg) {
  std::string expected;
  for (auto [i, name] : llvm::enumerate(names))
    expected += (i == 0                  ? ""
                 : i + 1 == names.size() ? " or "
                                         : ", ") +
                name.str();
  OptionMessages::report(option,
                         "expected " + expected + ", got '" + arg + "'");
}

template <>
bool amp::CheckedOptionParser<int64_t>::parse(llvm::cl::Option &option,
                                              StringRef, StringRef arg,
                                              int64_t &value) {
  if (!arg.getAsInteger(0, value))
    return false;
  OptionMessages::report(option, "expected an integer, got '" + arg + "'");
  return true;
}

template <>
bool amp::CheckedOptionParser<bool>::parse(llvm::cl::Option &option, StringRef,
                                           StringRef arg, bool &value) {
  // What llvm::cl takes for a boolean (no value: true).
  if (llvm::is_contained({"", "true", "TRUE", "True", "1"}, arg)) {
    value = true;
    return false;
  }
  if (llvm::is_contained({"false", "FALSE", "False", "0"}, arg)) {
    value = false;
    return false;
  }
  OptionMessages::report(option, "expected true or false, got '" + arg + "'");
  return true;
}

/// Registers a pipeline whose options are checked by `verify` after
/// parsing: bad options fail the pipeline with verify's message.
template <typename Options>
static void registerVerifiedPipeline(
    StringRef name, StringRef description,
    LogicalResult (*verify)(const Options &,
                            function_ref<LogicalResult(const Twine &)>),
    void (*build)(OpPassManager &, const Options &)) {
  registerPassPipeline(
      name, description,
      [verify, build](OpPassManager &pm, StringRef text,
                      function_ref<LogicalResult(const Twine &)> emitError) {
        Options options;
        if (failed(options.parseFromString(text)) ||
            failed(verify(options, emitError)))
          return failure();
        build(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(Options());
      });
}

void mlir::amp::registerAmpPipelines() {
  PassPipelineRegistration<>(
      "amp-fuse-kernels",
      "Tensor-level kernels for amp's lowerings: branches lifted to scf, "
      "elementwise ops to linalg, "
      "aggregates decomposed, casts fused into their producers or consumers",
      buildAmpFuseKernelsPipeline);
  // A CPU LLVM does not know fails the pipeline.
  registerVerifiedPipeline<LowerToLLVMOptions>(
      "amp-lower-to-llvm",
      "Lower mixed-precision output to the LLVM dialect for the CPU",
      verifyLowerToLLVMOptions, buildAmpLowerToLLVMPipeline);
  PassPipelineRegistration<LowerToSPIRVOptions>(
      "amp-lower-to-spirv",
      "Lower mixed-precision output to Vulkan compute kernels (SPIR-V)",
      [](OpPassManager &pm, const LowerToSPIRVOptions &options) {
        buildAmpLowerToSPIRVPipeline(pm, options);
      });
  PassPipelineRegistration<LowerToSPIRVOptions>(
      "amp-lower-to-vulkan",
      "Lower mixed-precision output to SPIR-V kernels in gpu.binary ops and "
      "LLVM host code that launches them through amp's Vulkan runtime "
      "(libamp_vulkan_runtime)",
      [](OpPassManager &pm, const LowerToSPIRVOptions &options) {
        buildAmpLowerToVulkanPipeline(pm, options);
      });
  // Bad options fail the pipeline instead of reaching the NVVM target with
  // a warning.
  registerVerifiedPipeline<LowerToNVVMOptions>(
      "amp-lower-to-nvvm",
      "Lower mixed-precision output to NVIDIA GPU kernels (NVVM, PTX, cubin)",
      verifyLowerToNVVMOptions, buildAmpLowerToNVVMPipeline);
}

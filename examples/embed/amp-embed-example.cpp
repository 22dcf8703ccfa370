//===- amp-embed-example.cpp - amp inside another MLIR tool ---------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What a pipeline of its own needs from an installed amp (docs/Embedding.md):
// amp's op models on its own DialectRegistry, the precision analysis run on
// its own (who runs in which precision, and why), the mixed-precision pass
// with options set from C++ in its own PassManager, amp's CPU lowering, and
// amp's Runner library to JIT the f32 and the converted programs on the same
// inputs and compare them.
//
//   amp-embed-example model.mlir [f16|bf16]
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/PrecisionAssignment.h"
#include "amp/Dialect/Amp/Amp.h"
#include "amp/Interfaces/ExternalModels.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Runner/Comparison.h"
#include "amp/Runner/EntrySignature.h"
#include "amp/Runner/Executable.h"
#include "amp/Runner/Lowering.h"
#include "amp/Runner/RandomInputs.h"
#include "amp/Transforms/CastFolding.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace rt = mlir::amp::runtime;

/// Prints `message` and returns the tool's failure status.
static int fail(const llvm::Twine &message) {
  llvm::errs() << "amp-embed-example: " << message << "\n";
  return 1;
}

/// Lowers `module` (tensors, after prepareEntry) with the passes `pm` already
/// holds followed by amp's CPU pipeline, JIT-compiles it and calls the entry.
static llvm::Expected<llvm::SmallVector<rt::HostTensor>>
lowerAndRun(ModuleOp module, PassManager &pm,
            const rt::EntrySignature &signature,
            llvm::ArrayRef<rt::HostTensor> inputs) {
  amp::buildAmpLowerToLLVMPipeline(pm);
  if (failed(pm.run(module)))
    return llvm::createStringError("lowering @" + signature.name + " failed");

  rt::ExecutableOptions options;
  for (llvm::StringRef name :
       {"libmlir_c_runner_utils.so", "libmlir_runner_utils.so"}) {
    llvm::SmallString<256> path(AMP_EMBED_MLIR_LIBRARY_DIR);
    llvm::sys::path::append(path, name);
    if (llvm::sys::fs::exists(path))
      options.sharedLibraries.push_back(std::string(path));
  }
  auto executable = rt::Executable::create(module, signature, options);
  if (!executable)
    return executable.takeError();
  llvm::SmallVector<double> millis;
  return (*executable)->run(inputs, /*repeat=*/1, millis);
}

static void printRow(llvm::StringRef label, const rt::HostTensor &tensor) {
  llvm::outs() << label << ":";
  int64_t columns = tensor.getShape().empty() ? 1 : tensor.getShape().back();
  for (int64_t i = 0; i < std::min<int64_t>(columns, 5); ++i)
    llvm::outs() << llvm::format(" %.4f", tensor.getAsDouble(i));
  llvm::outs() << " ...\n";
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3)
    return fail("usage: amp-embed-example model.mlir [f16|bf16]");
  llvm::StringRef precisionName = argc == 3 ? argv[2] : "bf16";
  if (precisionName != "f16" && precisionName != "bf16")
    return fail("precision must be f16 or bf16, not '" + precisionName + "'");
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();

  // 1. The registry: MLIR's dialects and their extensions (bufferization and
  //    LLVM lowering interfaces, which amp's CPU pipeline needs), then amp's
  //    dialect, its op models (AmpOpInterface for arith, math, linalg, tensor,
  //    tosa, scf, func, cf) and cast folding as part of --canonicalize.
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<amp::AmpDialect>();
  amp::registerAllExternalModels(registry);
  amp::registerCastFoldingCanonicalization(registry);
  MLIRContext context(registry);

  OwningOpRef<ModuleOp> f32Program =
      parseSourceFile<ModuleOp>(argv[1], &context);
  if (!f32Program)
    return fail(llvm::Twine("cannot parse ") + argv[1]);
  auto entry = *f32Program->getOps<func::FuncOp>().begin();
  if (!entry)
    return fail("the program has no function");
  rt::prepareEntry(*f32Program, entry.getSymName());
  auto signature = rt::readEntrySignature(*f32Program, entry.getSymName());
  if (!signature)
    return fail(llvm::toString(signature.takeError()));

  // 2. The analysis alone: the decisions the pass would act on, each with
  //    its source and reason. It changes nothing.
  amp::AssignmentOptions analysisOptions;
  analysisOptions.lowType = precisionName == "f16"
                                ? FloatType(Float16Type::get(&context))
                                : FloatType(BFloat16Type::get(&context));
  FailureOr<amp::PrecisionAssignment> assignment =
      amp::PrecisionAssignment::analyze(*f32Program, analysisOptions,
                                        /*changeSignatures=*/true);
  if (failed(assignment))
    return fail("the precision analysis failed");
  llvm::outs() << "decisions (" << precisionName << "):\n";
  for (auto [op, decision] :
       llvm::zip(assignment->getOps(), assignment->getDecisions())) {
    if (decision.mode == amp::ComputeMode::Untouched ||
        decision.mode == amp::ComputeMode::Carrier)
      continue;
    llvm::outs() << "  " << op->getName() << ": "
                 << amp::stringifyComputeMode(decision.mode) << " ("
                 << decision.source << ": " << decision.reason << ")\n";
  }

  // 3. The same inputs for both programs (amp-run's seeded generator).
  llvm::SmallVector<rt::HostTensor> inputs;
  for (unsigned i = 0, e = signature->arguments.size(); i < e; ++i) {
    auto input = rt::generateArgument(*signature, i, /*seed=*/1);
    if (!input)
      return fail(llvm::toString(input.takeError()));
    inputs.push_back(std::move(*input));
  }

  // 4. The converted program: canonicalize, mixed-precision with options
  //    set from C++, then (in lowerAndRun) amp's CPU pipeline.
  OwningOpRef<ModuleOp> converted = f32Program->clone();
  PassManager pm(&context);
  pm.addPass(createCanonicalizerPass());
  amp::MixedPrecisionOptions options;
  options.precision =
      precisionName == "f16" ? amp::LowPrecision::F16 : amp::LowPrecision::BF16;
  options.placement = amp::Placement::Optimal;
  options.keepIOTypes = true; // callers keep passing f32
  pm.addPass(amp::createMixedPrecision(options));
  auto low = lowerAndRun(*converted, pm, *signature, inputs);
  if (!low)
    return fail(llvm::toString(low.takeError()));

  // 5. The f32 original through the same lowering, as the reference.
  PassManager referencePm(&context);
  auto reference = lowerAndRun(*f32Program, referencePm, *signature, inputs);
  if (!reference)
    return fail(llvm::toString(reference.takeError()));

  const double rtol = 2e-2, atol = 1e-2;
  auto stats =
      rt::compareWithReference(low->front(), reference->front(), rtol, atol);
  if (!stats)
    return fail(llvm::toString(stats.takeError()));
  printRow("f32 row 0", reference->front());
  printRow((precisionName + " row 0").str(), low->front());
  llvm::outs() << "result " << low->front().getTypeString() << ": max abs "
               << llvm::format("%.2g", stats->maxAbsError) << ", "
               << stats->outOfTolerance << " of " << stats->count
               << " elements outside rtol="
               << llvm::format("%g atol=%g", rtol, atol) << "\n";
  return stats->outOfTolerance == 0 ? 0 : 1;
}

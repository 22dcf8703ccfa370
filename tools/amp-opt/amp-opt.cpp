//===- amp-opt.cpp - mlir-opt with amp added --------------------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/InitAll.h"
#include "amp/Support/TextNesting.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::amp::test {
void registerTestPasses();
} // namespace mlir::amp::test

using namespace mlir;

/// Rejects input nested deeper than amp reads, before the parser would
/// overflow the stack on it.
static LogicalResult checkInputNesting(const llvm::MemoryBuffer &input) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(input.getMemBufferRef(),
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  MLIRContext context(MLIRContext::Threading::DISABLED);
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  return amp::checkTextNesting(input.getBuffer(), input.getBufferIdentifier(),
                               &context);
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  DialectRegistry registry;
  amp::registerEverything(registry);
  amp::test::registerTestPasses();

  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "amp: automatic mixed precision for MLIR\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  // Listing dialects or passes reads no input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << "amp-opt: " << errorMessage << "\n";
    return 1;
  }
  if (failed(checkInputNesting(*input)))
    return 1;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << "amp-opt: " << errorMessage << "\n";
    return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  // The output file is kept only when everything succeeded: a failing run
  // leaves no partial file behind.
  output->keep();
  return 0;
}

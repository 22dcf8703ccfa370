//===- ConvertBF16MMAToNVVM.cpp - bf16 nvgpu.mma.sync to NVVM -------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/GPU/Passes.h"
#include "amp/Backend/GPU/TensorCoreContractions.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_CONVERTBF16MMATONVVM
#include "amp/Backend/GPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
struct ConvertBF16MMAToNVVM
    : amp::impl::ConvertBF16MMAToNVVMBase<ConvertBF16MMAToNVVM> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    amp::populateBF16MMAToNVVMPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

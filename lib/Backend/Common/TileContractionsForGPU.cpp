//===- TileContractionsForGPU.cpp - Contractions as tiled GPU kernels -----===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/GPUContractionStrategy.h"
#include "amp/Backend/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_TILECONTRACTIONSFORGPU
#include "amp/Backend/Common/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
struct TileContractionsForGPU
    : amp::impl::TileContractionsForGPUBase<TileContractionsForGPU> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    if (minWorkgroups < 1)
      return emitError(UnknownLoc::get(context))
             << "amp-tile-contractions-for-gpu: min-workgroups must be at "
                "least 1, got "
             << static_cast<int64_t>(minWorkgroups);
    return success();
  }

  void runOnOperation() override {
    SmallVector<Operation *> candidates;
    getOperation()->walk([&](linalg::LinalgOp op) {
      // Ops already inside a kernel are left alone.
      if (!op->getParentOfType<gpu::LaunchOp>() &&
          succeeded(amp::matchGPUContraction(op)))
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *candidate : candidates) {
      // Matched again as the IR is now: an earlier kernel may have taken
      // the op computing this one's input as its epilogue.
      FailureOr<amp::GPUContraction> matched =
          amp::matchGPUContraction(candidate);
      if (failed(matched))
        continue;
      const amp::GPUContraction &c = *matched;
      amp::GPUContractionConfig config =
          amp::chooseGPUContractionConfig(c, minWorkgroups);
      Attribute attr = c.op->getAttr(amp::kLoweringConfigAttrName);
      // What the strategy cannot tile by itself (a grid past the limits)
      // stays with the loop lowering; a configuration the user gave must
      // work.
      if (!attr && amp::checkGPUContractionConfig(c, config))
        continue;
      if (attr) {
        std::string error;
        std::optional<amp::GPUContractionConfig> given =
            amp::GPUContractionConfig::fromAttr(attr, error);
        if (!given) {
          c.op->emitError() << amp::kLoweringConfigAttrName << ": " << error;
          return signalPassFailure();
        }
        config = *given;
      }
      if (std::optional<std::string> why =
              amp::checkGPUContractionConfig(c, config)) {
        c.op->emitError() << "cannot tile this contraction for the GPU with "
                          << config.toAttr(&getContext()) << ": " << *why;
        return signalPassFailure();
      }
      if (failed(amp::tileGPUContraction(rewriter, c, config)))
        return signalPassFailure();
    }
  }
};
} // namespace

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

  LogicalResult initialize(MLIRContext *) override {
    if (minWorkgroups < 1)
      return emitError(UnknownLoc::get(&getContext()))
             << "amp-tile-contractions-for-gpu: min-workgroups must be at "
                "least 1, got "
             << minWorkgroups;
    return success();
  }

  void runOnOperation() override {
    SmallVector<amp::GPUContraction> contractions;
    getOperation()->walk([&](linalg::LinalgOp op) {
      // Ops already inside a kernel are left alone.
      if (op->getParentOfType<gpu::LaunchOp>())
        return;
      FailureOr<amp::GPUContraction> c = amp::matchGPUContraction(op);
      if (succeeded(c))
        contractions.push_back(*c);
    });
    IRRewriter rewriter(&getContext());
    for (const amp::GPUContraction &c : contractions) {
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

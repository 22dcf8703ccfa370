//===- TileContractionsForTensorCores.cpp - mma.sync kernels -------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/GPU/Passes.h"
#include "amp/Backend/GPU/TensorCoreContractions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_TILECONTRACTIONSFORTENSORCORES
#include "amp/Backend/GPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
struct TileContractionsForTensorCores
    : amp::impl::TileContractionsForTensorCoresBase<
          TileContractionsForTensorCores> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    if (minWorkgroups < 1)
      return emitError(UnknownLoc::get(context))
             << "amp-tile-contractions-for-tensor-cores: min-workgroups must "
                "be at least 1, got "
             << static_cast<int64_t>(minWorkgroups);
    return success();
  }

  void runOnOperation() override {
    SmallVector<Operation *> candidates;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<gpu::LaunchOp>())
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *candidate : candidates) {
      // Matched as the IR is now: an earlier kernel may have taken this op
      // as its epilogue or prologue.
      if (!candidate->getBlock())
        continue;
      Attribute attr = candidate->getAttr(amp::kLoweringConfigAttrName);
      bool asked = amp::TensorCoreConfig::isTensorCoreAttr(attr);
      // A configuration for the SIMT kernel is that strategy's.
      if (attr && !asked)
        continue;
      std::string reason;
      FailureOr<amp::GPUContraction> matched =
          amp::matchGPUContraction(candidate, &reason);
      if (succeeded(matched) &&
          failed(amp::matchTensorCoreContraction(*matched, &reason)))
        matched = failure();
      if (failed(matched)) {
        if (!asked)
          continue;
        candidate->emitError()
            << amp::kLoweringConfigAttrName
            << " asks for tensor cores, but the op cannot use them: "
            << reason;
        return signalPassFailure();
      }
      const amp::GPUContraction &c = *matched;
      amp::TensorCoreConfig config =
          amp::chooseTensorCoreConfig(c, minWorkgroups);
      if (asked) {
        std::string error;
        std::optional<amp::TensorCoreConfig> given =
            amp::TensorCoreConfig::fromAttr(attr, error);
        if (!given) {
          c.op->emitError() << amp::kLoweringConfigAttrName << ": " << error;
          return signalPassFailure();
        }
        config = *given;
      }
      if (std::optional<std::string> why =
              amp::checkTensorCoreConfig(c, config)) {
        // What the strategy cannot tile by itself (a grid past the limits)
        // is left to the SIMT kernel; a configuration the user gave must
        // work.
        if (!asked)
          continue;
        c.op->emitError() << "cannot tile this contraction for tensor cores "
                             "with "
                          << config.toAttr(&getContext()) << ": " << *why;
        return signalPassFailure();
      }
      if (failed(amp::tileTensorCoreContraction(rewriter, c, config)))
        return signalPassFailure();
    }
  }
};
} // namespace

//===- FuseRowsInWorkgroups.cpp - Row runs as one GPU kernel --------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/GPUReductionStrategy.h"
#include "amp/Backend/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_FUSEROWSINWORKGROUPS
#include "amp/Backend/Common/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
struct FuseRowsInWorkgroups
    : amp::impl::FuseRowsInWorkgroupsBase<FuseRowsInWorkgroups> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    if (failed(amp::verifyRowKernelOptions(
            context, "amp-fuse-rows-in-workgroups", workgroupSize, subgroupSize,
            minRowSize)))
      return failure();
    if (maxElementsPerThread < 1)
      return emitError(UnknownLoc::get(context))
             << "amp-fuse-rows-in-workgroups: max-elements-per-thread must "
                "be at least 1, got "
             << static_cast<int64_t>(maxElementsPerThread);
    return success();
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks) {
      if (block->getParentOp()->getParentOfType<gpu::LaunchOp>() ||
          isa<gpu::LaunchOp>(block->getParentOp()))
        continue;
      for (Operation *op = &block->front(); op;) {
        FailureOr<amp::GPURowSequence> run = amp::matchGPURowSequence(
            op, minRowSize, workgroupSize, maxElementsPerThread);
        if (failed(run) || run->rows() > 65535LL * 65535LL) {
          op = op->getNextNode();
          continue;
        }
        int64_t threads =
            std::min<int64_t>(workgroupSize, llvm::PowerOf2Ceil(run->rowSize));
        FailureOr<gpu::LaunchOp> launch =
            amp::fuseRowsInWorkgroups(rewriter, *run, threads, subgroupSize);
        if (failed(launch))
          return signalPassFailure();
        op = (*launch)->getNextNode();
      }
    }
  }
};
} // namespace

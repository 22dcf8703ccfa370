//===- ReduceRowsInWorkgroups.cpp - Row reductions as GPU kernels ---------===//
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
#define GEN_PASS_DEF_REDUCEROWSINWORKGROUPS
#include "amp/Backend/Common/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
struct ReduceRowsInWorkgroups
    : amp::impl::ReduceRowsInWorkgroupsBase<ReduceRowsInWorkgroups> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    if (failed(amp::verifyRowKernelOptions(
            context, "amp-reduce-rows-in-workgroups", workgroupSize,
            subgroupSize, minRowSize)))
      return failure();
    return success();
  }

  void runOnOperation() override {
    SmallVector<amp::GPURowReduction> reductions;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op->getParentOfType<gpu::LaunchOp>())
        return;
      FailureOr<amp::GPURowReduction> r =
          amp::matchGPURowReduction(op, minRowSize);
      // Grids of up to 65535 x 65535 workgroups.
      if (succeeded(r) && r->rows() <= 65535LL * 65535LL)
        reductions.push_back(*r);
    });
    IRRewriter rewriter(&getContext());
    for (const amp::GPURowReduction &r : reductions) {
      int64_t threads =
          std::min<int64_t>(workgroupSize, llvm::PowerOf2Ceil(r.rowSize()));
      if (failed(
              amp::reduceRowsInWorkgroups(rewriter, r, threads, subgroupSize)))
        return signalPassFailure();
    }
  }
};
} // namespace

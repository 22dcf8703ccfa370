//===- TestCountCastKernels.cpp - Count kernels that only cast ------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "amp/Backend/Common/FuseElementwise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_TESTCOUNTCASTKERNELS
#include "TestPasses.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
struct TestCountCastKernels
    : amp::impl::TestCountCastKernelsBase<TestCountCastKernels> {
  using Base::Base;
  void runOnOperation() override {
    unsigned kernels = 0, castOnly = 0, feedReductions = 0;
    getOperation()->walk([&](linalg::LinalgOp op) {
      ++kernels;
      Block *body = op.getBlock();
      if (!body)
        return;
      bool anyCast = false, onlyCasts = true;
      for (Operation &nested : body->without_terminator()) {
        bool isCast = isa<arith::ExtFOp, arith::TruncFOp>(nested);
        anyCast |= isCast;
        onlyCasts &= isCast;
      }
      if (!anyCast || !onlyCasts)
        return;
      // A cast read only by reductions that fusion would make recompute it
      // is meant to be a kernel of its own (amp-fuse-elementwise).
      bool forReductions = !op->use_empty();
      for (OpResult result : op->getResults())
        for (OpOperand &use : result.getUses())
          forReductions &= amp::fusionRecomputes(&use);
      if (forReductions) {
        ++feedReductions;
        return;
      }
      ++castOnly;
      op->emitRemark("amp: this kernel only casts");
    });
    llvm::outs() << "cast-only kernels: " << castOnly << " of " << kernels
                 << " (and " << feedReductions
                 << " that feed reductions fusion would recompute them in)\n";
  }
};
} // namespace

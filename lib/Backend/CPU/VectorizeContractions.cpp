//===- VectorizeContractions.cpp - Register-tiled contraction kernels -----===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/VectorizeContractions.h"
#include "amp/Backend/CPU/Passes.h"

// The dialects the pass's kernels create (Passes.h.inc names them).
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_VECTORIZECONTRACTIONS
#include "amp/Backend/CPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
struct VectorizeContractions
    : amp::impl::VectorizeContractionsBase<VectorizeContractions> {
  using Base::Base;
  LogicalResult initialize(MLIRContext *context) override {
    if (lanes < 1 || lanes > 1024 || rows < 1 || rows > 64 || cols < 1 ||
        cols > 16) {
      return emitError(UnknownLoc::get(context),
                       "amp-vectorize-contractions: lanes must be "
                       "in [1, 1024], rows in [1, 64] and cols in "
                       "[1, 16], got ")
             << static_cast<int64_t>(lanes) << ", "
             << static_cast<int64_t>(rows) << " and "
             << static_cast<int64_t>(cols);
    }
    return success();
  }

  void runOnOperation() override {
    // (Only ops with reductions: the fills and epilogues a kernel takes in
    // and erases have none.)
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.getNumReductionLoops() != 0)
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    // Last op first: an op that skips padding rows sees the linalg op
    // that writes its input's interior (say, an earlier convolution's
    // epilogue), not the loops of a kernel that took it in.
    for (linalg::LinalgOp op : llvm::reverse(ops))
      (void)amp::vectorizeContraction(rewriter, op, lanes, rows, cols, bf16Dot);
  }
};
} // namespace

//===- ApproximateMath.cpp - Polynomial math functions --------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/StringSet.h"

#include <cmath>

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_APPROXIMATEMATH
#include "amp/Backend/Common/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// The functions upstream MLIR approximates in f32 without target-specific
/// intrinsics (its rsqrt needs AVX2).
static constexpr llvm::StringLiteral kKnownFunctions[] = {
    "acos", "asin",  "atan", "atan2", "cbrt", "cos", "erf", "erfc",
    "exp",  "expm1", "log",  "log1p", "log2", "sin", "tanh"};

/// The polynomial exp and log work on normal f32 numbers: exp flushes
/// results below 2^-126 to zero, log takes a subnormal argument for 2^-126.
/// These rewrites move the subnormal range into the normal one by exact
/// scalings by 2^32, so that the approximations, applied to the new ops,
/// keep subnormal results and arguments:
///   exp(x) = exp(x + 32 ln 2) * 2^-32        for x < -87
///   log(x) = log(x * 2^32) - 32 ln 2          for x < 2^-126
/// (zero, negative and infinite arguments and NaN keep their IEEE results).
static void keepSubnormals(RewriterBase &rewriter, Operation *op, bool isExp) {
  Location loc = op->getLoc();
  Value x = op->getOperand(0);
  Type type = x.getType();
  rewriter.setInsertionPoint(op);
  auto constant = [&](double value) {
    return createScalarOrSplatConstant(rewriter, loc, type,
                                       APFloat(static_cast<float>(value)));
  };
  const double shift = 32 * std::log(2.0);
  Value scale = constant(isExp ? 0x1p-32 : 0x1p32);
  Value outside =
      arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT, x,
                            constant(isExp ? -87.0 : 0x1p-126));
  Value moved =
      isExp
          ? arith::AddFOp::create(rewriter, loc, x, constant(shift)).getResult()
          : arith::MulFOp::create(rewriter, loc, x, scale).getResult();
  Value argument = arith::SelectOp::create(rewriter, loc, outside, moved, x);
  Operation *inner = rewriter.clone(*op);
  inner->setOperand(0, argument);
  Value value = inner->getResult(0);
  Value back =
      isExp ? arith::MulFOp::create(rewriter, loc, value, scale).getResult()
            : arith::SubFOp::create(rewriter, loc, value, constant(shift))
                  .getResult();
  rewriter.replaceOp(
      op, arith::SelectOp::create(rewriter, loc, outside, back, value));
}

namespace {
struct ApproximateMath : amp::impl::ApproximateMathBase<ApproximateMath> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    selected.clear();
    if (functions.empty()) {
      selected.insert("math.erf");
      selected.insert("math.erfc");
      return success();
    }
    for (const std::string &name : functions) {
      if (!llvm::is_contained(kKnownFunctions, name))
        return emitError(UnknownLoc::get(context))
               << "amp-approximate-math: no approximation of '" << name
               << "'; known: "
               << llvm::join(ArrayRef<llvm::StringLiteral>(kKnownFunctions),
                             ", ");
      selected.insert("math." + name);
    }
    return success();
  }

  void runOnOperation() override {
    auto isSelected = [&](StringRef name) { return selected.contains(name); };
    // f16 and bf16 calls are evaluated in f32, then rounded back.
    RewritePatternSet widen(&getContext());
    populateMathF32ExpansionPatterns(widen, isSelected);
    if (failed(applyPatternsGreedily(getOperation(), std::move(widen))))
      return fail();

    SmallVector<Operation *> expAndLog;
    getOperation()->walk([&](Operation *op) {
      if (isa<math::ExpOp, math::LogOp>(op) &&
          isSelected(op->getName().getStringRef()) &&
          getElementTypeOrSelf(op->getResult(0).getType()).isF32())
        expAndLog.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : expAndLog)
      keepSubnormals(rewriter, op, isa<math::ExpOp>(op));

    RewritePatternSet approximate(&getContext());
    populateMathPolynomialApproximationPatterns(approximate, isSelected);
    if (failed(applyPatternsGreedily(getOperation(), std::move(approximate))))
      return fail();
  }

  void fail() {
    getOperation()->emitError(
        "amp-approximate-math: the rewrite did not reach a fixed point");
    signalPassFailure();
  }

  llvm::StringSet<> selected;
};
} // namespace

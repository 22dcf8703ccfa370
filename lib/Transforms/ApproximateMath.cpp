//===- ApproximateMath.cpp - Polynomial math functions --------------------===//

#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_APPROXIMATEMATH
#include "amp/Transforms/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// The functions upstream MLIR approximates in f32 without target-specific
/// intrinsics (its rsqrt needs AVX2).
static constexpr llvm::StringLiteral kKnownFunctions[] = {
    "acos", "asin", "atan", "atan2", "cbrt", "cos",   "erf",  "erfc",
    "exp",  "expm1", "log", "log1p", "log2", "sin",  "tanh"};

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
    RewritePatternSet patterns(&getContext());
    // f16 and bf16 calls are evaluated in f32, then rounded back.
    populateMathF32ExpansionPatterns(patterns, isSelected);
    populateMathPolynomialApproximationPatterns(patterns, isSelected);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      getOperation()->emitError(
          "amp-approximate-math: the rewrite did not reach a fixed point");
      return signalPassFailure();
    }
  }

  llvm::StringSet<> selected;
};
} // namespace

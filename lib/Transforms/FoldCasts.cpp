//===- FoldCasts.cpp - The amp-fold-casts pass ----------------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/CastFolding.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_FOLDCASTS
#include "amp/Transforms/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
struct FoldCasts : amp::impl::FoldCastsBase<FoldCasts> {
  using Base::Base;
  void runOnOperation() override {
    // Only casts are visited (and folded by the upstream arith folders too):
    // the rest of the program is left as it is.
    amp::foldAmpCasts(getOperation());
  }
};
} // namespace

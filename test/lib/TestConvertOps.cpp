//===- TestConvertOps.cpp - Convert each op on its own --------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "amp/Analysis/BufferRoles.h"
#include "amp/Dialect/Amp/Amp.h"
#include "amp/Interfaces/AmpOpInterface.h"
#include "amp/Interfaces/ExternalModels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_TESTCONVERTOPS
#include "TestPasses.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

namespace {

/// True if the op has an operand or result whose precision amp may change.
bool hasFloatData(Operation *op) {
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i)
    if (isDataOperand(op, i))
      return true;
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i)
    if (isDataResult(op, i))
      return true;
  return false;
}

/// Ops that only carry other ops or values; converting them alone would
/// break the types they tie together.
bool isCarrier(Operation *op) {
  return isa<FunctionOpInterface, CallOpInterface, RegionBranchOpInterface,
             BranchOpInterface, RegionBranchTerminatorOpInterface,
             arith::ExtFOp, arith::TruncFOp>(op) ||
         op->hasTrait<OpTrait::IsTerminator>() ||
         op->hasTrait<OpTrait::SymbolTable>();
}

struct TestConvertOps : amp::impl::TestConvertOpsBase<TestConvertOps> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerAllExternalModels(registry);
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    FloatType lowType = parseLowType(ctx, low);
    FloatType accType = parseAccumulatorType(ctx, accumulate);
    if (!lowType || !accType) {
      emitError(getOperation()->getLoc())
          << "amp-test-convert-ops: unsupported "
          << (lowType ? "accumulate" : "low") << " type '"
          << (lowType ? accumulate : low) << "'";
      return signalPassFailure();
    }

    // Ops are collected first: converting one creates casts and new ops.
    // An op with a body (linalg, tensor.pad) is converted with its body.
    SmallVector<Operation *> candidates;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == getOperation() || isCarrier(op))
        return WalkResult::advance();
      if (hasFloatData(op) &&
          (buffers || getBufferRole(op) != BufferRole::Compute) &&
          (all || getCategory(op, lowType).category != Policy::Never))
        candidates.push_back(op);
      return op->getNumRegions() ? WalkResult::skip() : WalkResult::advance();
    });

    IRRewriter rewriter(ctx);
    for (Operation *op : candidates) {
      SmallVector<Type> oldTypes(op->getResultTypes());
      FailureOr<Operation *> converted =
          convertToPrecision(rewriter, op, lowType, accType);
      if (failed(converted)) {
        op->emitRemark() << "amp: not converted to " << lowType;
        continue;
      }
      Operation *newOp = *converted;
      // Cast results back so that users see the original types.
      rewriter.setInsertionPointAfter(newOp);
      SmallVector<Value> replacements;
      for (auto [result, oldType] : llvm::zip(newOp->getResults(), oldTypes)) {
        Value back =
            createFloatCast(rewriter, newOp->getLoc(), result, oldType);
        if (!back) {
          newOp->emitError() << "amp: cannot cast result of type "
                             << result.getType() << " back to " << oldType;
          return signalPassFailure();
        }
        replacements.push_back(back);
      }
      if (newOp != op) {
        rewriter.replaceOp(op, replacements);
        continue;
      }
      for (auto [result, replacement] :
           llvm::zip(newOp->getResults(), replacements))
        if (replacement != result)
          rewriter.replaceAllUsesExcept(result, replacement,
                                        replacement.getDefiningOp());
    }
  }
};

} // namespace

//===- FillPerInit.cpp - A constant fill of its own per destination -------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_FILLPERINIT
#include "amp/Backend/Common/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// The value `op` fills a `tensor.empty` with, if `op` is a `linalg.fill` or
/// a `linalg.generic` without inputs whose body only yields a value defined
/// above it (what generalizing a fill gives); null otherwise.
static Value getFilledValue(Operation *op) {
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(op)) {
    if (!fill.hasPureTensorSemantics() ||
        !fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
      return {};
    return fill.getInputs()[0];
  }
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumDpsInputs() != 0 || generic.getNumDpsInits() != 1 ||
      !generic.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>() ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getIndexingMapsArray()[0].isIdentity())
    return {};
  Block &body = generic.getRegion().front();
  if (body.getOperations().size() != 1)
    return {};
  Value yielded = body.getTerminator()->getOperand(0);
  if (generic.getRegion().isAncestor(yielded.getParentRegion()))
    return {};
  return yielded;
}

/// A fill of `type` with `value` in the form of `like` (named or generic),
/// into a fresh `tensor.empty`.
static Value createFill(RewriterBase &rewriter, Location loc, Operation *like,
                        Value value, RankedTensorType type) {
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                              type.getElementType(), type.getEncoding());
  if (isa<linalg::FillOp>(like))
    return linalg::FillOp::create(rewriter, loc, value, empty).getResult(0);
  AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{empty},
      ArrayRef<AffineMap>{identity}, iterators,
      [&](OpBuilder &b, Location bodyLoc, ValueRange) {
        linalg::YieldOp::create(b, bodyLoc, value);
      });
  return generic.getResult(0);
}

/// Whether every use of `value` is the destination of a destination-style
/// op.
static bool isOnlyInit(Value value) {
  return llvm::all_of(value.getUses(), [](OpOperand &use) {
    auto op = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
    return op && op.isDpsInit(&use);
  });
}

namespace {
struct FillPerInit : amp::impl::FillPerInitBase<FillPerInit> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<OpOperand *> inits;
    getOperation()->walk([&](DestinationStyleOpInterface op) {
      if (!op.hasPureTensorSemantics())
        return;
      for (OpOperand &init : op.getDpsInitsMutable())
        inits.push_back(&init);
    });
    IRRewriter rewriter(&getContext());
    // Fills their first destination user keeps; ops that may be left
    // without users, in the order they can be erased.
    llvm::SmallPtrSet<Operation *, 16> kept;
    SmallVector<Operation *> replaced;
    llvm::SmallPtrSet<Operation *, 16> noted;
    auto note = [&](Operation *op) {
      if (op && noted.insert(op).second)
        replaced.push_back(op);
    };
    for (OpOperand *init : inits) {
      auto type = dyn_cast<RankedTensorType>(init->get().getType());
      if (!type || !type.hasStaticShape())
        continue;
      SmallVector<Operation *> reshapes;
      Value source = init->get();
      while (Operation *def = source.getDefiningOp()) {
        if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
          break;
        reshapes.push_back(def);
        source = def->getOperand(0);
      }
      Operation *fill = source.getDefiningOp();
      Value value = getFilledValue(fill);
      if (!value)
        continue;
      // A fill only destinations use stays with the first of them; one that
      // is also read stays with its readers.
      if (reshapes.empty() && isOnlyInit(fill->getResult(0)) &&
          kept.insert(fill).second)
        continue;
      Operation *user = init->getOwner();
      rewriter.setInsertionPoint(user);
      Value own = createFill(rewriter, fill->getLoc(), fill, value, type);
      rewriter.modifyOpInPlace(user, [&] { init->set(own); });
      for (Operation *reshape : reshapes)
        note(reshape);
      note(fill);
      note(fill->getOperand(fill->getNumOperands() - 1).getDefiningOp());
    }
    // A reshape of one fill may come after the fill in `replaced`.
    for (bool erased = true; erased;) {
      erased = false;
      for (Operation *&op : replaced) {
        if (!op || !op->use_empty())
          continue;
        rewriter.eraseOp(op);
        op = nullptr;
        erased = true;
      }
    }
  }
};
} // namespace

//===- ContractionEpilogues.cpp - Fills and epilogues a kernel takes in
//-----===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a contraction kernel takes in besides its op: the fill that starts
// its accumulators, and the elementwise epilogue that reads its result
// (bias, activation, cast), with the checks that moving them is safe.
//
//===----------------------------------------------------------------------===//

#include "ContractionKernels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

Operation *amp::getAdjacentEffectfulOp(Operation *op, bool forward) {
  // (An allocation writes no buffer that existed before it.)
  do
    op = forward ? op->getNextNode() : op->getPrevNode();
  while (op && (isMemoryEffectFree(op) ||
                hasSingleEffect<MemoryEffects::Allocate>(op)));
  return op;
}

Value amp::getRootBuffer(Value value) {
  auto buffer = dyn_cast<MemrefValue>(value);
  return buffer ? memref::skipViewLikeOps(buffer) : value;
}

linalg::LinalgOp amp::getInitFill(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1)
    return nullptr;
  Value init = op.getDpsInitOperand(0)->get();
  auto fill = dyn_cast_or_null<linalg::LinalgOp>(
      getAdjacentEffectfulOp(op, /*forward=*/false));
  if (!fill || !fill.hasPureBufferSemantics() || fill.getNumDpsInits() != 1 ||
      fill.getDpsInitOperand(0)->get() != init ||
      !fill.getMatchingIndexingMap(fill.getDpsInitOperand(0)).isIdentity())
    return nullptr;
  if (!isa<linalg::FillOp>(fill)) {
    if (!isa<linalg::GenericOp>(fill) || fill.getNumDpsInputs() != 0)
      return nullptr;
    Block &body = *fill.getBlock();
    Value value = body.getTerminator()->getOperand(0);
    if (value.getParentBlock() == &body &&
        (!value.getDefiningOp<arith::ConstantOp>() ||
         std::distance(body.begin(), body.end()) != 2))
      return nullptr;
  }
  // `op` writes every element of its output once, and reads it only as
  // its accumulator.
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (!outMap.isProjectedPermutation() ||
      outMap.getNumResults() != op.getNumParallelLoops() ||
      llvm::any_of(outMap.getResults(), [&](AffineExpr index) {
        return iterators[cast<AffineDimExpr>(index).getPosition()] !=
               utils::IteratorType::parallel;
      }))
    return nullptr;
  // (Buffers are compared through the views of them.)
  for (OpOperand *input : op.getDpsInputOperands())
    if (getRootBuffer(input->get()) == getRootBuffer(init))
      return nullptr;
  return fill;
}

/// Whether `other` is a linalg op on buffers allocated in the function
/// (through views) none of which is one of `roots`, with a body that
/// touches no memory: it cannot access what an op on buffers with those
/// roots accesses, so the two can run in either order.
static bool accessesOnlyOtherAllocations(Operation *other,
                                         const DenseSet<Value> &roots) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(other);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
      llvm::any_of(linalgOp.getBlock()->without_terminator(),
                   [](Operation &op) { return !isMemoryEffectFree(&op); }))
    return false;
  return llvm::all_of(other->getOperands(), [&](Value operand) {
    if (!isa<MemRefType>(operand.getType()))
      return true;
    Value root = amp::getRootBuffer(operand);
    return isa_and_present<memref::AllocOp, memref::AllocaOp>(
               root.getDefiningOp()) &&
           !roots.contains(root);
  });
}

linalg::GenericOp amp::getContractionEpilogue(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1)
    return nullptr;
  Value c = op.getDpsInitOperand(0)->get();
  auto cType = dyn_cast<MemRefType>(c.getType());
  // Past the ops that `op` can move after (a padded buffer's border
  // fills between a convolution and the op that writes the interior).
  DenseSet<Value> roots;
  for (Value operand : op->getOperands())
    roots.insert(getRootBuffer(operand));
  Operation *next = op;
  do
    next = getAdjacentEffectfulOp(next, /*forward=*/true);
  while (next && accessesOnlyOtherAllocations(next, roots));
  auto epilogue = dyn_cast_or_null<linalg::GenericOp>(next);
  if (!cType || cType.getRank() == 0 || !epilogue ||
      !epilogue.hasPureBufferSemantics() || epilogue.getNumDpsInits() != 1 ||
      epilogue.getNumLoops() != static_cast<unsigned>(cType.getRank()) ||
      epilogue.getNumParallelLoops() != epilogue.getNumLoops() ||
      !isScalarElementwiseBody(*epilogue.getBody()))
    return nullptr;
  for (Value operand : epilogue->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type || !isVectorMemoryType(type.getElementType()))
      return nullptr;
  }
  OpOperand *d = epilogue.getDpsInitOperand(0);
  if (!epilogue.getMatchingIndexingMap(d).isIdentity() ||
      !epilogue.getMatchingBlockArgument(d).use_empty())
    return nullptr;
  Value cRoot = getRootBuffer(c), dRoot = getRootBuffer(d->get());
  for (OpOperand *input : op.getDpsInputOperands())
    if (getRootBuffer(input->get()) == dRoot)
      return nullptr;
  unsigned innermost = epilogue.getNumLoops() - 1;
  int64_t readsOfC = 0;
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    AffineMap map = epilogue.getMatchingIndexingMap(input);
    if (input->get() == c && map.isIdentity()) {
      ++readsOfC;
      continue;
    }
    // (Its output read where it is written, element by element: a
    // residual added in place.)
    if (input->get() == d->get() && map.isIdentity())
      continue;
    Value root = getRootBuffer(input->get());
    if (root == cRoot || root == dRoot)
      return nullptr;
    for (auto [position, index] : llvm::enumerate(map.getResults()))
      if (index.isFunctionOfDim(innermost) &&
          (position + 1 != map.getNumResults() || !isa<AffineDimExpr>(index)))
        return nullptr;
  }
  // (A view of `C` other than `C` itself would be written where the kernel
  // has not computed `C` yet.)
  if (readsOfC != 1 || (dRoot == cRoot && d->get() != c))
    return nullptr;
  return epilogue;
}

/// Whether the buffer `op` writes is one allocated here that nothing but
/// `op`, its init fill and `epilogue` accesses (through views or not):
/// once the epilogue has read it, it is dead, and the kernel need not
/// store it.
bool amp::isOnlyReadByEpilogue(linalg::LinalgOp op, linalg::LinalgOp fill,
                               linalg::GenericOp epilogue) {
  Value root = amp::getRootBuffer(op.getDpsInitOperand(0)->get());
  if (!isa_and_present<memref::AllocOp, memref::AllocaOp>(root.getDefiningOp()))
    return false;
  SmallVector<Value> worklist{root};
  while (!worklist.empty()) {
    Value buffer = worklist.pop_back_val();
    for (Operation *user : buffer.getUsers()) {
      if (user == op.getOperation() || user == epilogue.getOperation() ||
          (fill && user == fill.getOperation()) || isa<memref::DeallocOp>(user))
        continue;
      auto view = dyn_cast<ViewLikeOpInterface>(user);
      if (!view || view.getViewSource() != buffer)
        return false;
      llvm::append_range(worklist, user->getResults());
    }
  }
  return true;
}

/// The value `op` fills its output with, when it is a fill: a
/// `linalg.fill`, or a generic without inputs that yields one value from
/// outside its body.
Value amp::getFilledScalar(Operation *op) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.getInputs().front();
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 0 ||
      generic.getNumDpsInits() != 1)
    return Value();
  Value yielded = generic.getBlock()->getTerminator()->getOperand(0);
  return yielded.getParentBlock() == generic.getBlock() ? Value() : yielded;
}

Value amp::materializeFillValue(OpBuilder &builder, linalg::LinalgOp fill) {
  if (auto named = dyn_cast<linalg::FillOp>(fill.getOperation()))
    return named.getInputs().front();
  Value value = fill.getBlock()->getTerminator()->getOperand(0);
  if (value.getParentBlock() != fill.getBlock())
    return value;
  return builder.clone(*value.getDefiningOp())->getResult(0);
}

//===- BufferCopies.cpp - Running ops on converted buffer copies ---------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Interfaces/BufferCopies.h"
#include "amp/Interfaces/AmpOpInterface.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::amp;

bool mlir::amp::isFloatBuffer(Type type) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  return memref && getFloatElementType(memref.getElementType());
}

Operation *mlir::amp::createBufferConversion(OpBuilder &builder, Location loc,
                                             Value from, Value to) {
  auto type = cast<MemRefType>(to.getType());
  AffineMap id = builder.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
      builder, loc, ValueRange{from}, ValueRange{to},
      ArrayRef<AffineMap>{id, id}, iterators,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value converted = createFloatCast(b, l, args[0], type.getElementType());
        linalg::YieldOp::create(b, l, converted);
      });
}

void BufferCopies::undo(RewriterBase &rewriter, Operation *op) {
  rewriter.modifyOpInPlace(op, [&] {
    for (auto [index, original] : replaced)
      op->setOperand(index, original);
  });
  for (Operation *created : llvm::reverse(this->created))
    rewriter.eraseOp(created);
  this->created.clear();
  replaced.clear();
}

FailureOr<BufferCopies> mlir::amp::convertBufferOperands(RewriterBase &rewriter,
                                                         Operation *op,
                                                         ArrayRef<Type> types) {
  SmallVector<unsigned> toCopy;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    Type type = operand.getType();
    if (type == types[i] || !isFloatBuffer(type))
      continue;
    auto from = dyn_cast<MemRefType>(type);
    auto to = dyn_cast<MemRefType>(types[i]);
    if (!from || !to || from.getShape() != to.getShape() ||
        !canCreateFloatCast(from.getElementType(), to.getElementType()))
      return rewriter.notifyMatchFailure(op, "buffer operand cannot be copied");
    toCopy.push_back(i);
  }

  BufferCopies copies;
  Location loc = op->getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  SmallVector<Operation *> after;
  for (unsigned i : toCopy) {
    Value original = op->getOperand(i);
    auto from = cast<MemRefType>(original.getType());
    // A buffer of identity layout in the original's memory space.
    auto type = MemRefType::get(
        from.getShape(), cast<MemRefType>(types[i]).getElementType(),
        MemRefLayoutAttrInterface(), from.getMemorySpace());
    rewriter.setInsertionPoint(op);
    SmallVector<Value> sizes;
    for (int64_t d = 0, e = from.getRank(); d < e; ++d)
      if (from.isDynamicDim(d)) {
        Value dim = memref::DimOp::create(rewriter, loc, original, d);
        copies.created.push_back(dim.getDefiningOp());
        sizes.push_back(dim);
      }
    Value copy = memref::AllocOp::create(rewriter, loc, type, sizes);
    copies.created.push_back(copy.getDefiningOp());
    // The copy holds the buffer's values unless the op reads none of them
    // and overwrites all of them (a linalg init its payload does not read,
    // indexed by a projected permutation: every element is written).
    bool overwritten = false;
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      OpOperand &operand = op->getOpOperand(i);
      overwritten =
          linalgOp.isDpsInit(&operand) &&
          !linalgOp.payloadUsesValueFromOperand(&operand) &&
          linalgOp.getMatchingIndexingMap(&operand).isProjectedPermutation();
    }
    if (mightHaveEffect<MemoryEffects::Read>(op, original) ||
        (mightHaveEffect<MemoryEffects::Write>(op, original) && !overwritten))
      copies.created.push_back(
          createBufferConversion(rewriter, loc, original, copy));
    rewriter.setInsertionPointAfter(op);
    if (mightHaveEffect<MemoryEffects::Write>(op, original))
      after.push_back(createBufferConversion(rewriter, loc, copy, original));
    after.push_back(memref::DeallocOp::create(rewriter, loc, copy));
    copies.replaced.emplace_back(i, original);
    rewriter.modifyOpInPlace(op, [&] { op->setOperand(i, copy); });
  }
  // Copies back and deallocations follow the op in operand order.
  Operation *insertAfter = op;
  for (Operation *a : after) {
    a->moveAfter(insertAfter);
    insertAfter = a;
  }
  copies.created.append(after.begin(), after.end());
  return copies;
}

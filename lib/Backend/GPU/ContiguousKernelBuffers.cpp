//===- ContiguousKernelBuffers.cpp - Identity-layout kernel operands ------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/GPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_CONTIGUOUSKERNELBUFFERS
#include "amp/Backend/GPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// The identity-layout type a kernel operand of `type` gets, or null when
/// `type` needs none (identity layout already, or not a static memref).
static MemRefType contiguousTypeFor(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || memref.getLayout().isIdentity() || !memref.hasStaticShape())
    return {};
  return MemRefType::get(memref.getShape(), memref.getElementType(),
                         AffineMap(), memref.getMemorySpace());
}

/// Whether `op` may read the elements of `operand` or leave some of them
/// unwritten, so that a buffer standing in for it must start as a copy.
static bool needsCopyIn(linalg::LinalgOp op, OpOperand &operand) {
  if (!op.isDpsInit(&operand) || op.payloadUsesValueFromOperand(&operand))
    return true;
  // An init the payload does not read is overwritten everywhere when its
  // indexing map reaches every element.
  return !op.getMatchingIndexingMap(&operand).isProjectedPermutation();
}

/// Replaces the non-identity-layout operands of `op` by new buffers (one per
/// distinct value), copied in before `op`, copied back after it when `op`
/// writes them, and freed after it.
static void makeOperandsContiguous(linalg::LinalgOp op) {
  struct Replacement {
    Value view, buffer;
    bool copyIn = false, copyOut = false;
  };
  SmallVector<Replacement> replacements;
  auto replacementFor = [&](Value view) -> Replacement * {
    for (Replacement &r : replacements)
      if (r.view == view)
        return &r;
    return nullptr;
  };
  OpBuilder builder(op);
  Location loc = op.getLoc();
  for (OpOperand &operand : op->getOpOperands()) {
    MemRefType type = contiguousTypeFor(operand.get().getType());
    if (!type)
      continue;
    Replacement *r = replacementFor(operand.get());
    if (!r) {
      Value buffer = memref::AllocOp::create(builder, loc, type,
                                             builder.getI64IntegerAttr(64));
      replacements.push_back({operand.get(), buffer});
      r = &replacements.back();
    }
    r->copyIn |= needsCopyIn(op, operand);
    r->copyOut |= op.isDpsInit(&operand);
  }
  for (Replacement &r : replacements) {
    if (r.copyIn)
      memref::CopyOp::create(builder, loc, r.view, r.buffer);
    op->replaceUsesOfWith(r.view, r.buffer);
  }
  builder.setInsertionPointAfter(op);
  for (Replacement &r : replacements) {
    if (r.copyOut)
      memref::CopyOp::create(builder, loc, r.buffer, r.view);
    memref::DeallocOp::create(builder, loc, r.buffer);
  }
}

namespace {
struct ContiguousKernelBuffers
    : amp::impl::ContiguousKernelBuffersBase<ContiguousKernelBuffers> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics() &&
          llvm::any_of(op->getOperandTypes(), contiguousTypeFor))
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops)
      makeOperandsContiguous(op);
  }
};
} // namespace

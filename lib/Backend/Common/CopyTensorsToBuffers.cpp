//===- CopyTensorsToBuffers.cpp - A buffer of its own per to_buffer -------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_COPYTENSORSTOBUFFERS
#include "amp/Backend/Common/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// Whether nothing is ever written to `tensor`'s buffer: an argument of a
/// function that declares it not writable.
static bool isNeverWritten(Value tensor) {
  auto arg = dyn_cast<BlockArgument>(tensor);
  if (!arg)
    return false;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!func || arg.getOwner() != &func.getBody().front())
    return false;
  auto writable = func.getArgAttrOfType<BoolAttr>(
      arg.getArgNumber(),
      bufferization::BufferizationDialect::kWritableAttrName);
  return writable && !writable.getValue();
}

/// Replaces `op` by a fresh buffer the tensor is materialized in; fails
/// (leaving `op`) for unranked types.
static LogicalResult copyToOwnBuffer(RewriterBase &rewriter,
                                     bufferization::ToBufferOp op) {
  auto tensorType = dyn_cast<RankedTensorType>(op.getTensor().getType());
  auto resultType = dyn_cast<MemRefType>(op.getType());
  if (!tensorType || !resultType)
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> sizes;
  for (auto [dim, size] : llvm::enumerate(tensorType.getShape()))
    if (ShapedType::isDynamic(size))
      sizes.push_back(
          tensor::DimOp::create(rewriter, loc, op.getTensor(), dim));
  auto bufferType =
      MemRefType::get(tensorType.getShape(), tensorType.getElementType(),
                      MemRefLayoutAttrInterface(), resultType.getMemorySpace());
  Value buffer = memref::AllocOp::create(rewriter, loc, bufferType, sizes);
  auto materialize = bufferization::MaterializeInDestinationOp::create(
      rewriter, loc, op.getTensor(), buffer);
  materialize.setRestrict(true);
  materialize.setWritable(true);
  Value result = buffer;
  if (bufferType != resultType)
    result = memref::CastOp::create(rewriter, loc, resultType, buffer);
  rewriter.replaceOp(op, result);
  return success();
}

namespace {
struct CopyTensorsToBuffers
    : amp::impl::CopyTensorsToBuffersBase<CopyTensorsToBuffers> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<bufferization::ToBufferOp> ops;
    getOperation()->walk([&](bufferization::ToBufferOp op) {
      if (!isNeverWritten(op.getTensor()))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (bufferization::ToBufferOp op : ops)
      (void)copyToOwnBuffer(rewriter, op);
  }
};
} // namespace

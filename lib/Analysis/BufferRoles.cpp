//===- BufferRoles.cpp - How amp treats float buffers (memrefs) -----------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/BufferRoles.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::amp;

BufferRole mlir::amp::getBufferRole(Operation *op) {
  if (!llvm::any_of(op->getOperandTypes(), isFloatBuffer) &&
      !llvm::any_of(op->getResultTypes(), isFloatBuffer))
    return BufferRole::None;
  if (isa<RegionBranchOpInterface, BranchOpInterface,
          RegionBranchTerminatorOpInterface, CallOpInterface>(op) ||
      op->hasTrait<OpTrait::ReturnLike>())
    return BufferRole::ControlFlow;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.hasPureBufferSemantics() ? BufferRole::Compute
                                             : BufferRole::Opaque;
  if (isa<memref::AllocOp, memref::AllocaOp>(op))
    return BufferRole::Allocation;
  if (isa<ViewLikeOpInterface, memref::TransposeOp>(op))
    return BufferRole::View;
  if (isa<memref::LoadOp, memref::StoreOp, affine::AffineReadOpInterface,
          affine::AffineWriteOpInterface, vector::LoadOp, vector::StoreOp,
          vector::TransferReadOp, vector::TransferWriteOp>(op))
    return BufferRole::Access;
  if (isa<memref::CopyOp>(op))
    return BufferRole::Copy;
  if (isa<memref::DeallocOp, memref::DimOp, memref::RankOp,
          memref::ExtractAlignedPointerAsIndexOp, memref::PrefetchOp>(op))
    return BufferRole::Inspect;
  return BufferRole::Opaque;
}

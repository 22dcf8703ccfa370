//===- MergeParallelRegions.cpp - One fork for consecutive regions --------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_MERGEPARALLELREGIONS
#include "amp/Backend/CPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
/// A run of ops that becomes one merged region: the parallel regions in
/// order, the ops between them that run on one thread (one run per gap),
/// the ops that move before it and the deallocations that move after it.
struct Merge {
  SmallVector<omp::ParallelOp> regions;
  SmallVector<SmallVector<Operation *>> serial;
  SmallVector<Operation *> hoisted;
  SmallVector<Operation *> sunk;
};
} // namespace

/// Whether `b` forks the threads `a` forks, with nothing of its own to
/// set up: same operands and attributes, no block arguments (privatized
/// or reduced values).
static bool isMergeable(omp::ParallelOp a, omp::ParallelOp b) {
  return a->getOperands() == b->getOperands() &&
         a->getAttrDictionary() == b->getAttrDictionary() &&
         b.getRegion().hasOneBlock() &&
         b.getRegion().front().getNumArguments() == 0;
}

/// Bytes of a statically shaped allocation; nullopt otherwise.
static std::optional<int64_t> staticBytes(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  return type.getNumElements() *
         llvm::divideCeil(type.getElementTypeBitWidth(), 8);
}

/// Whether `op` can run on one thread inside a parallel region: no
/// terminator, no call or OpenMP op inside it.
static bool canRunOnOneThread(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>())
    return false;
  WalkResult walk = op->walk([](Operation *nested) {
    if (isa<CallOpInterface>(nested) ||
        isa_and_nonnull<omp::OpenMPDialect>(nested->getDialect()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// Whether the results of `ops` (consecutive ops of one block) are only
/// used by `ops`: in an omp.single, nothing outside it could see them.
static bool isSelfContained(ArrayRef<Operation *> ops) {
  llvm::SmallPtrSet<Operation *, 16> set(ops.begin(), ops.end());
  for (Operation *op : ops)
    for (Operation *user : op->getUsers()) {
      Operation *ancestor = op->getBlock()->findAncestorOpInBlock(*user);
      if (!ancestor || !set.contains(ancestor))
        return false;
    }
  return true;
}

/// Whether an operand of `op` is a result of one of `ops`.
static bool usesAny(Operation *op, ArrayRef<Operation *> ops) {
  return llvm::any_of(op->getOperands(), [&](Value operand) {
    return llvm::is_contained(ops, operand.getDefiningOp());
  });
}

/// The merge that starts at `first`, extended over the ops after it while
/// they can be merged, moved or run on one thread.
static Merge collectMerge(omp::ParallelOp first, int64_t maxHoistedBytes) {
  Merge merge;
  merge.regions.push_back(first);
  // What lies between the last region taken and the next one: committed
  // only when another region follows.
  SmallVector<Operation *> serial, hoisted, sunk;
  int64_t hoistedBytes = 0, pendingBytes = 0;
  for (Operation *op = first->getNextNode(); op; op = op->getNextNode()) {
    if (auto region = dyn_cast<omp::ParallelOp>(op)) {
      if (!isMergeable(first, region) ||
          hoistedBytes + pendingBytes > maxHoistedBytes ||
          !isSelfContained(serial))
        break;
      merge.regions.push_back(region);
      merge.serial.push_back(std::move(serial));
      llvm::append_range(merge.hoisted, hoisted);
      llvm::append_range(merge.sunk, sunk);
      serial.clear();
      hoisted.clear();
      sunk.clear();
      hoistedBytes += pendingBytes;
      pendingBytes = 0;
      continue;
    }
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      std::optional<int64_t> bytes = staticBytes(alloc);
      if (!bytes)
        break;
      pendingBytes += *bytes;
      hoisted.push_back(op);
      continue;
    }
    if (isa<memref::DeallocOp>(op)) {
      sunk.push_back(op);
      continue;
    }
    // Pure ops move up, unless they compute on what runs on one thread.
    if (isPure(op) && op->getNumRegions() == 0 && !usesAny(op, serial)) {
      hoisted.push_back(op);
      continue;
    }
    if (!canRunOnOneThread(op))
      break;
    serial.push_back(op);
  }
  return merge;
}

/// Merges `merge`'s regions into its first one.
static void applyMerge(RewriterBase &rewriter, Merge &merge) {
  omp::ParallelOp target = merge.regions.front();
  for (Operation *op : merge.hoisted)
    rewriter.moveOpBefore(op, target);
  Operation *after = target;
  for (Operation *op : merge.sunk) {
    rewriter.moveOpAfter(op, after);
    after = op;
  }
  Block &body = target.getRegion().front();
  Location loc = target.getLoc();
  // Ends what came before with a barrier, unless it ends with one.
  auto barrier = [&] {
    Operation *terminator = body.getTerminator();
    Operation *last = terminator->getPrevNode();
    if (auto loop = dyn_cast_or_null<omp::WsloopOp>(last);
        loop && !loop.getNowait())
      return;
    if (auto single = dyn_cast_or_null<omp::SingleOp>(last);
        single && !single.getNowait())
      return;
    rewriter.setInsertionPoint(terminator);
    omp::BarrierOp::create(rewriter, loc);
  };
  for (auto [region, serial] :
       llvm::zip_equal(llvm::drop_begin(merge.regions), merge.serial)) {
    if (!serial.empty()) {
      barrier();
      rewriter.setInsertionPoint(body.getTerminator());
      auto single = omp::SingleOp::create(rewriter, serial.front()->getLoc(),
                                          omp::SingleOperands());
      Block *singleBody = rewriter.createBlock(&single.getRegion());
      rewriter.setInsertionPointToEnd(singleBody);
      auto end = omp::TerminatorOp::create(rewriter, loc);
      for (Operation *op : serial)
        rewriter.moveOpBefore(op, end);
    }
    barrier();
    Block &from = region.getRegion().front();
    rewriter.eraseOp(from.getTerminator());
    rewriter.inlineBlockBefore(&from, body.getTerminator());
    rewriter.eraseOp(region);
  }
}

namespace {
struct MergeParallelRegions
    : amp::impl::MergeParallelRegionsBase<MergeParallelRegions> {
  using Base::Base;
  LogicalResult initialize(MLIRContext *context) override {
    if (maxHoistedBytes < 0) {
      return emitError(UnknownLoc::get(context),
                       "amp-merge-parallel-regions: "
                       "max-hoisted-bytes must not be negative, got ")
             << static_cast<int64_t>(maxHoistedBytes);
    }
    return success();
  }

  void runOnOperation() override {
    // Outermost regions only: one nested in another runs on one thread.
    SmallVector<omp::ParallelOp> regions;
    getOperation()->walk<WalkOrder::PreOrder>([&](omp::ParallelOp region) {
      regions.push_back(region);
      return WalkResult::skip();
    });
    IRRewriter rewriter(&getContext());
    llvm::SmallPtrSet<Operation *, 16> merged;
    for (omp::ParallelOp region : regions) {
      if (merged.contains(region))
        continue;
      Merge merge = collectMerge(region, maxHoistedBytes);
      if (merge.regions.size() < 2)
        continue;
      for (omp::ParallelOp other : merge.regions)
        merged.insert(other);
      applyMerge(rewriter, merge);
    }
  }
};
} // namespace

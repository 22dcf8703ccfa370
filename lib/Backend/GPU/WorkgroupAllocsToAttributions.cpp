//===- WorkgroupAllocsToAttributions.cpp - Shared memory for NVVM ---------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_WORKGROUPALLOCSTOATTRIBUTIONS
#include "amp/Backend/GPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

static bool isWorkgroupMemory(MemRefType type) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

namespace {
struct WorkgroupAllocsToAttributions
    : amp::impl::WorkgroupAllocsToAttributionsBase<
          WorkgroupAllocsToAttributions> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      SmallVector<memref::AllocOp> allocs;
      for (auto alloc : func.getBody().front().getOps<memref::AllocOp>())
        if (isWorkgroupMemory(alloc.getType()) &&
            alloc.getType().hasStaticShape() && alloc.getOperands().empty())
          allocs.push_back(alloc);
      for (memref::AllocOp alloc : allocs) {
        BlockArgument buffer =
            func.addWorkgroupAttribution(alloc.getType(), alloc.getLoc());
        // The allocation's alignment (16 bytes for the targets of cp.async
        // and ldmatrix) becomes the .shared array's.
        if (std::optional<uint64_t> alignment = alloc.getAlignment())
          func.setWorkgroupAttributionAttr(
              func.getNumWorkgroupAttributions() - 1,
              LLVM::LLVMDialect::getAlignAttrName(),
              rewriter.getI64IntegerAttr(*alignment));
        for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
          if (isa<memref::DeallocOp>(user))
            rewriter.eraseOp(user);
        rewriter.replaceOp(alloc, buffer);
      }
    });
  }
};
} // namespace

//===- WorkgroupAllocsToSPIRV.cpp - Workgroup memory for SPIR-V -----------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/SPIRV/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_WORKGROUPALLOCSTOSPIRV
#include "amp/Backend/SPIRV/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
struct WorkgroupAllocsToSPIRV
    : amp::impl::WorkgroupAllocsToSPIRVBase<WorkgroupAllocsToSPIRV> {
  using Base::Base;
  void runOnOperation() override {
    auto storage = spirv::StorageClassAttr::get(&getContext(),
                                                spirv::StorageClass::Workgroup);
    WalkResult result = getOperation()->walk([&](memref::AllocOp alloc) {
      auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
          alloc.getType().getMemorySpace());
      if (!space || space.getValue() != gpu::AddressSpace::Workgroup ||
          !alloc->getParentOfType<gpu::GPUFuncOp>())
        return WalkResult::advance();
      // Loads and stores (of elements or of cooperative-matrix fragments)
      // take the type from the buffer; other users (views, calls) would
      // keep the old memory space in their own types.
      for (Operation *user : alloc->getUsers())
        if (!isa<memref::LoadOp, memref::StoreOp, memref::DeallocOp,
                 gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp>(
                user)) {
          alloc.emitError("workgroup buffer used by '")
              << user->getName() << "', which cannot follow it into the "
              << "SPIR-V Workgroup storage class";
          return WalkResult::interrupt();
        }
      MemRefType type = alloc.getType();
      alloc.getResult().setType(MemRefType::get(
          type.getShape(), type.getElementType(), type.getLayout(), storage));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

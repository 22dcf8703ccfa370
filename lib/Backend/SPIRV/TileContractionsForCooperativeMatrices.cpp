//===- TileContractionsForCooperativeMatrices.cpp - Vulkan matrix units ---===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/GPU/TensorCoreContractions.h"
#include "amp/Backend/SPIRV/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_TILECONTRACTIONSFORCOOPERATIVEMATRICES
#include "amp/Backend/SPIRV/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
struct TileContractionsForCooperativeMatrices
    : amp::impl::TileContractionsForCooperativeMatricesBase<
          TileContractionsForCooperativeMatrices> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    if (minWorkgroups < 1 || subgroupSize < 1 ||
        !llvm::isPowerOf2_64(subgroupSize))
      return emitError(UnknownLoc::get(context))
             << "amp-tile-contractions-for-cooperative-matrices: "
                "min-workgroups must be at least 1 and subgroup-size a "
                "power of two, got "
             << static_cast<int64_t>(minWorkgroups) << " and "
             << static_cast<int64_t>(subgroupSize);
    return success();
  }

  void runOnOperation() override {
    if (failed(amp::tileContractionsOnMatrixUnits(
            getOperation(), amp::MatrixUnit::CooperativeMatrix, minWorkgroups,
            subgroupSize)))
      signalPassFailure();
  }
};
} // namespace

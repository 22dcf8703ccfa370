//===- TileContractionsForTensorCores.cpp - mma.sync kernels -------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/GPU/Passes.h"
#include "amp/Backend/GPU/TensorCoreContractions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_TILECONTRACTIONSFORTENSORCORES
#include "amp/Backend/GPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
struct TileContractionsForTensorCores
    : amp::impl::TileContractionsForTensorCoresBase<
          TileContractionsForTensorCores> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    if (minWorkgroups < 1)
      return emitError(UnknownLoc::get(context))
             << "amp-tile-contractions-for-tensor-cores: min-workgroups must "
                "be at least 1, got "
             << static_cast<int64_t>(minWorkgroups);
    return success();
  }

  void runOnOperation() override {
    if (failed(amp::tileContractionsOnMatrixUnits(
            getOperation(), amp::MatrixUnit::MmaSync, minWorkgroups,
            /*laneCount=*/32, tf32)))
      signalPassFailure();
  }
};
} // namespace

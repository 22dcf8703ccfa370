//===- CFModels.cpp - AmpOpInterface models for cf ------------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Branches forward values to block arguments; a value tied through a branch
// has one type on both sides, which the pass keeps consistent.
//
//===----------------------------------------------------------------------===//

#include "ModelSupport.h"
#include "amp/Interfaces/ExternalModels.h"
#include "amp/Target/TargetCapabilities.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::amp;

void mlir::amp::registerCFExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, cf::ControlFlowDialect *) {
    attachModels<StructureModel, cf::BranchOp, cf::CondBranchOp, cf::SwitchOp>(
        ctx);
  });
}

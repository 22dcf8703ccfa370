//===- SCFModels.cpp - AmpOpInterface models for scf ----------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Structured control flow computes nothing itself: it carries values, whose
// types are tied across init operands, block arguments, yields and results.
// A loop that carries a sum (an iter_arg updated by addf) is an accumulation
// like any reduction.
//
//===----------------------------------------------------------------------===//

#include "ModelSupport.h"
#include "amp/Interfaces/ExternalModels.h"
#include "amp/Target/TargetCapabilities.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

/// Loop-carried values updated as `carried = carried op x`.
std::optional<AccumulationInfo> forAccumulation(scf::ForOp loop) {
  AccumulationInfo info;
  info.separateAccumulator = true;
  bool found = false;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [i, iterArg] : llvm::enumerate(loop.getRegionIterArgs())) {
    if (!amp::detail::isFloatData(iterArg.getType()))
      continue;
    Operation *update = yield.getOperand(i).getDefiningOp();
    if (!update || !llvm::is_contained(update->getOperands(), iterArg))
      continue;
    AccumulationKind kind = classifyCombiner(update);
    if (kind == AccumulationKind::Other)
      continue;
    // Report the lossiest carried value, ranked as the linalg model ranks
    // its outputs.
    if (!found || lossRank(kind) > lossRank(info.kind))
      info.kind = kind;
    found = true;
    info.accumulatorOperands.push_back(
        loop.getInitArgsMutable()[i].getOperandNumber());
    info.accumulatorResults.push_back(i);
  }
  if (!found)
    return std::nullopt;
  if (std::optional<APInt> trips = loop.getStaticTripCount())
    info.reductionSize = trips->getSExtValue();
  return info;
}

struct ForModel : MovingModel<ForModel, scf::ForOp> {
  CategoryInfo getDefaultCategory(Operation *, FloatType) const {
    return followsStructure();
  }
  std::optional<AccumulationInfo> getAccumulation(Operation *op) const {
    return forAccumulation(cast<scf::ForOp>(op));
  }
};

} // namespace

void mlir::amp::registerSCFExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, scf::SCFDialect *) {
    scf::ForOp::attachInterface<ForModel>(*ctx);
    attachModels<StructureModel, scf::ConditionOp, scf::ExecuteRegionOp,
                 scf::ForallOp, scf::IfOp, scf::InParallelOp,
                 scf::IndexSwitchOp, scf::ParallelOp, scf::ReduceOp,
                 scf::ReduceReturnOp, scf::WhileOp, scf::YieldOp>(ctx);
  });
}

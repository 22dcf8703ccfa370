//===- EmulatePrecision.cpp - Mixed precision emulated in f32, gated ------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Makes mixed-precision's decisions (the same analysis, the same options),
// then, instead of changing types, rounds each value to the low type where
// the converted program would hold it there, behind a gate read from a new
// argument of the entry function. A precision tuner compiles the program
// once and tries policies by switching gates.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/EmulatePrecision.h"
#include "amp/Analysis/Policy.h"
#include "amp/Analysis/PrecisionAssignment.h"
#include "amp/Interfaces/ExternalModels.h"
#include "amp/Transforms/DecisionOptions.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_EMULATEPRECISION
#include "amp/Transforms/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

namespace {

/// The element type of an f32 scalar or ranked tensor, else null.
Type getRoundableF32(Type type) {
  Type element = type;
  if (auto ranked = dyn_cast<RankedTensorType>(type))
    element = ranked.getElementType();
  else if (isa<ShapedType>(type))
    return nullptr;
  return element.isF32() ? element : nullptr;
}

/// `flag ? extf(truncf(v)) : v`, elementwise: for a tensor, one parallel
/// linalg.generic, which the CPU pipeline fuses with the elementwise work
/// around it (a branch on the gate would copy the tensor and fuse with
/// nothing).
Value roundIf(OpBuilder &b, Location loc, Value v, Value flag, FloatType low) {
  auto scalar = [&](OpBuilder &nb, Location nloc, Value x) -> Value {
    Value narrow = arith::TruncFOp::create(nb, nloc, low, x);
    Value wide = arith::ExtFOp::create(nb, nloc, x.getType(), narrow);
    return arith::SelectOp::create(nb, nloc, flag, wide, x);
  };
  auto ranked = dyn_cast<RankedTensorType>(v.getType());
  if (!ranked)
    return scalar(b, loc, v);
  return createElementwiseMap(b, loc, v, ranked, scalar);
}

/// Erases a rounding roundIf made that nothing reads, and what it made for
/// it (its init, or the scalar casts).
void eraseUnusedRounding(Operation *rounding) {
  SmallVector<Operation *> worklist = {rounding};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!op->use_empty())
      continue;
    SmallVector<Operation *> made;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && isa<tensor::EmptyOp, arith::TruncFOp, arith::ExtFOp>(def))
        made.push_back(def);
    op->erase();
    llvm::append_range(worklist, made);
  }
}

/// Elementwise ops, which amp's CPU backend fuses into chains.
bool isElementwise(Operation *op) {
  if (op->hasTrait<OpTrait::Elementwise>() ||
      op->hasTrait<OpTrait::tosa::TosaElementwiseOperator>())
    return true;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalg::isElementwise(linalgOp);
}

/// True if `v` is a constant every value of which the low type holds
/// exactly (a zero point, a one): rounding it is the identity, and ops that
/// need it constant (TOSA's zero points) keep it so.
bool isConstantExactIn(Value v, FloatType low) {
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return false;
  auto exact = [&](APFloat value) {
    bool losesInfo = false;
    value.convert(low.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
    return !losesInfo;
  };
  if (auto scalar = dyn_cast<FloatAttr>(attr))
    return exact(scalar.getValue());
  auto dense = dyn_cast<DenseFPElementsAttr>(attr);
  if (!dense)
    return false;
  if (dense.isSplat())
    return exact(dense.getSplatValue<APFloat>());
  return llvm::all_of(dense.getValues<APFloat>(), exact);
}

int64_t staticElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped)
    return isa<FloatType>(type) ? 1 : 0;
  return shaped.hasStaticShape() ? shaped.getNumElements() : 0;
}

/// Floating-point operations of one run of `op`, from static shapes: a
/// structured op's iterations times the float arithmetic of its body, a
/// contraction's results times its reduction size times two (a
/// multiply-add counts two), else its largest operand or result (a sum
/// adds each element once). Dynamic shapes count nothing.
int64_t estimateFlops(Operation *op, const OpDecision &decision) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
    int64_t iterations = 1;
    for (int64_t r : ranges) {
      if (ShapedType::isDynamic(r))
        return 0;
      iterations *= r;
    }
    int64_t arithmetic = 0;
    linalgOp->walk([&](Operation *inner) {
      if (inner != op && inner->getNumResults() == 1 &&
          isa<FloatType>(inner->getResult(0).getType()) &&
          !inner->hasTrait<OpTrait::ConstantLike>() &&
          !isa<arith::ExtFOp, arith::TruncFOp>(inner))
        ++arithmetic;
    });
    return iterations * std::max<int64_t>(arithmetic, 1);
  }
  int64_t results = 0, largest = 0;
  for (Type t : op->getResultTypes())
    results = std::max(results, staticElements(t));
  for (Type t : op->getOperandTypes())
    largest = std::max(largest, staticElements(t));
  bool contraction =
      getCategory(op, decision.lowType).category == Policy::Allow;
  if (contraction && decision.accumulation &&
      !ShapedType::isDynamic(decision.accumulation->reductionSize))
    return 2 * results * decision.accumulation->reductionSize;
  return std::max(results, largest);
}

struct EmulatePrecision : amp::impl::EmulatePrecisionBase<EmulatePrecision> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerAllExternalModels(registry);
    insertDecisionDialects(registry, target);
  }

  LogicalResult initialize(MLIRContext *ctx) override {
    return decisions.initialize(ctx, getDecisionOptionValues(*this),
                                "amp-emulate-precision");
  }

  void runOnOperation() override;
  LogicalResult writeGates(const EmulationGates &gates);

  DecisionSetup decisions;
  template <typename PassT>
  friend DecisionOptionValues
  mlir::amp::getDecisionOptionValues(const PassT &pass);
};

} // namespace

namespace {
/// An op the emulation rounds around, and its gate.
struct Site {
  Operation *op;
  const OpDecision *decision;
  unsigned gate;
};

/// The gates of `function` and the ops that round behind them.
struct GateCollection {
  EmulationGates gates;
  SmallVector<Site> sites, wideSites;
  llvm::DenseMap<Operation *, unsigned> gateOf;
};
} // namespace

static GateCollection collectGates(FunctionOpInterface function,
                                   const PrecisionAssignment &assignment) {
  GateCollection c;
  for (auto [op, decision] :
       llvm::zip(assignment.getOps(), assignment.getDecisions())) {
    if (!function->isProperAncestor(op))
      continue;
    bool computes = decision.mode == ComputeMode::Low ||
                    decision.mode == ComputeMode::WideAccumulator ||
                    decision.mode == ComputeMode::F32;
    // Moving low data keeps it low, and a consumer that computes low
    // rounds what it reads: only ops that compute get gates.
    if (!computes || movesDataOnly(op, decision.lowType))
      continue;
    int64_t flops = estimateFlops(op, decision);
    c.gates.totalFlops += flops;
    SmallVector<std::string> names = getLocationNames(op->getLoc());
    unsigned index = c.gates.gates.size();
    c.gates.gates.push_back({names.empty() ? std::string() : names.front(),
                             op->getName().getStringRef().str(), decision.mode,
                             flops, decision.category == Policy::Allow});
    if (decision.mode == ComputeMode::WideAccumulator)
      c.wideSites.push_back({op, &decision, index});
    if (decision.mode != ComputeMode::Low)
      continue;
    c.sites.push_back({op, &decision, index});
    c.gateOf[op] = index;
  }
  return c;
}

EmulationGates
mlir::amp::collectEmulationGates(FunctionOpInterface function,
                                 const PrecisionAssignment &assignment) {
  return collectGates(function, assignment).gates;
}

FailureOr<EmulationGates>
mlir::amp::emulatePrecisionAssignment(FunctionOpInterface function,
                                      const PrecisionAssignment &assignment,
                                      bool excessPrecision) {
  GateCollection c = collectGates(function, assignment);
  EmulationGates &gates = c.gates;
  SmallVector<Site> &sites = c.sites, &wideSites = c.wideSites;
  llvm::DenseMap<Operation *, unsigned> &gateOf = c.gateOf;
  llvm::DenseMap<unsigned, Value> flagValues;
  if (!sites.empty()) {
    MLIRContext *ctx = function->getContext();
    auto gatesType = RankedTensorType::get({int64_t(gates.gates.size())},
                                           Float32Type::get(ctx));
    gates.argument = function.getNumArguments();
    if (failed(function.insertArgument(gates.argument, gatesType,
                                       DictionaryAttr::get(ctx),
                                       function.getLoc())))
      return failure();
    Block &body = function.getFunctionBody().front();
    Value gatesArg = body.getArgument(gates.argument);
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    Location loc = function.getLoc();
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    llvm::DenseMap<unsigned, Value> &flags = flagValues;
    for (const Site &site : sites) {
      Value index = arith::ConstantIndexOp::create(b, loc, site.gate);
      Value g = tensor::ExtractOp::create(b, loc, gatesArg, ValueRange{index});
      flags[site.gate] =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, g, zero);
    }

    // An op that computes low reads its float operands low (except
    // accumulators kept wider than the low type, a contraction's f32 outs)
    // and stores the results the converted program stores low: all behind
    // its gate.
    // With excess precision, a chain of low elementwise ops computes in
    // f32 and rounds only where a value enters it from elsewhere or leaves
    // it: between two such ops a value is rounded when exactly one of them
    // is low.
    auto chained = [&](Operation *op) {
      return excessPrecision && op && gateOf.count(op) && isElementwise(op);
    };
    for (const Site &site : sites) {
      Operation *op = site.op;
      const OpDecision &d = *site.decision;
      Value flag = flags[site.gate];
      FloatType acc = d.accType, low = d.lowType;
      bool wideAcc = acc && acc.getWidth() > low.getWidth();
      bool inChain = chained(op);
      // An operand read twice (x * x) is rounded once.
      llvm::DenseMap<Value, Value> roundedOperands;
      for (OpOperand &use : op->getOpOperands()) {
        unsigned k = use.getOperandNumber();
        if (k >= d.dataOperands.size() || !d.dataOperands.test(k) ||
            !getRoundableF32(use.get().getType()))
          continue;
        if (wideAcc && d.accumulation &&
            llvm::is_contained(d.accumulation->accumulatorOperands, k))
          continue;
        if (isConstantExactIn(use.get(), d.lowType))
          continue;
        if (Value done = roundedOperands.lookup(use.get())) {
          use.set(done);
          continue;
        }
        b.setInsertionPoint(op);
        Value useFlag = flag;
        Operation *producer = use.get().getDefiningOp();
        if (inChain && chained(producer) && gateOf[producer] != site.gate)
          useFlag = arith::XOrIOp::create(b, op->getLoc(),
                                          flags[gateOf[producer]], flag);
        else if (inChain && chained(producer))
          continue;
        Value original = use.get();
        use.set(roundIf(b, op->getLoc(), original, useFlag, d.lowType));
        roundedOperands[original] = use.get();
      }
      for (OpResult result : op->getResults()) {
        unsigned k = result.getResultNumber();
        if (k >= d.dataResults.size() || !d.dataResults.test(k) ||
            !getRoundableF32(result.getType()) ||
            getElementTypeOrSelf(assignment.getAssignedType(result)) !=
                d.lowType)
          continue;
        b.setInsertionPointAfter(op);
        Value rounded = roundIf(b, op->getLoc(), result, flag, d.lowType);
        Operation *rounding = rounded.getDefiningOp();
        // In a chain, the ops of the chain read the value as it is (they
        // round it at their operands); everyone else reads it rounded.
        result.replaceUsesWithIf(rounded, [&](OpOperand &u) {
          return !rounding->isAncestor(u.getOwner()) &&
                 !(inChain && chained(u.getOwner()));
        });
        if (rounded.use_empty())
          eraseUnusedRounding(rounding);
      }
    }
  }

  // A sum that reads low inputs into an f32 accumulator is no choice of
  // its own: what it reads is low when its producer is. It rounds an
  // operand the converted program reads low behind the producer's gate,
  // always for a constant or an argument, and never for a value carried
  // through control flow (rounded, if at all, where it was made).
  OpBuilder b(function->getContext());
  Value alwaysOn;
  for (const Site &site : wideSites) {
    Operation *op = site.op;
    const OpDecision &d = *site.decision;
    for (OpOperand &use : op->getOpOperands()) {
      unsigned k = use.getOperandNumber();
      if (k >= d.dataOperands.size() || !d.dataOperands.test(k) ||
          !getRoundableF32(use.get().getType()) ||
          getElementTypeOrSelf(assignment.getAssignedType(use)) != d.lowType)
        continue;
      if ((d.accumulation &&
           llvm::is_contained(d.accumulation->accumulatorOperands, k)) ||
          isConstantExactIn(use.get(), d.lowType))
        continue;
      Operation *producer = use.get().getDefiningOp();
      Value flag;
      if (producer && gateOf.count(producer)) {
        flag = flagValues[gateOf[producer]];
      } else if (producer ? producer->hasTrait<OpTrait::ConstantLike>()
                          : cast<BlockArgument>(use.get()).getOwner() ==
                                &function.getFunctionBody().front()) {
        if (!alwaysOn) {
          b.setInsertionPointToStart(&function.getFunctionBody().front());
          alwaysOn = arith::ConstantIntOp::create(b, function.getLoc(), 1, 1);
        }
        flag = alwaysOn;
      } else {
        continue;
      }
      b.setInsertionPoint(op);
      use.set(roundIf(b, op->getLoc(), use.get(), flag, d.lowType));
    }
  }

  return gates;
}

void EmulatePrecision::runOnOperation() {
  ModuleOp module = getOperation();
  auto function = dyn_cast_if_present<FunctionOpInterface>(
      SymbolTable::lookupSymbolIn(module, entry));
  if (!function || function.isExternal()) {
    mlir::emitError(module.getLoc())
        << "amp-emulate-precision: no function @" << entry
        << " with a body (entry=" << entry << ")";
    return signalPassFailure();
  }
  AnalysisRun run;
  FailureOr<PrecisionAssignment> assignment =
      decisions.analyze(module, /*describeRanges=*/false,
                        /*changeSignatures=*/true, run);
  if (failed(assignment))
    return signalPassFailure();
  FailureOr<EmulationGates> gates =
      gatesOnly
          ? collectEmulationGates(function, *assignment)
          : emulatePrecisionAssignment(function, *assignment, excessPrecision);
  if (failed(gates) || failed(writeGates(*gates)))
    return signalPassFailure();
}

LogicalResult EmulatePrecision::writeGates(const EmulationGates &gates) {
  if (gatesFile.empty())
    return success();
  std::string error;
  auto out = openOutputFile(gatesFile, &error);
  if (!out)
    // Located at the module, without printing it.
    return mlir::emitError(getOperation().getLoc())
           << "amp-emulate-precision: cannot write gates: " << error;
  {
    llvm::json::OStream json(out->os(), /*IndentSize=*/2);
    json.object([&] {
      json.attribute("version", int64_t(1));
      json.attribute("entry", entry);
      json.attribute("argument", int64_t(gates.argument));
      json.attribute("total-flops", gates.totalFlops);
      json.attributeArray("gates", [&] {
        for (const EmulationGate &gate : gates.gates)
          json.object([&] {
            json.attribute("loc", gate.loc);
            json.attribute("op", gate.opName);
            json.attribute("mode", stringifyComputeMode(gate.mode));
            json.attribute("allow", gate.allow);
            json.attribute("flops", gate.flops);
          });
      });
    });
  }
  out->os() << "\n";
  out->keep();
  return success();
}

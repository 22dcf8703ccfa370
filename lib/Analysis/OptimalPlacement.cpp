//===- OptimalPlacement.cpp - Fewest bytes moved, by a minimum cut --------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// placement=optimal: free groups and the modes of follow and
// wide-accumulator ops are variables of a labelling problem (low or f32)
// whose cost is the bytes casts move plus the extra bytes of values kept in
// f32; the problem is submodular, so a minimum cut solves it exactly
// (PlacementProblem.h). Three steps: build the problem from the decisions,
// solve it, apply its labels to the groups and ops.
//
//===----------------------------------------------------------------------===//

#include "AssignmentImpl.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::assignment;

namespace {

/// The bytes a cast of a value of f32 (or complex<f32>) type `type` to
/// `low` moves, reading one and writing the other; and the bytes each access
/// of the value moves more when it is kept in f32.
std::pair<int64_t, int64_t> castAndExtraBytes(Type type, FloatType low) {
  int64_t wide = bytesOf(type);
  int64_t narrow = bytesOf(withFloatElementType(type, low));
  return {wide + narrow, wide - narrow};
}

/// Whether `op` becomes a view of its operand's storage when bufferized
/// (reshapes, shape casts, slices): neither it nor what it reads moves
/// bytes, so a value it makes costs nothing to keep in f32.
bool becomesView(Operation *op) {
  return isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp,
             tensor::ExtractSliceOp, tosa::ReshapeOp>(op);
}

/// A data operand an op reads: the value, the type the op reads it in, and
/// whether the read moves its bytes.
struct Read {
  unsigned value;
  PlacementProblem::Label label;
  bool movesBytes;
};

} // namespace

PlacementProblem
PrecisionAssignment::Impl::buildPlacementProblem(PlacementVariables &vars) {
  using Label = PlacementProblem::Label;
  PlacementProblem problem;
  std::vector<int> &groupVar = vars.groupVar;
  std::vector<FloatType> &varLowType = vars.lowType;
  groupVar.assign(values.size(), -1);
  auto newVar = [&](FloatType low) {
    varLowType.push_back(low);
    return int(problem.addVariable());
  };
  auto labelOfValue = [&](Value v, FloatType low) -> Label {
    std::optional<unsigned> g = group(v);
    if (!g || entryCast.contains(v) || states[*g].state == State::F32)
      return {-1, false};
    if (states[*g].state == State::Low)
      return {-1, true};
    int &var = groupVar[*g];
    if (var < 0)
      var = newVar(low);
    return {var, false};
  };

  // Which label each op gives the data operands it reads, as (value id,
  // label) pairs grouped by value below.
  std::vector<Read> reads;
  DenseSet<Value> sinkValues(f32Sinks.begin(), f32Sinks.end());
  std::vector<int> &opVar = vars.opVar;
  opVar.assign(ops.size(), -1);
  for (auto [idx, op] : llvm::enumerate(ops)) {
    OpDecision &d = decisions[idx];
    Label low{-1, true}, wide{-1, false};
    Label self = low;
    bool movesBytes = !becomesView(op);
    if (d.follows || d.mode == ComputeMode::WideAccumulator) {
      // The op's own label: its result group's for a follow op.
      std::optional<Label> resultLabel;
      if (d.follows)
        for (OpResult r : op->getResults())
          if (d.dataResults[r.getResultNumber()] && valueIds.count(r)) {
            Label l = labelOfValue(r, d.lowType);
            if (!resultLabel)
              resultLabel = l;
            else if (l.var >= 0 && resultLabel->var >= 0)
              problem.equal.push_back(
                  {unsigned(l.var), unsigned(resultLabel->var)});
          }
      self = resultLabel ? *resultLabel : Label{newVar(d.lowType), false};
      opVar[idx] = self.var;
      if (self.var < 0 && !self.low) {
        d.mode = ComputeMode::F32;
        d.reason += "; its result is f32";
      }
    }
    const std::optional<AccumulationInfo> &acc = d.accumulation;
    bool wideAcc = d.accType && d.accType.getWidth() > d.lowType.getWidth();
    for (OpOperand &operand : op->getOpOperands()) {
      unsigned i = operand.getOperandNumber();
      Value v = operand.get();
      auto dest = operandDest.find(&operand);
      if (dest != operandDest.end()) {
        if (valueIds.count(v))
          reads.push_back({valueIds.lookup(v),
                           labelOfValue(dest->second, d.lowType), movesBytes});
        continue;
      }
      if (!d.dataOperands.empty() && !d.dataOperands[i] &&
          d.mode != ComputeMode::Carrier)
        continue;
      auto idIt = valueIds.find(v);
      if (idIt == valueIds.end())
        continue;
      bool isAcc = acc && llvm::is_contained(acc->accumulatorOperands, i);
      unsigned id = idIt->second;
      switch (d.mode) {
      case ComputeMode::Carrier:
        if (sinkValues.contains(v))
          reads.push_back({id, wide, movesBytes});
        break;
      case ComputeMode::Low:
        reads.push_back({id,
                         d.follows          ? self
                         : isAcc && wideAcc ? wide
                                            : low,
                         movesBytes});
        break;
      case ComputeMode::WideAccumulator:
        reads.push_back({id, isAcc ? wide : self, movesBytes});
        break;
      case ComputeMode::F32:
      case ComputeMode::Untouched:
        reads.push_back({id, wide, movesBytes});
        break;
      case ComputeMode::Constant:
        break;
      }
    }
    // An op writing a buffer of the other type writes it through a copy.
    if (getBufferRole(op) == BufferRole::Compute)
      for (OpOperand &init :
           cast<DestinationStyleOpInterface>(op).getDpsInitsMutable()) {
        if (!valueIds.count(init.get()))
          continue;
        bool isAcc = acc && llvm::is_contained(acc->accumulatorOperands,
                                               init.getOperandNumber());
        Label writes =
            d.mode == ComputeMode::F32 || d.mode == ComputeMode::Untouched ||
                    (isAcc &&
                     (wideAcc || d.mode == ComputeMode::WideAccumulator))
                ? wide
            : d.follows || d.mode == ComputeMode::WideAccumulator ? self
                                                                  : low;
        problem.casts.push_back(
            {writes,
             {labelOfValue(init.get(), d.lowType)},
             castAndExtraBytes(init.get().getType(), d.lowType).first});
      }
  }

  // Casts: one per value and direction when some reader wants the other
  // type. Constants and empty tensors are converted for free.
  const std::vector<Value> &valueOf = values;
  problem.casts.reserve(problem.casts.size() + valueOf.size());
  llvm::stable_sort(
      reads, [](const Read &a, const Read &b) { return a.value < b.value; });
  for (size_t i = 0; i < reads.size();) {
    size_t j = i;
    SmallVector<Label, 2> readers;
    int64_t accesses = 0;
    for (; j < reads.size() && reads[j].value == reads[i].value; ++j) {
      readers.push_back(reads[j].label);
      accesses += reads[j].movesBytes;
    }
    Value v = valueOf[reads[i].value];
    i = j;
    if (isConstantValue(v) && !entryCast.contains(v))
      continue;
    Label producer = labelOfValue(v, options->lowType);
    auto [castBytes, extraBytes] =
        castAndExtraBytes(v.getType(), options->lowType);
    // A value kept f32 is written once and read by each reader at the
    // wider width, except where it is a view (written by no one) or read
    // into one.
    if (producer.var >= 0 && isa<OpResult>(v)) {
      accesses += !becomesView(v.getDefiningOp());
      problem.costIfF32[producer.var] += extraBytes * accesses;
    }
    problem.casts.push_back({producer, std::move(readers), castBytes});
  }

  return problem;
}

void PrecisionAssignment::Impl::applyPlacement(const PlacementVariables &vars,
                                               const std::vector<bool> &low) {
  for (auto [g, var] : llvm::enumerate(vars.groupVar))
    if (var >= 0)
      states[g] = low[var] ? GroupState{State::Low, vars.lowType[var]}
                           : GroupState{State::F32, {}};
  for (unsigned g = 0, e = states.size(); g < e; ++g)
    if (find(g) == g && states[g].state == State::Free)
      states[g] = {State::F32, {}};
  for (auto [idx, d] : llvm::enumerate(decisions)) {
    if (!d.follows && d.mode != ComputeMode::WideAccumulator)
      continue;
    if (d.mode == ComputeMode::F32)
      continue;
    int var = vars.opVar[idx];
    bool isLow = var >= 0 ? low[var] : true;
    if (isLow) {
      d.reason += "; low: fewest bytes moved";
      continue;
    }
    d.reason += d.mode == ComputeMode::WideAccumulator
                    ? "; f32: its inputs are cheaper read in f32"
                    : "; f32: fewest bytes moved";
    d.mode = ComputeMode::F32;
  }
}

void PrecisionAssignment::Impl::placeOptimally(Operation *root) {
  PlacementVariables vars;
  PlacementProblem problem = buildPlacementProblem(vars);
  PlacementProblem::Solution solution = problem.solve();
  if (options->placementObserver)
    options->placementObserver(root, problem, solution);
  applyPlacement(vars, solution.low);
}

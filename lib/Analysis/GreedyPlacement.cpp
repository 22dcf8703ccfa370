//===- GreedyPlacement.cpp - TVM's forward rule ---------------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Steps 3 and 4 of the precision assignment with placement=greedy (and the
// fixed-state propagation the optimal placement starts from).
//
//===----------------------------------------------------------------------===//

#include "AssignmentImpl.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::assignment;

//===----------------------------------------------------------------------===//
// Steps 3 and 4: states
//===----------------------------------------------------------------------===//

void PrecisionAssignment::Impl::propagate(bool fixedOnly) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto [op, d] : llvm::zip(ops, decisions)) {
      GroupState out;
      switch (d.mode) {
      case ComputeMode::Low:
        if (d.follows && fixedOnly)
          continue;
        if (d.follows) {
          for (OpOperand &operand : op->getOpOperands())
            if (d.dataOperands[operand.getOperandNumber()] &&
                !isConstantValue(operand.get()))
              out = join(out, stateOf(operand.get()).state == State::Free
                                  ? GroupState{}
                                  : stateOf(operand.get()));
        } else {
          out = {State::Low, d.lowType};
        }
        break;
      case ComputeMode::WideAccumulator:
      case ComputeMode::F32:
        out = {State::F32, {}};
        break;
      default:
        continue;
      }
      for (OpResult r : op->getResults()) {
        if (!d.dataResults[r.getResultNumber()])
          continue;
        // For the optimal placement a wide accumulator result is an f32
        // value: rounding it for low users is one more cast to place.
        bool wideResult = fixedOnly && d.mode == ComputeMode::Low &&
                          d.accumulation &&
                          llvm::is_contained(d.accumulation->accumulatorResults,
                                             r.getResultNumber()) &&
                          d.accType.getWidth() > d.lowType.getWidth();
        changed |= contribute(r, wideResult ? GroupState{State::F32, {}} : out);
      }
      // An op on buffers produces into its init buffers. For the optimal
      // placement a wide accumulator is left to the cut (its buffer may be
      // low, accumulated through an f32 copy).
      if (getBufferRole(op) == BufferRole::Compute)
        for (OpOperand &init :
             cast<DestinationStyleOpInterface>(op).getDpsInitsMutable()) {
          bool wideInit =
              fixedOnly && d.accumulation &&
              llvm::is_contained(d.accumulation->accumulatorOperands,
                                 init.getOperandNumber()) &&
              d.accType.getWidth() > d.lowType.getWidth();
          if (!wideInit)
            changed |= contribute(init.get(), out);
        }
    }
  }
}

void PrecisionAssignment::Impl::resolveFreeGroups() {
  // One sweep against program order: when an op is visited, every user of
  // its results has been, so its free result groups take what their users
  // want; then the op states what it wants of its own free inputs.
  DenseMap<unsigned, GroupState> wants;
  auto want = [&](Value v, GroupState s) {
    std::optional<unsigned> g = group(v);
    if (g && states[*g].state == State::Free && s.state != State::Free)
      wants[*g] = join(wants.lookup(*g), s);
  };
  auto resolve = [&](Value v) {
    std::optional<unsigned> g = group(v);
    if (!g || states[*g].state != State::Free)
      return;
    auto it = wants.find(*g);
    if (it != wants.end())
      states[*g] = it->second;
  };
  // Fixed f32 signatures want f32: with nothing else asking, a value that
  // only leaves the function is computed in f32, not rounded on the way.
  for (Value v : f32Sinks)
    want(v, {State::F32, {}});
  for (size_t idx = ops.size(); idx-- > 0;) {
    Operation *op = ops[idx];
    const OpDecision &d = decisions[idx];
    for (Value r : op->getResults())
      resolve(r);
    const std::optional<AccumulationInfo> &acc = d.accumulation;
    GroupState low{State::Low, d.lowType};
    FloatType accType = d.accType, lowType = d.lowType;
    GroupState wide = accType && accType.getWidth() > lowType.getWidth()
                          ? GroupState{State::F32, {}}
                          : low;
    // A follow op wants what its decided inputs make it, or else what its
    // users made its result.
    GroupState followState;
    if (d.follows) {
      for (OpOperand &operand : op->getOpOperands())
        if (d.dataOperands[operand.getOperandNumber()] &&
            !isConstantValue(operand.get()))
          followState = join(followState, stateOf(operand.get()));
      if (followState.state == State::Free)
        for (OpResult r : op->getResults())
          if (valueIds.count(r))
            followState = join(followState, stateOf(r));
    }
    for (OpOperand &operand : op->getOpOperands()) {
      unsigned i = operand.getOperandNumber();
      if (!d.dataOperands[i])
        continue;
      bool isAcc = acc && llvm::is_contained(acc->accumulatorOperands, i);
      switch (d.mode) {
      case ComputeMode::Low:
        want(operand.get(), d.follows ? followState : (isAcc ? wide : low));
        break;
      case ComputeMode::WideAccumulator:
        want(operand.get(), isAcc ? GroupState{State::F32, {}} : low);
        break;
      case ComputeMode::F32:
      case ComputeMode::Untouched:
        want(operand.get(), {State::F32, {}});
        break;
      default:
        break;
      }
    }
  }
  // Block arguments and values no user asked about.
  for (auto [g, s] : wants)
    if (states[g].state == State::Free)
      states[g] = s;
  // Nobody decided: f32 loses nothing and costs no cast here.
  for (unsigned g = 0, e = states.size(); g < e; ++g)
    if (find(g) == g && states[g].state == State::Free)
      states[g] = {State::F32, {}};
}

void PrecisionAssignment::Impl::finalizeFollowOps() {
  for (auto [op, d] : llvm::zip(ops, decisions)) {
    if (d.mode != ComputeMode::WideAccumulator && !d.follows)
      continue;
    bool wideAcc = d.mode == ComputeMode::WideAccumulator;
    const std::optional<AccumulationInfo> &acc = d.accumulation;
    // A follow op runs low when its decided inputs are all low (constants,
    // empty tensors and fixed arguments decide nothing); with none, its
    // result's group decides. A wide-accumulator op reads low inputs only
    // when they are low already: rounding an f32 argument into an f32
    // accumulator would only lose accuracy.
    bool allLow = true, anyInput = false;
    for (OpOperand &operand : op->getOpOperands()) {
      unsigned i = operand.getOperandNumber();
      if (!d.dataOperands[i] || !valueIds.count(operand.get()))
        continue;
      if (wideAcc && acc && llvm::is_contained(acc->accumulatorOperands, i))
        continue;
      Value v = operand.get();
      bool isConstant = isMaterializable(v);
      if (isConstant || (!wideAcc && entryCast.contains(v)))
        continue;
      GroupState s =
          entryCast.contains(v) ? GroupState{State::F32, {}} : stateOf(v);
      anyInput = true;
      allLow &= s.state == State::Low && s.low == d.lowType;
    }
    bool resultsLow = true;
    if (d.follows)
      for (OpResult r : op->getResults()) {
        if (!d.dataResults[r.getResultNumber()] || !valueIds.count(r))
          continue;
        GroupState s = stateOf(r);
        resultsLow &= s.state == State::Low && s.low == d.lowType;
      }
    bool low = (anyInput ? allLow : !wideAcc) && resultsLow;
    if (low) {
      d.reason += anyInput ? "; its inputs are low" : "; its users are low";
      continue;
    }
    d.reason += wideAcc ? "; its inputs are f32, so it stays f32"
                        : "; follows an f32 input or result";
    d.mode = ComputeMode::F32;
  }
}

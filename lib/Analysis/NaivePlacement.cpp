//===- NaivePlacement.cpp - Casts around every allow op -------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "AssignmentImpl.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::assignment;

void PrecisionAssignment::Impl::placeNaively() {
  // Only allow ops run low, each wrapped in its own casts: its inputs are
  // cast down and its low result cast back up for the f32 ops around it.
  // A group an allow op produces is low unless it must be f32: a fixed
  // signature or cast result is in it, or an op that stays f32 produces
  // into it too (the other branch of an scf.if, a loop's init). Such an
  // op keeps its f32 result, and the allow op's result is widened instead.
  SmallVector<bool> pinned(states.size(), false);
  for (unsigned g = 0, e = states.size(); g < e; ++g)
    if (find(g) == g) {
      pinned[g] = states[g].state == State::F32;
      states[g] = {State::F32, {}};
    }
  auto pin = [&](Value v) {
    if (std::optional<unsigned> g = group(v))
      pinned[*g] = true;
  };
  SmallVector<std::pair<unsigned, FloatType>> lowGroups;
  for (auto [op, d] : llvm::zip(ops, decisions)) {
    if (d.follows || d.mode == ComputeMode::WideAccumulator) {
      d.mode = ComputeMode::F32;
      d.reason += "; naive placement keeps it f32";
    }
    if (d.mode == ComputeMode::Untouched)
      continue;
    for (OpResult r : op->getResults()) {
      if (!d.dataResults[r.getResultNumber()])
        continue;
      if (d.mode != ComputeMode::Low)
        pin(r);
      else if (std::optional<unsigned> g = group(r))
        lowGroups.push_back({*g, d.lowType});
    }
    if (d.mode != ComputeMode::Low && getBufferRole(op) == BufferRole::Compute)
      for (Value init : cast<DestinationStyleOpInterface>(op).getDpsInits())
        pin(init);
  }
  for (auto [g, low] : lowGroups)
    if (!pinned[g])
      states[g] = {State::Low, low};
}

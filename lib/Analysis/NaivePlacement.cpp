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
  for (unsigned g = 0, e = states.size(); g < e; ++g)
    if (find(g) == g)
      states[g] = {State::F32, {}};
  for (auto [op, d] : llvm::zip(ops, decisions)) {
    if (d.follows || d.mode == ComputeMode::WideAccumulator) {
      d.mode = ComputeMode::F32;
      d.reason += "; naive placement keeps it f32";
      continue;
    }
    if (d.mode != ComputeMode::Low)
      continue;
    for (OpResult r : op->getResults())
      if (d.dataResults[r.getResultNumber()])
        if (std::optional<unsigned> g = group(r))
          states[*g] = {State::Low, d.lowType};
  }
}

//===- PlacementProblem.h - Where casts go, as a labelling problem -*- C++
//-*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// placement=optimal states cast placement as a labelling problem: each
// variable (a free group of values, or the mode of a follow or
// wide-accumulator op) is labelled low or f32; a labelling costs the bytes
// its casts move plus the extra bytes of values kept f32. The problem is
// submodular, so a minimum cut solves it exactly (solve()). Its energy
// function states the cost directly, so that tests can check the cut
// against every labelling (amp-test-check-optimality).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_PLACEMENTPROBLEM_H
#define AMP_ANALYSIS_PLACEMENTPROBLEM_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace mlir {
namespace amp {

struct PlacementProblem {
  /// A variable, or a fixed label (var < 0).
  struct Label {
    int var = -1;
    bool low = false;
  };
  /// A cast of one value: paid once when the producer is f32 and some
  /// consumer low, once when it is low and some consumer f32.
  struct CastTerm {
    Label producer;
    /// Most values have one or two readers.
    llvm::SmallVector<Label, 2> consumers;
    int64_t cost;
  };
  unsigned numVars = 0;
  /// The bytes a variable costs when it is labelled f32.
  std::vector<int64_t> costIfF32;
  /// Variables that must take the same label.
  std::vector<std::pair<unsigned, unsigned>> equal;
  std::vector<CastTerm> casts;

  /// The labels of a solution (true: low) and the bytes it moves.
  struct Solution {
    std::vector<bool> low;
    int64_t cost = 0;
  };

  /// A new variable costing nothing yet.
  unsigned addVariable() {
    costIfF32.push_back(0);
    return numVars++;
  }
  static bool labelOf(Label l, const std::vector<bool> &low) {
    return l.var >= 0 ? low[l.var] : l.low;
  }
  /// The bytes a labelling moves (casts plus values kept wide); "infinite"
  /// (MinCutGraph::kInfinity) when it breaks an equality.
  int64_t energy(const std::vector<bool> &low) const;
  /// The labelling of least energy, by a minimum cut (source side = low).
  Solution solve() const;
};

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_PLACEMENTPROBLEM_H

//===- PlacementProblem.cpp - Cast placement by a minimum cut -------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/PlacementProblem.h"
#include "amp/Analysis/MinCut.h"

#include "mlir/Support/LLVM.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::amp;

int64_t PlacementProblem::energy(const std::vector<bool> &low) const {
  int64_t e = 0;
  for (auto [a, b] : equal)
    if (low[a] != low[b])
      return MinCutGraph::kInfinity;
  for (unsigned v = 0; v < numVars; ++v)
    if (!low[v])
      e += costIfF32[v];
  for (const CastTerm &t : casts) {
    bool p = labelOf(t.producer, low);
    bool toLow = false, toWide = false;
    for (Label c : t.consumers) {
      bool cl = labelOf(c, low);
      toLow |= !p && cl;
      toWide |= p && !cl;
    }
    e += (toLow ? t.cost : 0) + (toWide ? t.cost : 0);
  }
  return e;
}

PlacementProblem::Solution PlacementProblem::solve() const {
  // The minimum cut: source side = low.
  MinCutGraph graph;
  // About one edge per variable and equality, and two per cast term.
  graph.reserve(2 + numVars + casts.size(),
                numVars + 2 * equal.size() + 2 * casts.size());
  std::vector<unsigned> node(numVars);
  for (unsigned v = 0; v < numVars; ++v)
    node[v] = graph.addNode();
  auto nodeOf = [&](Label l) {
    return l.var >= 0 ? node[l.var]
                      : (l.low ? MinCutGraph::kSource : MinCutGraph::kSink);
  };
  auto edge = [&](unsigned from, unsigned to, int64_t cap) {
    if (from == MinCutGraph::kSink || to == MinCutGraph::kSource)
      return;
    graph.addEdge(from, to, cap);
  };
  for (unsigned v = 0; v < numVars; ++v)
    edge(MinCutGraph::kSource, node[v], costIfF32[v]);
  for (auto [a, b] : equal) {
    edge(node[a], node[b], MinCutGraph::kInfinity);
    edge(node[b], node[a], MinCutGraph::kInfinity);
  }
  // Terms between fixed labels cost the same in every labelling.
  int64_t constantCost = 0;
  for (const CastTerm &t : casts) {
    unsigned p = nodeOf(t.producer);
    SmallVector<unsigned, 4> readers;
    for (Label c : t.consumers)
      if (nodeOf(c) != p && !llvm::is_contained(readers, nodeOf(c)))
        readers.push_back(nodeOf(c));
    bool variable =
        p > MinCutGraph::kSink || llvm::any_of(readers, [](unsigned n) {
          return n > MinCutGraph::kSink;
        });
    if (!variable) {
      constantCost += (p == MinCutGraph::kSink &&
                       llvm::is_contained(readers, MinCutGraph::kSource))
                          ? t.cost
                          : 0;
      constantCost += (p == MinCutGraph::kSource &&
                       llvm::is_contained(readers, MinCutGraph::kSink))
                          ? t.cost
                          : 0;
      continue;
    }
    // Paid when the producer is f32 and some reader low: one reader is an
    // edge; several go through an auxiliary node that is low as soon as one
    // of them is.
    if (p != MinCutGraph::kSource) {
      SmallVector<unsigned, 4> lowReaders;
      for (unsigned c : readers)
        if (c != MinCutGraph::kSink)
          lowReaders.push_back(c);
      if (lowReaders.size() == 1) {
        edge(lowReaders[0], p, t.cost);
      } else if (!lowReaders.empty()) {
        unsigned a = graph.addNode();
        for (unsigned c : lowReaders)
          edge(c, a, MinCutGraph::kInfinity);
        edge(a, p, t.cost);
      }
    }
    // Paid when the producer is low and some reader f32.
    if (p != MinCutGraph::kSink) {
      SmallVector<unsigned, 4> wideReaders;
      for (unsigned c : readers)
        if (c != MinCutGraph::kSource)
          wideReaders.push_back(c);
      if (wideReaders.size() == 1) {
        edge(p, wideReaders[0], t.cost);
      } else if (!wideReaders.empty()) {
        unsigned b = graph.addNode();
        for (unsigned c : wideReaders)
          edge(b, c, MinCutGraph::kInfinity);
        edge(p, b, t.cost);
      }
    }
  }
  Solution solution;
  solution.cost = graph.solve() + constantCost;
  solution.low.resize(numVars);
  for (unsigned v = 0; v < numVars; ++v)
    solution.low[v] = graph.onSourceSide(node[v]);
  return solution;
}

//===- MinCut.h - s-t minimum cut for binary labelling ----------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A small max-flow / min-cut solver (Dinic's algorithm) used to place casts
// optimally: a binary labelling whose pairwise costs are submodular is
// solved exactly by one minimum cut.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_MINCUT_H
#define AMP_ANALYSIS_MINCUT_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <vector>

namespace mlir {
namespace amp {

class MinCutGraph {
public:
  static constexpr unsigned kSource = 0;
  static constexpr unsigned kSink = 1;
  /// A capacity no finite cut reaches.
  static constexpr int64_t kInfinity = int64_t(1) << 50;

  MinCutGraph() : adjacency(2) {}

  unsigned addNode() {
    adjacency.emplace_back();
    return adjacency.size() - 1;
  }
  unsigned numNodes() const { return adjacency.size(); }
  /// Room for `nodes` nodes and `edges` edges, to build without regrowing.
  void reserve(size_t nodes, size_t edges) {
    adjacency.reserve(nodes);
    this->edges.reserve(2 * edges);
  }
  /// A directed edge `from -> to`, cut (and paid) when `from` ends on the
  /// source side and `to` on the sink side.
  void addEdge(unsigned from, unsigned to, int64_t capacity);

  /// Computes a maximum flow, which equals the minimum cut's cost.
  int64_t solve();
  /// After solve(): true if `node` is on the source side of the minimum cut
  /// with the largest source side (ties go to the source).
  bool onSourceSide(unsigned node) const { return sourceSide[node]; }

private:
  struct Edge {
    unsigned to;
    int64_t capacity;
  };
  bool buildLevels();
  int64_t augment();

  std::vector<Edge> edges;
  /// Most nodes have a handful of edges: kept inline.
  std::vector<llvm::SmallVector<unsigned, 4>> adjacency;
  std::vector<int> level;
  std::vector<unsigned> nextEdge;
  std::vector<bool> sourceSide;
};

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_MINCUT_H

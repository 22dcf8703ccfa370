//===- MinCut.cpp - s-t minimum cut for binary labelling ------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/MinCut.h"

#include <algorithm>
#include <deque>

using namespace mlir::amp;

void MinCutGraph::addEdge(unsigned from, unsigned to, int64_t capacity) {
  if (capacity <= 0 || from == to)
    return;
  adjacency[from].push_back(edges.size());
  edges.push_back({to, capacity});
  adjacency[to].push_back(edges.size());
  edges.push_back({from, 0});
}

bool MinCutGraph::buildLevels() {
  level.assign(adjacency.size(), -1);
  std::deque<unsigned> queue{kSource};
  level[kSource] = 0;
  while (!queue.empty()) {
    unsigned node = queue.front();
    queue.pop_front();
    for (unsigned e : adjacency[node])
      if (edges[e].capacity > 0 && level[edges[e].to] < 0) {
        level[edges[e].to] = level[node] + 1;
        queue.push_back(edges[e].to);
      }
  }
  return level[kSink] >= 0;
}

// One augmenting path in the level graph, searched iteratively (paths can be
// as long as the program): returns the flow pushed, 0 when none is left.
int64_t MinCutGraph::augment() {
  std::vector<unsigned> path;
  unsigned node = kSource;
  while (true) {
    if (node == kSink) {
      int64_t bottleneck = kInfinity;
      for (unsigned e : path)
        bottleneck = std::min(bottleneck, edges[e].capacity);
      for (unsigned e : path) {
        edges[e].capacity -= bottleneck;
        edges[e ^ 1].capacity += bottleneck;
      }
      return bottleneck;
    }
    bool advanced = false;
    for (unsigned &i = nextEdge[node]; i < adjacency[node].size(); ++i) {
      unsigned e = adjacency[node][i];
      if (edges[e].capacity > 0 && level[edges[e].to] == level[node] + 1) {
        path.push_back(e);
        node = edges[e].to;
        advanced = true;
        break;
      }
    }
    if (advanced)
      continue;
    // A dead end: never enter this node again in this phase, and retreat.
    if (node == kSource)
      return 0;
    level[node] = -1;
    unsigned e = path.back();
    path.pop_back();
    node = edges[e ^ 1].to;
    ++nextEdge[node];
  }
}

int64_t MinCutGraph::solve() {
  int64_t flow = 0;
  while (buildLevels()) {
    nextEdge.assign(adjacency.size(), 0);
    while (int64_t pushed = augment())
      flow += pushed;
  }
  // The largest source side: every node that cannot reach the sink in the
  // residual graph (search backwards from the sink).
  std::vector<bool> reachesSink(adjacency.size(), false);
  std::deque<unsigned> queue{kSink};
  reachesSink[kSink] = true;
  while (!queue.empty()) {
    unsigned node = queue.front();
    queue.pop_front();
    for (unsigned e : adjacency[node]) {
      // edges[e ^ 1] goes from edges[e].to to node; it has residual capacity
      // when edges[e ^ 1].capacity > 0.
      unsigned from = edges[e].to;
      if (!reachesSink[from] && edges[e ^ 1].capacity > 0) {
        reachesSink[from] = true;
        queue.push_back(from);
      }
    }
  }
  sourceSide.assign(adjacency.size(), false);
  for (unsigned n = 0; n < adjacency.size(); ++n)
    sourceSide[n] = !reachesSink[n];
  return flow;
}

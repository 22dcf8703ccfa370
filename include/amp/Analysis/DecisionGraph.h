//===- DecisionGraph.h - The decisions as a Graphviz picture ----*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `mixed-precision{graph=out.dot}`: each function's dataflow as a Graphviz
// digraph, drawn from the precision assignment before the rewrite. Ops are
// boxes coloured by how they run (low, f32, storage-only, wide accumulator,
// carrier, constant), each with its reason as a tooltip; an edge that needs
// a cast is red and labelled with the cast and the bytes it writes (as the
// placement weighs them: a dynamic size counts 64 elements); control
// flow regions are clusters, or single summary nodes when the picture would
// have more than `maxNodes` ops.
//
//   dot -Tsvg out.dot -o out.svg
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_DECISIONGRAPH_H
#define AMP_ANALYSIS_DECISIONGRAPH_H

#include "amp/Analysis/PrecisionAssignment.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace amp {

struct DecisionGraphOptions {
  /// Above this many ops in a function, control-flow regions are drawn as
  /// one node each.
  unsigned maxNodes = 400;
};

/// Writes the decisions `assignment` made for the functions under `root`
/// (which must not have been rewritten yet) as a Graphviz digraph.
void writeDecisionGraph(llvm::raw_ostream &os, Operation *root,
                        const PrecisionAssignment &assignment,
                        const DecisionGraphOptions &options = {});

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_DECISIONGRAPH_H

//===- DecisionGraph.cpp - The decisions as a Graphviz picture ------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/DecisionGraph.h"
#include "AssignmentImpl.h"
#include "amp/Analysis/CalibratedRanges.h"

#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::amp;

/// A string as a Graphviz quoted string.
static std::string quote(StringRef text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

static std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream(text) << type;
  return text;
}

static std::string formatBytes(int64_t bytes) {
  if (bytes >= (1 << 20))
    return llvm::formatv("{0} MiB", llvm::format("%.1f", bytes / 1048576.0));
  if (bytes >= 1024)
    return llvm::formatv("{0} KiB", llvm::format("%.1f", bytes / 1024.0));
  return std::to_string(bytes) + " B";
}

namespace {
/// How a node is drawn.
struct Style {
  StringRef fill, legend;
};

Style styleOf(const OpDecision &d) {
  switch (d.mode) {
  case ComputeMode::Low:
    return {"#a9dfa1", "low"};
  case ComputeMode::WideAccumulator:
    return {"#f7e08a", "low inputs, f32 accumulator"};
  case ComputeMode::F32:
    if (StringRef(d.reason).starts_with("storage-only"))
      return {"#d7b5e8", "storage-only (the target computes f32)"};
    return {"#f4a582", "f32"};
  case ComputeMode::Carrier:
    return {"#bcd7f0", "carries values (control flow, calls)"};
  case ComputeMode::Constant:
    return {"#e0e0e0", "constant (converted at compile time)"};
  case ComputeMode::Untouched:
    return {"#ffffff", "no float data amp changes"};
  }
  llvm_unreachable("unknown compute mode");
}

class GraphWriter {
public:
  GraphWriter(llvm::raw_ostream &os, const PrecisionAssignment &assignment,
              const DecisionGraphOptions &options)
      : os(os), assignment(assignment), options(options) {
    for (auto [i, op] : llvm::enumerate(assignment.getOps()))
      index[op] = i;
  }

  void writeFunction(FunctionOpInterface func, unsigned number);
  void writeLegend();

private:
  /// The type `use`'s owner reads the value in.
  Type wantedType(OpOperand &use, const OpDecision &d) const;
  /// The node an op is drawn as: itself, or the region node it is collapsed
  /// into.
  Operation *nodeOf(Operation *op) const {
    for (Operation *p = op; p; p = p->getParentOp())
      if (collapsed.contains(p))
        return p;
    return op;
  }
  std::string nodeName(Operation *op) const {
    return "n" + std::to_string(index.lookup(op));
  }
  void writeNode(Operation *op, StringRef indent);
  void writeRegionNode(Operation *op, StringRef indent);

  llvm::raw_ostream &os;
  const PrecisionAssignment &assignment;
  const DecisionGraphOptions &options;
  DenseMap<Operation *, unsigned> index;
  DenseSet<Operation *> collapsed;
};
} // namespace

Type GraphWriter::wantedType(OpOperand &use, const OpDecision &d) const {
  Type type = use.get().getType();
  if (!getFloatElementType(type))
    return type;
  unsigned i = use.getOperandNumber();
  bool data = i < d.dataOperands.size() && d.dataOperands[i];
  switch (d.mode) {
  case ComputeMode::Low:
    return data ? withFloatElementType(type, d.lowType) : type;
  case ComputeMode::WideAccumulator: {
    bool accumulator =
        d.accumulation &&
        llvm::is_contained(d.accumulation->accumulatorOperands, i);
    if (!data)
      return type;
    return withFloatElementType(type, accumulator ? d.accType : d.lowType);
  }
  case ComputeMode::Carrier:
    return assignment.getAssignedType(use);
  case ComputeMode::F32:
    return type;
  case ComputeMode::Constant:
  case ComputeMode::Untouched:
    return assignment.getAssignedType(use);
  }
  llvm_unreachable("unknown compute mode");
}

void GraphWriter::writeNode(Operation *op, StringRef indent) {
  const OpDecision &d = assignment.getDecisions()[index.lookup(op)];
  Style style = styleOf(d);
  std::string label = op->getName().getStringRef().str();
  if (d.mode == ComputeMode::Low || d.mode == ComputeMode::WideAccumulator)
    label += "\n" + typeString(d.lowType);
  std::string tooltip =
      (op->getName().getStringRef() + " at " + formatLocation(op->getLoc()) +
       "\n" + stringifyComputeMode(d.mode) + " (" +
       stringifyPolicy(d.category) + ", " + d.source + "): " + d.reason)
          .str();
  bool small = d.mode == ComputeMode::Constant ||
               d.mode == ComputeMode::Untouched ||
               d.mode == ComputeMode::Carrier;
  os << indent << nodeName(op) << " [label=" << quote(label)
     << ", tooltip=" << quote(tooltip) << ", fillcolor=\"" << style.fill << "\""
     << (small ? ", fontsize=9, height=0.2" : "") << "];\n";
}

void GraphWriter::writeRegionNode(Operation *op, StringRef indent) {
  unsigned low = 0, f32 = 0, total = 0;
  op->walk([&](Operation *nested) {
    auto it = index.find(nested);
    if (nested == op || it == index.end())
      return;
    ++total;
    ComputeMode mode = assignment.getDecisions()[it->second].mode;
    low += mode == ComputeMode::Low || mode == ComputeMode::WideAccumulator;
    f32 += mode == ComputeMode::F32;
  });
  std::string label =
      llvm::formatv("{0}\n{1} ops: {2} low, {3} f32",
                    op->getName().getStringRef(), total, low, f32);
  os << indent << nodeName(op) << " [label=" << quote(label)
     << ", shape=box3d, fillcolor=\"#bcd7f0\", tooltip="
     << quote(op->getName().getStringRef().str() + " at " +
              formatLocation(op->getLoc()) + " (collapsed)")
     << "];\n";
}

void GraphWriter::writeFunction(FunctionOpInterface func, unsigned number) {
  SmallVector<Operation *> ops;
  for (Operation *op : assignment.getOps())
    if (func->isProperAncestor(op))
      ops.push_back(op);
  // Large pictures: control-flow regions become one node each.
  collapsed.clear();
  if (ops.size() > options.maxNodes)
    for (Operation *op : ops)
      if (isa<RegionBranchOpInterface>(op) && op->getParentOp() == func)
        collapsed.insert(op);

  std::string name = "@";
  if (auto symbol = func->getAttrOfType<StringAttr>("sym_name"))
    name += symbol.getValue().str();
  os << "  subgraph cluster_f" << number << " {\n"
     << "    label=" << quote(name) << "; style=rounded; color=\"#888888\";\n";

  // Arguments.
  for (BlockArgument arg : func.getArguments())
    os << "    f" << number << "_arg" << arg.getArgNumber()
       << " [shape=ellipse, label="
       << quote("arg" + std::to_string(arg.getArgNumber()) + "\n" +
                typeString(assignment.getAssignedType(arg)))
       << "];\n";

  // Nodes, with nested regions as clusters (or collapsed).
  std::function<void(Operation *, std::string)> writeNested;
  DenseSet<Operation *> written;
  writeNested = [&](Operation *op, std::string indent) {
    if (!written.insert(op).second)
      return;
    if (collapsed.contains(op)) {
      writeRegionNode(op, indent);
      return;
    }
    writeNode(op, indent);
    if (!isa<RegionBranchOpInterface>(op))
      return;
    os << indent << "subgraph cluster_" << nodeName(op) << " {\n"
       << indent << "  label=" << quote(op->getName().getStringRef())
       << "; style=dashed;\n";
    for (Operation *nested : ops)
      if (nested->getParentOp() && op->isProperAncestor(nested) &&
          !written.contains(nested)) {
        // Only direct children here; deeper ones go in their own cluster.
        Operation *parent = nested->getParentOp();
        while (parent && parent != op && !index.count(parent))
          parent = parent->getParentOp();
        if (parent == op)
          writeNested(nested, indent + "  ");
      }
    os << indent << "}\n";
  };
  for (Operation *op : ops)
    if (op->getParentOp() == func)
      writeNested(op, "    ");

  // Edges: one per use of a value a drawn op (or argument) defines; a cast
  // where the type the user reads differs from the value's.
  llvm::MapVector<std::pair<Value, Type>, int64_t> casts;
  for (Operation *op : ops) {
    Operation *to = nodeOf(op);
    const OpDecision &d = assignment.getDecisions()[index.lookup(op)];
    for (OpOperand &use : op->getOpOperands()) {
      Value v = use.get();
      std::string from;
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (arg.getOwner()->getParentOp() != func)
          continue;
        from = "f" + std::to_string(number) + "_arg" +
               std::to_string(arg.getArgNumber());
      } else {
        Operation *def = v.getDefiningOp();
        if (!index.count(def))
          continue;
        Operation *fromNode = nodeOf(def);
        if (fromNode == to)
          continue;
        from = nodeName(fromNode);
        // A constant is converted at compile time to what each user reads.
        if (assignment.getDecisions()[index.lookup(def)].mode ==
            ComputeMode::Constant) {
          os << "    " << from << " -> " << nodeName(to)
             << " [style=dotted];\n";
          continue;
        }
      }
      Type have = assignment.getAssignedType(v);
      Type want = wantedType(use, d);
      os << "    " << from << " -> " << nodeName(to);
      FloatType haveElt = getFloatElementType(have);
      FloatType wantElt = getFloatElementType(want);
      if (haveElt && wantElt && haveElt != wantElt) {
        // The bytes the placement weighed for this cast.
        int64_t bytes = assignment::bytesOf(want);
        casts.insert({{v, wantElt}, bytes});
        os << " [color=\"#d62728\", penwidth=2, label="
           << quote((wantElt.getWidth() < haveElt.getWidth() ? "truncf "
                                                             : "extf ") +
                    formatBytes(bytes))
           << ", fontcolor=\"#d62728\", fontsize=9]";
      }
      os << ";\n";
    }
  }
  int64_t castBytes = 0;
  for (auto &entry : casts)
    castBytes += entry.second;
  os << "    f" << number << "_summary [shape=note, label="
     << quote(llvm::formatv("{0} ops drawn, {1} casts writing {2}", ops.size(),
                            casts.size(), formatBytes(castBytes))
                  .str())
     << "];\n";
  os << "  }\n";
}

void GraphWriter::writeLegend() {
  os << "  subgraph cluster_legend {\n"
     << "    label=\"amp mixed precision\"; style=rounded;\n";
  const ComputeMode modes[] = {ComputeMode::Low, ComputeMode::WideAccumulator,
                               ComputeMode::F32, ComputeMode::Carrier,
                               ComputeMode::Constant};
  for (auto [i, mode] : llvm::enumerate(modes)) {
    OpDecision d;
    d.mode = mode;
    Style style = styleOf(d);
    os << "    legend" << i << " [label=" << quote(style.legend)
       << ", fillcolor=\"" << style.fill << "\"];\n";
  }
  OpDecision storage;
  storage.mode = ComputeMode::F32;
  storage.reason = "storage-only";
  os << "    legend_storage [label=" << quote(styleOf(storage).legend)
     << ", fillcolor=\"" << styleOf(storage).fill << "\"];\n"
     << "    legend_cast_a [shape=point]; legend_cast_b [shape=point];\n"
     << "    legend_cast_a -> legend_cast_b [color=\"#d62728\", penwidth=2, "
        "label=\"cast (bytes written)\", fontcolor=\"#d62728\"];\n"
     << "  }\n";
}

void mlir::amp::writeDecisionGraph(llvm::raw_ostream &os, Operation *root,
                                   const PrecisionAssignment &assignment,
                                   const DecisionGraphOptions &options) {
  os << "// amp: mixed-precision decisions (render: dot -Tsvg FILE -o "
        "FILE.svg)\n"
     << "digraph amp {\n"
     << "  rankdir=TB; node [shape=box, style=\"filled,rounded\", "
        "fontname=\"Helvetica\", fontsize=10]; edge [arrowsize=0.6];\n";
  GraphWriter writer(os, assignment, options);
  SmallVector<FunctionOpInterface> functions = getFunctions(root);
  llvm::erase_if(functions,
                 [](FunctionOpInterface func) { return func.isExternal(); });
  for (auto [i, func] : llvm::enumerate(functions))
    writer.writeFunction(func, i);
  writer.writeLegend();
  os << "}\n";
}

//===- AssignmentImpl.h - What the assignment's steps share ----*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Analysis: the groups of tied values, their states and the
// decisions that the steps of the precision assignment (PrecisionAssignment,
// AssignmentDecisions, GreedyPlacement, NaivePlacement, OptimalPlacement)
// read and write.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_ANALYSIS_ASSIGNMENTIMPL_H
#define AMP_LIB_ANALYSIS_ASSIGNMENTIMPL_H

#include "amp/Analysis/BufferRoles.h"
#include "amp/Analysis/FloatRangeAnalysis.h"
#include "amp/Analysis/MinCut.h"
#include "amp/Analysis/PlacementProblem.h"
#include "amp/Analysis/PrecisionAssignment.h"
#include "amp/Target/TargetCapabilities.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/IntEqClasses.h"
#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace amp {
namespace assignment {

/// An f32 value amp can retype: a scalar, vector, ranked tensor or ranked
/// memref of f32 or complex<f32>, or such a complex scalar.
inline bool isTrackableType(Type type) {
  if (type.isF32())
    return true;
  if (auto complex = dyn_cast<ComplexType>(type))
    return complex.getElementType().isF32();
  if (isa<VectorType, RankedTensorType, MemRefType>(type))
    return isTrackableType(cast<ShapedType>(type).getElementType()) &&
           !isa<ShapedType>(cast<ShapedType>(type).getElementType());
  return false;
}

/// A group's state; the order is the lattice order.
enum class State : uint8_t { Free, Low, F32 };

struct GroupState {
  State state = State::Free;
  FloatType low;
};

inline GroupState join(GroupState a, GroupState b) {
  if (a.state == State::Free)
    return b;
  if (b.state == State::Free)
    return a;
  if (a.state == State::F32 || b.state == State::F32 || a.low != b.low)
    return {State::F32, {}};
  return a;
}

/// Values any type of which can be made without a cast: constants, empty
/// tensors and fills of a constant into an empty tensor.
inline bool isMaterializable(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (def->hasTrait<OpTrait::ConstantLike>() || isa<tensor::EmptyOp>(def))
    return true;
  auto fill = dyn_cast<linalg::FillOp>(def);
  return fill && matchPattern(fill.value(), m_Constant()) &&
         fill.output().getDefiningOp<tensor::EmptyOp>();
}

inline bool hasFloatTypes(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), amp::detail::isFloatData) ||
         llvm::any_of(op->getResultTypes(), amp::detail::isFloatData);
}

inline bool isCarrier(Operation *op) {
  switch (getBufferRole(op)) {
  case BufferRole::Allocation:
  case BufferRole::View:
  case BufferRole::Access:
  case BufferRole::Copy:
  case BufferRole::Inspect:
    return true;
  case BufferRole::None:
  case BufferRole::ControlFlow:
  case BufferRole::Compute:
  case BufferRole::Opaque:
    break;
  }
  return isa<RegionBranchOpInterface, BranchOpInterface,
             RegionBranchTerminatorOpInterface, CallOpInterface>(op) ||
         (op->hasTrait<OpTrait::ReturnLike>() &&
          isa_and_present<FunctionOpInterface>(op->getParentOp()));
}

/// The bytes a value of type `type` occupies. A dynamic dimension counts as
/// kDynamicDimEstimate elements, so that a tensor<?x1024xf32> weighs more
/// than a scalar in the placement's costs.
int64_t bytesOf(Type type);
constexpr int64_t kDynamicDimEstimate = 64;

} // namespace assignment
} // namespace amp
} // namespace mlir

namespace mlir {
namespace amp {
using namespace assignment;

struct PrecisionAssignment::Impl {
  const AssignmentOptions *options = nullptr;
  Placement placement = Placement::Optimal;
  MLIRContext *ctx = nullptr;

  // Tracked values, each with an id, in groups of values that share one
  // type (llvm::IntEqClasses over the ids; a group is named by its leader).
  DenseMap<Value, unsigned> valueIds;
  std::vector<Value> values;
  llvm::IntEqClasses classes;
  SmallVector<GroupState> states;

  SmallVector<Operation *> ops;
  /// Decisions parallel to `ops`, and each op's index.
  std::vector<OpDecision> decisions;
  DenseMap<Operation *, unsigned> opIndex;
  DenseSet<Operation *> changingFunctions;
  /// Values whose group must be f32 (fixed signatures, casts' results).
  SmallVector<Value> f32Sources;
  SmallVector<Value> f32Sinks;
  /// Ops without a model that fell to missing-op, by name.
  llvm::MapVector<StringRef, unsigned> missingOps;

  unsigned find(unsigned i) const { return classes.findLeader(i); }
  void track(Value v) {
    if (!isTrackableType(v.getType()) || valueIds.count(v))
      return;
    valueIds[v] = values.size();
    values.push_back(v);
    classes.grow(values.size());
    states.emplace_back();
  }
  std::optional<unsigned> group(Value v) const {
    auto it = valueIds.find(v);
    if (it == valueIds.end())
      return std::nullopt;
    return find(it->second);
  }
  void unite(Value a, Value b) {
    std::optional<unsigned> ga = group(a), gb = group(b);
    if (ga && gb && *ga != *gb)
      classes.join(*ga, *gb);
  }
  /// Ties the value passed by `use` to `dest`. Constants, empty tensors and
  /// fixed arguments are not merged into the group (they keep their own
  /// type and users): the use is cast to the group's type instead.
  void tieOperand(OpOperand &use, Value dest) {
    if (!isa<BaseMemRefType>(dest.getType()) && isConstantValue(use.get())) {
      if (valueIds.count(dest))
        operandDest[&use] = dest;
      return;
    }
    unite(use.get(), dest);
  }
  void tieOperands(OperandRange range, ValueRange dests) {
    if (range.empty())
      return;
    Operation *owner = range.getBase()->getOwner();
    unsigned begin = range.getBeginOperandIndex();
    for (auto [k, dest] : llvm::enumerate(dests))
      if (k < range.size())
        tieOperand(owner->getOpOperand(begin + k), dest);
  }
  DenseMap<OpOperand *, Value> operandDest;

  /// Joins `s` into `v`'s group; returns true on change.
  bool contribute(Value v, GroupState s) {
    std::optional<unsigned> g = group(v);
    if (!g)
      return false;
    GroupState joined = join(states[*g], s);
    if (joined.state == states[*g].state && joined.low == states[*g].low)
      return false;
    states[*g] = joined;
    return true;
  }
  GroupState stateOf(Value v) {
    std::optional<unsigned> g = group(v);
    return g ? states[*g] : GroupState{State::F32, {}};
  }

  /// Constants, tensor.empty and fixed-signature arguments do not pull a
  /// follow op to f32: a constant is converted at compile time, an empty
  /// tensor is created in the type each user needs, an argument is cast once
  /// at entry for every low user.
  bool isConstantValue(Value v) {
    if (entryCast.contains(v))
      return true;
    return isMaterializable(v);
  }
  DenseSet<Value> entryCast;

  void collect(Operation *root, bool changeSignatures);
  void visitRegion(Region &region);
  void tieControlFlow();
  void tieBuffers();
  void decideSignatures(ArrayRef<FunctionOpInterface> functions,
                        Operation *root, bool changeSignatures);
  void tieCalls(ArrayRef<FunctionOpInterface> functions);
  /// An op's decision, in named steps (AssignmentDecisions.cpp).
  void decide(Operation *op, OpDecision &d);
  void markDataValues(Operation *op, OpDecision &d);
  bool decideWithoutCategory(Operation *op, OpDecision &d,
                             const ResolvedPolicy &policy);
  bool chooseCategory(Operation *op, OpDecision &d,
                      const ResolvedPolicy &policy);
  bool applyTargetLimits(Operation *op, OpDecision &d, bool fromModel);
  void chooseMode(OpDecision &d, bool fromModel);
  void applyBlockers(Operation *op, OpDecision &d);
  std::optional<std::pair<Policy, std::string>> userPolicyOf(Operation *op);
  void applyBodyPolicy(Operation *op, OpDecision &d, bool &fromModel);
  void respectRanges();
  /// The float range analysis of the analysed root.
  std::optional<FloatRanges> ranges;
  void propagate(bool fixedOnly = false);
  void placeNaively();
  /// placement=optimal (OptimalPlacement.cpp): the labelling problem's
  /// variables, as groups and ops map to them.
  struct PlacementVariables {
    std::vector<int> groupVar;      // per group: its variable, or -1
    std::vector<int> opVar;         // per op: the variable of its mode, or -1
    std::vector<FloatType> lowType; // per variable
  };
  PlacementProblem buildPlacementProblem(PlacementVariables &vars);
  void applyPlacement(const PlacementVariables &vars,
                      const std::vector<bool> &low);
  void placeOptimally(Operation *root);
  void resolveFreeGroups();
  void finalizeFollowOps();
};

} // namespace amp
} // namespace mlir

#endif // AMP_LIB_ANALYSIS_ASSIGNMENTIMPL_H

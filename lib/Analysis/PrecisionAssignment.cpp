//===- PrecisionAssignment.cpp - Who runs in which precision --------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The analysis runs in four steps over the ops of every function (ops inside
// bodies that their owner converts, like a linalg.generic's, are not visited
// on their own). Each step has its file:
//
//  1. (here) Tie values that must share a type into groups
//     (llvm::EquivalenceClasses): region branch operands and inputs, branch
//     operands and block arguments, buffers sharing storage, and, when
//     signatures may change, call operands/results with the callee's
//     arguments/returns.
//  2. (AssignmentDecisions.cpp) Decide each op's category from the one
//     policy resolver (resolvePolicy: attribute on the op > enclosing scope >
//     options and policy file), else the model, else traits, and whether it
//     can run low at all (target, operand kinds, constants and attributes
//     the low type cannot hold). Then what values can be decides
//     (FloatRangeAnalysis): a value whose range may exceed the low type (an
//     exp's result, a long sum) or would underflow in it is never rounded
//     to it, and the ops that read or produce it compute in f32.
//  3-4. Place follow ops and free groups, by one of three placements:
//     - naive (NaivePlacement.cpp): only allow ops run low, each wrapped in
//       its own casts (a value an f32 op also produces stays f32);
//     - greedy (GreedyPlacement.cpp), TVM's forward rule: propagate group
//       states forward (Free < Low < F32: allow ops produce low values, never
//       ops f32 values, follow ops the join of their inputs), give groups no
//       producer decides (constants, tensor.empty, fills) the type their
//       users want, propagate again, and fix follow ops low iff every input
//       and result is low;
//     - optimal (OptimalPlacement.cpp): the labelling of free groups and
//       follow ops that moves the fewest bytes (casts plus values kept in
//       f32, weighed by bytesOf), found exactly as a minimum cut (MinCut.cpp).
//
//===----------------------------------------------------------------------===//

#include "AssignmentImpl.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::assignment;

StringRef mlir::amp::stringifyComputeMode(ComputeMode mode) {
  switch (mode) {
  case ComputeMode::Low:
    return "low";
  case ComputeMode::WideAccumulator:
    return "wide-accumulator";
  case ComputeMode::F32:
    return "f32";
  case ComputeMode::Carrier:
    return "carrier";
  case ComputeMode::Constant:
    return "constant";
  case ComputeMode::Untouched:
    return "untouched";
  }
  llvm_unreachable("unknown compute mode");
}

//===----------------------------------------------------------------------===//
// Step 1: values and ties
//===----------------------------------------------------------------------===//

void PrecisionAssignment::Impl::visitRegion(Region &region) {
  for (Block &block : region) {
    for (BlockArgument arg : block.getArguments())
      track(arg);
    for (Operation &op : block) {
      ops.push_back(&op);
      for (Value r : op.getResults())
        track(r);
      // Control flow's regions are visited op by op; any other op converts
      // its own body (linalg, tensor.pad) or keeps it (unknown ops). Values
      // such a body captures from outside are used there as they are, so
      // they keep their f32 type.
      if (isa<RegionBranchOpInterface>(op)) {
        for (Region &nested : op.getRegions())
          visitRegion(nested);
      } else if (op.getNumRegions()) {
        op.walk([&](Operation *inner) {
          if (inner == &op)
            return;
          for (Value v : inner->getOperands())
            if (!op.isAncestor(v.getParentRegion()->getParentOp()))
              f32Sources.push_back(v);
        });
      }
    }
  }
}

void PrecisionAssignment::Impl::tieControlFlow() {
  for (Operation *op : ops) {
    if (auto branch = dyn_cast<BranchOpInterface>(op)) {
      for (unsigned i = 0, e = op->getNumSuccessors(); i < e; ++i) {
        SuccessorOperands so = branch.getSuccessorOperands(i);
        Block *dest = op->getSuccessor(i);
        unsigned produced = so.getProducedOperandCount();
        tieOperands(so.getForwardedOperands(),
                    dest->getArguments().drop_front(produced));
      }
    }
    auto regionBranch = dyn_cast<RegionBranchOpInterface>(op);
    if (!regionBranch)
      continue;
    auto tieFrom = [&](RegionBranchPoint point) {
      SmallVector<RegionSuccessor> successors;
      regionBranch.getSuccessorRegions(point, successors);
      for (RegionSuccessor &successor : successors)
        tieOperands(regionBranch.getSuccessorOperands(point, successor),
                    successor.getSuccessorInputs());
    };
    tieFrom(RegionBranchPoint::parent());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (auto term = dyn_cast<RegionBranchTerminatorOpInterface>(
                block.getTerminator()))
          tieFrom(RegionBranchPoint(term));
  }
}

/// A buffer's element type is its storage's: views share it, loads and
/// stores move values of that type, and buffers used by ops amp cannot see
/// into keep f32.
void PrecisionAssignment::Impl::tieBuffers() {
  for (Operation *op : ops) {
    BufferRole role = getBufferRole(op);
    auto buffers = [&] {
      SmallVector<Value> all;
      for (Value v : op->getOperands())
        if (isFloatBuffer(v.getType()))
          all.push_back(v);
      for (Value v : op->getResults())
        if (isFloatBuffer(v.getType()))
          all.push_back(v);
      return all;
    };
    switch (role) {
    case BufferRole::View:
    case BufferRole::Copy: {
      SmallVector<Value> all = buffers();
      // A view amp cannot retype (unranked, or of f64) pins its storage.
      if (!llvm::all_of(all, [&](Value v) { return valueIds.count(v); })) {
        f32Sinks.append(all.begin(), all.end());
        break;
      }
      for (Value v : ArrayRef(all).drop_front())
        unite(v, all.front());
      break;
    }
    case BufferRole::Access: {
      Value buffer = buffers().front();
      // A buffer amp cannot retype (of vectors, or unranked) keeps the
      // values it moves f32.
      if (!valueIds.count(buffer)) {
        for (Value v : op->getOperands())
          if (v != buffer && isTrackableType(v.getType()))
            f32Sinks.push_back(v);
        for (Value r : op->getResults())
          f32Sources.push_back(r);
        break;
      }
      for (OpOperand &use : op->getOpOperands())
        if (use.get() != buffer && isTrackableType(use.get().getType()))
          tieOperand(use, buffer);
      for (Value r : op->getResults())
        unite(r, buffer);
      break;
    }
    case BufferRole::Opaque:
      for (Value v : op->getOperands())
        if (isFloatBuffer(v.getType()))
          f32Sinks.push_back(v);
      for (Value v : op->getResults())
        if (isFloatBuffer(v.getType()))
          f32Sources.push_back(v);
      break;
    case BufferRole::None:
    case BufferRole::ControlFlow:
    case BufferRole::Allocation:
    case BufferRole::Inspect:
    case BufferRole::Compute:
      break;
    }
  }
}

/// Returns the return-like terminators of a function.
static SmallVector<Operation *> getReturns(FunctionOpInterface func) {
  SmallVector<Operation *> returns;
  for (Block &block : func.getFunctionBody())
    if (!block.empty() && block.back().hasTrait<OpTrait::ReturnLike>())
      returns.push_back(&block.back());
  return returns;
}

void PrecisionAssignment::Impl::decideSignatures(
    ArrayRef<FunctionOpInterface> functions, Operation *root,
    bool changeSignatures) {
  // Which signatures may change: functions with a body whose every use is a
  // direct call inside the analysed ops, and that are private (or public
  // with keep-io-types=false).
  DenseSet<Operation *> analysed(ops.begin(), ops.end());
  // Every symbol use in the root, found in one walk: a function may change
  // only if each use of its name is a direct call the analysis sees.
  DenseSet<StringAttr> pinnedSymbols;
  bool usesKnown = true;
  if (changeSignatures)
    root->walk<WalkOrder::PreOrder>([&](Operation *op) {
      // Each symbol table's uses, without descending into nested tables
      // (which the walk reaches on its own). Structured ops' bodies hold
      // no symbol tables.
      if (isa<linalg::LinalgOp>(op))
        return WalkResult::skip();
      if (op != root && !op->hasTrait<OpTrait::SymbolTable>())
        return WalkResult::advance();
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(op);
      if (!uses) {
        usesKnown = false;
        return WalkResult::advance();
      }
      for (const SymbolTable::SymbolUse &use : *uses)
        if (!isa<CallOpInterface>(use.getUser()) ||
            !analysed.contains(use.getUser()))
          pinnedSymbols.insert(use.getSymbolRef().getRootReference());
      return WalkResult::advance();
    });
  for (FunctionOpInterface func : functions) {
    if (!changeSignatures || !usesKnown || func.isExternal())
      continue;
    auto symbol = dyn_cast<SymbolOpInterface>(func.getOperation());
    if (!symbol || (symbol.isPublic() && options->keepIOTypes) ||
        pinnedSymbols.contains(symbol.getNameAttr()))
      continue;
    changingFunctions.insert(func);
  }

  // Arguments of fixed signatures are f32 values cast once at entry; a
  // buffer argument is storage the caller sees, so it simply stays f32.
  for (FunctionOpInterface func : functions)
    if (!func.isExternal() && !changingFunctions.contains(func))
      for (BlockArgument arg : func.getArguments())
        if (!isa<BaseMemRefType>(arg.getType()))
          entryCast.insert(arg);
}

void PrecisionAssignment::Impl::tieCalls(
    ArrayRef<FunctionOpInterface> functions) {
  SymbolTableCollection symbolTables;
  for (FunctionOpInterface func : functions) {
    if (func.isExternal())
      continue;
    bool changes = changingFunctions.contains(func);
    SmallVector<Operation *> returns = getReturns(func);
    for (BlockArgument arg : func.getArguments()) {
      if (!changes)
        f32Sources.push_back(arg);
      else if (!options->keepIOTypes &&
               cast<SymbolOpInterface>(func.getOperation()).isPublic())
        contribute(arg, {State::Low, options->lowType});
    }
    for (Operation *ret : returns)
      for (auto [i, v] : llvm::enumerate(ret->getOperands())) {
        if (!changes)
          f32Sinks.push_back(v);
        else if (ret != returns.front())
          unite(v, returns.front()->getOperand(i));
      }
  }

  for (Operation *op : ops) {
    auto call = dyn_cast<CallOpInterface>(op);
    if (!call)
      continue;
    auto callee = dyn_cast_if_present<FunctionOpInterface>(
        call.resolveCallableInTable(&symbolTables));
    if (!callee || !changingFunctions.contains(callee)) {
      for (Value v : call.getArgOperands())
        f32Sinks.push_back(v);
      for (Value r : op->getResults())
        f32Sources.push_back(r);
      continue;
    }
    tieOperands(call.getArgOperands(), callee.getArguments());
    SmallVector<Operation *> returns = getReturns(callee);
    if (!returns.empty())
      for (auto [r, v] :
           llvm::zip(op->getResults(), returns.front()->getOperands()))
        unite(r, v);
  }
}

void PrecisionAssignment::Impl::collect(Operation *root,
                                        bool changeSignatures) {
  SmallVector<FunctionOpInterface> functions = getFunctions(root);
  for (FunctionOpInterface func : functions)
    if (!func.isExternal())
      visitRegion(func.getFunctionBody());
  decideSignatures(functions, root, changeSignatures);
  tieControlFlow();
  tieBuffers();
  tieCalls(functions);
}

int64_t mlir::amp::assignment::bytesOf(Type type) {
  // Saturated, so that the placement's sums of costs cannot overflow on
  // absurd shapes (tensor<100000000000x100000000000xf32>).
  constexpr int64_t kMaxElements = int64_t(1) << 40;
  int64_t elements = 1;
  Type element = type;
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    for (int64_t d : shaped.getShape()) {
      int64_t size = ShapedType::isDynamic(d) ? kDynamicDimEstimate : d;
      elements = size && elements > kMaxElements / size ? kMaxElements
                                                        : elements * size;
    }
    element = shaped.getElementType();
  }
  if (auto complex = dyn_cast<ComplexType>(element))
    return elements * 2 * complex.getElementType().getIntOrFloatBitWidth() / 8;
  return elements * std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
}

//===----------------------------------------------------------------------===//
// PrecisionAssignment
//===----------------------------------------------------------------------===//

PrecisionAssignment::PrecisionAssignment() : impl(std::make_unique<Impl>()) {}
PrecisionAssignment::~PrecisionAssignment() = default;
PrecisionAssignment::PrecisionAssignment(PrecisionAssignment &&) = default;
PrecisionAssignment &
PrecisionAssignment::operator=(PrecisionAssignment &&) = default;

FailureOr<PrecisionAssignment>
PrecisionAssignment::analyze(Operation *root, const AssignmentOptions &options,
                             bool changeSignatures) {
  PrecisionAssignment result;
  Impl &impl = *result.impl;
  impl.options = &options;
  impl.placement = options.placement;
  impl.ctx = root->getContext();
  impl.collect(root, changeSignatures);

  // What values can be: the float range analysis, from the arguments'
  // ranges the user gives and the calibrated ranges.
  FloatRangeOptions rangeOptions;
  std::string rangeError;
  FailureOr<SmallVector<InputRange>> inputRanges =
      parseInputRanges(options.inputRanges, rangeError);
  if (failed(inputRanges))
    return root->emitError("amp: ") << rangeError;
  rangeOptions.inputRanges = std::move(*inputRanges);
  rangeOptions.calibrated = options.calibrated;
  rangeOptions.policy = options.policy;
  FailureOr<FloatRanges> ranges = FloatRanges::compute(root, rangeOptions);
  if (failed(ranges))
    return root->emitError("amp: the float range analysis failed");
  impl.ranges.emplace(std::move(*ranges));
  impl.decisions.resize(impl.ops.size());
  for (auto [i, op] : llvm::enumerate(impl.ops)) {
    impl.opIndex[op] = i;
    impl.decide(op, impl.decisions[i]);
  }

  if (!impl.missingOps.empty() && (options.missingOp == MissingOpMode::Warn ||
                                   options.missingOp == MissingOpMode::Error)) {
    bool isError = options.missingOp == MissingOpMode::Error;
    InFlightDiagnostic diag = isError ? root->emitError() : root->emitWarning();
    diag << "amp: ops without a model" << (isError ? "" : " stay f32") << ": ";
    llvm::interleaveComma(impl.missingOps, diag, [&](auto &entry) {
      diag << entry.first << " (" << entry.second << ")";
    });
    if (isError)
      return failure();
  }

  impl.respectRanges();
  // The ranges have been used: their solver's memory goes now, not after
  // the rewrite.
  impl.ranges.reset();
  for (Value v : impl.f32Sources)
    impl.contribute(v, {State::F32, {}});
  // A buffer cannot be cast on its way out: a sink's storage is f32.
  for (Value v : impl.f32Sinks)
    if (isa<BaseMemRefType>(v.getType()))
      impl.contribute(v, {State::F32, {}});
  switch (options.placement) {
  case Placement::Naive:
    impl.placeNaively();
    break;
  case Placement::Greedy:
    impl.propagate();
    impl.resolveFreeGroups();
    impl.propagate();
    impl.finalizeFollowOps();
    break;
  case Placement::Optimal:
    impl.propagate(/*fixedOnly=*/true);
    impl.placeOptimally(root);
    break;
  }
  return result;
}

const OpDecision *PrecisionAssignment::lookup(Operation *op) const {
  auto it = impl->opIndex.find(op);
  return it == impl->opIndex.end() ? nullptr : &impl->decisions[it->second];
}

OpDecision *PrecisionAssignment::lookup(Operation *op) {
  auto it = impl->opIndex.find(op);
  return it == impl->opIndex.end() ? nullptr : &impl->decisions[it->second];
}

bool PrecisionAssignment::isTracked(Value value) const {
  return impl->valueIds.count(value);
}

Type PrecisionAssignment::getAssignedType(Value value) const {
  std::optional<unsigned> g = impl->group(value);
  if (!g || impl->states[*g].state != State::Low)
    return value.getType();
  return withFloatElementType(value.getType(), impl->states[*g].low);
}

Type PrecisionAssignment::getAssignedType(OpOperand &use) const {
  auto it = impl->operandDest.find(&use);
  if (it == impl->operandDest.end())
    return getAssignedType(use.get());
  return withFloatElementType(
      use.get().getType(),
      cast<FloatType>(getFloatElementType(getAssignedType(it->second))));
}

bool PrecisionAssignment::isTracked(OpOperand &use) const {
  return impl->operandDest.count(&use) || isTracked(use.get());
}

bool PrecisionAssignment::signatureChanges(Operation *function) const {
  return impl->changingFunctions.contains(function);
}

ArrayRef<Operation *> PrecisionAssignment::getOps() const { return impl->ops; }

ArrayRef<OpDecision> PrecisionAssignment::getDecisions() const {
  return impl->decisions;
}

Placement PrecisionAssignment::getPlacement() const { return impl->placement; }

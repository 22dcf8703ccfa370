//===- PrecisionAssignment.cpp - Who runs in which precision --------------===//
//
// The analysis runs in four steps over the ops of every function (ops inside
// bodies that their owner converts, like a linalg.generic's, are not visited
// on their own):
//
//  1. Tie values that must share a type into groups (union-find): region
//     branch operands and inputs, branch operands and block arguments, and,
//     when signatures may change, call operands/results with the callee's
//     arguments/returns.
//  2. Decide each op's category from the precedence chain (attribute on the
//     op > enclosing scope > options > policy file > model > traits), and
//     whether it can run low at all (target, operand kinds, constants and
//     attributes that the low type cannot hold).
//  3. Propagate group states forward (Free < Low < F32): allow ops produce low
//     values, never ops f32 values, follow ops the join of their inputs.
//  4. Give groups with no producer that decides (constants, tensor.empty,
//     fills) the type their users want, propagate once more, and fix the
//     follow ops: low iff every input and result is low.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/PrecisionAssignment.h"
#include "amp/Analysis/MinCut.h"
#include "amp/Analysis/BufferRoles.h"
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
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::amp;

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

/// True for the casts amp places: arith.extf/truncf, and the elementwise
/// generics that cast tensors of complex values part by part (what
/// createFloatCast makes of them). Such an op's result is already in the type
/// it is for; converting it again would only move its cast.
static bool isFloatCast(Operation *op) {
  if (isa<arith::ExtFOp, arith::TruncFOp>(op))
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return false;
  Block *body = generic.getBlock();
  if (!body->getArgument(1).use_empty())
    return false;
  bool casts = false;
  for (Operation &nested : body->without_terminator()) {
    if (isa<arith::ExtFOp, arith::TruncFOp>(nested))
      casts = true;
    else if (!isa<complex::ReOp, complex::ImOp, complex::CreateOp>(nested))
      return false;
  }
  return casts;
}

namespace {

/// An f32 value amp can retype: a scalar, vector, ranked tensor or ranked
/// memref of f32 or complex<f32>, or such a complex scalar.
bool isTrackableType(Type type) {
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

GroupState join(GroupState a, GroupState b) {
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
bool isMaterializable(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (def->hasTrait<OpTrait::ConstantLike>() || isa<tensor::EmptyOp>(def))
    return true;
  auto fill = dyn_cast<linalg::FillOp>(def);
  return fill && matchPattern(fill.value(), m_Constant()) &&
         fill.output().getDefiningOp<tensor::EmptyOp>();
}

bool hasFloatTypes(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), amp::detail::isFloatData) ||
         llvm::any_of(op->getResultTypes(), amp::detail::isFloatData);
}

bool isCarrier(Operation *op) {
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

} // namespace

struct PrecisionAssignment::Impl {
  const AssignmentOptions *options = nullptr;
  Placement placement = Placement::Optimal;
  MLIRContext *ctx = nullptr;

  // Union-find over tracked values.
  DenseMap<Value, unsigned> valueIds;
  std::vector<Value> values;
  SmallVector<unsigned> parent;
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

  unsigned find(unsigned i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  }
  void track(Value v) {
    if (!isTrackableType(v.getType()) || valueIds.count(v))
      return;
    valueIds[v] = parent.size();
    values.push_back(v);
    parent.push_back(parent.size());
    states.emplace_back();
  }
  std::optional<unsigned> group(Value v) {
    auto it = valueIds.find(v);
    if (it == valueIds.end())
      return std::nullopt;
    return find(it->second);
  }
  void unite(Value a, Value b) {
    std::optional<unsigned> ga = group(a), gb = group(b);
    if (ga && gb && *ga != *gb)
      parent[*ga] = *gb;
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
  void decide(Operation *op, OpDecision &d);
  std::optional<std::pair<Policy, std::string>> userPolicyOf(Operation *op);
  void applyBodyPolicy(Operation *op, OpDecision &d, bool &fromModel);
  void keepSumsWide();
  void propagate(bool fixedOnly = false);
  void placeNaively();
  void placeOptimally(Operation *root);
  void resolveFreeGroups();
  void finalizeFollowOps();
};

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
    root->walk([&](Operation *op) {
      // Each symbol table's uses, without descending into nested tables
      // (which the walk reaches on its own).
      if (op != root && !op->hasTrait<OpTrait::SymbolTable>())
        return;
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(op);
      if (!uses) {
        usesKnown = false;
        return;
      }
      for (const SymbolTable::SymbolUse &use : *uses)
        if (!isa<CallOpInterface>(use.getUser()) ||
            !analysed.contains(use.getUser()))
          pinnedSymbols.insert(use.getSymbolRef().getRootReference());
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
      for (auto [r, v] : llvm::zip(op->getResults(),
                                   returns.front()->getOperands()))
        unite(r, v);
  }
}

void PrecisionAssignment::Impl::collect(Operation *root,
                                        bool changeSignatures) {
  SmallVector<FunctionOpInterface> functions;
  if (auto func = dyn_cast<FunctionOpInterface>(root))
    functions.push_back(func);
  else
    root->walk([&](FunctionOpInterface func) { functions.push_back(func); });
  for (FunctionOpInterface func : functions)
    if (!func.isExternal())
      visitRegion(func.getFunctionBody());
  decideSignatures(functions, root, changeSignatures);
  tieControlFlow();
  tieBuffers();
  tieCalls(functions);
}

//===----------------------------------------------------------------------===//
// Step 2: categories
//===----------------------------------------------------------------------===//

/// The nearest enclosing amp.scope that states a policy.
/// Why an op that would run low cannot: an operand or result amp cannot
/// cast, a constant or attribute the low type cannot hold.
static std::optional<std::string> lowBlocker(Operation *op, FloatType low,
                                             const OpDecision &d) {
  for (OpOperand &operand : op->getOpOperands()) {
    unsigned i = operand.getOperandNumber();
    Type type = operand.get().getType();
    if (!d.dataOperands[i])
      continue;
    FloatType elt = getFloatElementType(type);
    if (!isTrackableType(type) && elt && !elt.isF16() && !elt.isBF16())
      return "operand " + std::to_string(i) +
             " is not of f32 or complex<f32> (nor a ranked container of "
             "them); f64 and unranked values stay as they are";
    if (isFloatBuffer(type) && getBufferRole(op) != BufferRole::Compute)
      return "operand " + std::to_string(i) +
             " is a buffer that only linalg ops can run on converted copies "
             "of";
    Attribute value;
    if (matchPattern(operand.get(), m_Constant(&value)) &&
        isFloatDataAttr(value) &&
        failed(convertFloatAttr(value, low))) {
      std::string msg;
      llvm::raw_string_ostream os(msg);
      os << "constant operand " << i << " does not fit " << low
         << " (overflow, or most values underflow to zero)";
      return msg;
    }
  }
  for (OpResult result : op->getResults()) {
    FloatType elt = getFloatElementType(result.getType());
    if (d.dataResults[result.getResultNumber()] &&
        !isTrackableType(result.getType()) && elt && !elt.isF16() && !elt.isBF16())
      return std::string("a result is not an f32 scalar, vector or ranked "
                         "tensor");
  }
  for (NamedAttribute attr : op->getAttrs()) {
    Attribute value = attr.getValue();
    FloatType elt;
    if (auto f = dyn_cast<FloatAttr>(value))
      elt = dyn_cast<FloatType>(f.getType());
    else if (auto d = dyn_cast<DenseFPElementsAttr>(value))
      elt = dyn_cast<FloatType>(d.getElementType());
    if (elt && elt.isF32() && failed(convertFloatAttr(value, low))) {
      std::string msg;
      llvm::raw_string_ostream os(msg);
      os << "attribute '" << attr.getName().getValue() << "' does not fit "
         << low << " (overflow, or most values underflow to zero)";
      return msg;
    }
  }
  return std::nullopt;
}

/// The policy a user states on `op` itself (its attribute, the options or
/// the policy file; not a scope, which covers the op's owner too).
std::optional<std::pair<Policy, std::string>>
PrecisionAssignment::Impl::userPolicyOf(Operation *op) {
  ResolvedPolicy policy = resolvePolicy(op, *options, ShapedType::kDynamic);
  if (!policy.category || policy.source == PolicySource::Scope)
    return std::nullopt;
  return std::make_pair(*policy.category, policy.sourceText);
}

void PrecisionAssignment::Impl::applyBodyPolicy(Operation *op, OpDecision &d,
                                                bool &fromModel) {
  bool anyUserPolicy = false;
  bool tableIsEmpty = !options->policy || options->policy->empty();
  op->walk([&](Operation *nested) {
    if (nested == op || anyUserPolicy)
      return;
    anyUserPolicy = nested->hasAttr(AmpDialect::getPrecisionAttrName()) ||
                    (!tableIsEmpty && userPolicyOf(nested));
  });
  if (!anyUserPolicy)
    return;
  std::string neverBody;
  op->walk([&](Operation *nested) {
    if (nested == op || !hasFloatTypes(nested))
      return;
    std::optional<std::pair<Policy, std::string>> user = userPolicyOf(nested);
    Policy category =
        user ? user->first : getCategory(nested, d.lowType).category;
    if (category == Policy::Never && neverBody.empty())
      neverBody = (nested->getName().getStringRef() +
                   (user ? " (" + user->second + ")" : std::string()))
                      .str();
  });
  if (!neverBody.empty()) {
    d.category = Policy::Never;
    d.source = "body policy";
    d.reason = "its body computes " + neverBody + ", which stays f32";
    fromModel = false;
    return;
  }
  std::optional<AccumulationInfo> acc = getAccumulation(op);
  if (d.category == Policy::Never && !(acc && acc->isLossy())) {
    d.category = Policy::Follow;
    d.source = "body policy";
    d.reason = "user policy lets every op of its body run low";
    fromModel = false;
  }
}

void PrecisionAssignment::Impl::decide(Operation *op, OpDecision &d) {
  d.dataOperands.resize(op->getNumOperands());
  d.dataResults.resize(op->getNumResults());
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i)
    d.dataOperands[i] = isDataOperand(op, i);
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i)
    d.dataResults[i] = isDataResult(op, i);
  // One resolver gives every op its stated category, low type and
  // accumulator type (attributes > scopes > options and policy file).
  d.accumulation = getAccumulation(op);
  const std::optional<AccumulationInfo> &acc = d.accumulation;
  ResolvedPolicy policy = resolvePolicy(
      op, *options, acc ? acc->reductionSize : ShapedType::kDynamic);
  d.lowType = policy.lowType;

  if (isCarrier(op)) {
    d.mode = ComputeMode::Carrier;
    d.source = hasAmpModel(op) ? "model" : "traits";
    d.reason = "carries values: takes the type of the values it is tied to";
    // A loop-carried sum keeps its accumulator wide, like any reduction.
    d.accType = policy.accType;
    bool lowAcc = !policy.wideAccumulator();
    if (acc && acc->isLossy() && !lowAcc) {
      for (unsigned i : acc->accumulatorResults)
        f32Sources.push_back(op->getResult(i));
      d.reason = "carries a sum: its accumulator stays f32";
    }
    return;
  }
  bool hasData = false;
  for (OpOperand &operand : op->getOpOperands())
    hasData |= d.dataOperands[operand.getOperandNumber()] &&
               valueIds.count(operand.get());
  for (OpResult result : op->getResults())
    hasData |= d.dataResults[result.getResultNumber()] &&
               valueIds.count(result);
  if (op->hasTrait<OpTrait::ConstantLike>() && hasData) {
    d.mode = ComputeMode::Constant;
    d.source = "model";
    d.reason = "converted at compile time to the type its users need";
    return;
  }
  // Casts are amp's own business: the rewrite places and folds them.
  if (!hasData || isFloatCast(op)) {
    d.mode = ComputeMode::Untouched;
    d.source = hasAmpModel(op) ? "model" : "traits";
    d.reason = getCategory(op, d.lowType).reason.str();
    for (Value r : op->getResults())
      f32Sources.push_back(r);
    return;
  }

  // The category, by precedence.
  CategoryInfo modelInfo = getCategory(op, d.lowType);
  bool fromModel = true;
  d.category = modelInfo.category;
  d.reason = modelInfo.reason.str();
  d.source = hasAmpModel(op) ? "model" : "traits";
  if (policy.category) {
    d.category = *policy.category;
    d.source = policy.sourceText;
    d.reason = policy.detail;
    fromModel = false;
  } else if (!hasAmpModel(op) && modelInfo.category == Policy::Never) {
    // An op that traits cannot vouch for: the missing-op mode decides.
    missingOps[op->getName().getStringRef()]++;
    d.source = "missing-op";
    if (options->missingOp == MissingOpMode::Follow) {
      d.category = Policy::Follow;
      d.reason = "no amp model; missing-op=follow";
    }
  }

  // An op that owns its body (linalg, tensor.pad) runs its body ops in its
  // own precision: a user's policy on a body op applies to the owner.
  if (fromModel && op->getNumRegions() && !isa<RegionBranchOpInterface>(op))
    applyBodyPolicy(op, d, fromModel);

  // The accumulator type.
  d.accType = policy.accType;
  bool wideAcc = d.accType.getWidth() > d.lowType.getWidth();

  // The target (none: the CPU, which computes everything).
  Attribute target = getEnclosingTarget(op);
  if (!target)
    target = options->defaultTarget;
  if (d.category != Policy::Never && target &&
      !canComputeIn(op, d.lowType, target)) {
    d.category = Policy::Never;
    d.source = "target";
    llvm::raw_string_ostream os(d.reason);
    d.reason.clear();
    // Storage-only: values may still be stored low around the op (data
    // movement follows them), and the op computes on widened values.
    if (targetSupports(target, TargetOpKind::Storage, d.lowType))
      os << "storage-only: the target stores " << d.lowType
         << " but cannot compute this op in it";
    else
      os << "the target can neither store nor compute " << d.lowType;
    fromModel = false;
  }

  // Sums that can keep a wide accumulator read low inputs; with a low
  // accumulator (asked for, or a short reduction) they simply follow.
  bool lossySum = acc && acc->isLossy();
  if (d.category == Policy::Never && fromModel && lossySum) {
    if (wideAcc && acc->separateAccumulator) {
      d.mode = ComputeMode::WideAccumulator;
    } else if (!wideAcc) {
      d.category = Policy::Follow;
      d.reason += "; accumulating in ";
      llvm::raw_string_ostream(d.reason)
          << d.accType << " as asked, so it follows";
    }
  }
  if (d.mode != ComputeMode::WideAccumulator) {
    switch (d.category) {
    case Policy::Allow:
      d.mode = ComputeMode::Low;
      break;
    case Policy::Follow:
      d.mode = ComputeMode::Low;
      d.follows = true;
      break;
    case Policy::Never:
      d.mode = ComputeMode::F32;
      break;
    }
  }
  if (d.mode != ComputeMode::F32)
    if (std::optional<std::string> blocker =
            lowBlocker(op, d.lowType, d)) {
      d.mode = ComputeMode::F32;
      d.follows = false;
      d.reason = *blocker;
    }
}

/// A sum accumulated in f32 can exceed the low type's range (a global
/// pool's sum over 1280 pixels of ~100 is 1.3e5 > 65504) even when what is
/// made of it (the mean) does not: amp never rounds such a sum to the low
/// type. An op that reads one (the division of a decomposed mean or
/// softmax, another sum) computes in f32; its own results are rounded as
/// usual, unless it is itself a sum.
void PrecisionAssignment::Impl::keepSumsWide() {
  DenseSet<Value> wideSums;
  for (auto [op, d] : llvm::zip(ops, decisions)) {
    if (d.mode == ComputeMode::Low || d.mode == ComputeMode::WideAccumulator)
      for (OpOperand &use : op->getOpOperands())
        if (d.dataOperands[use.getOperandNumber()] &&
            wideSums.contains(use.get())) {
          d.mode = ComputeMode::F32;
          d.follows = false;
          d.reason = "reads a sum accumulated in f32, which may exceed the "
                     "range of ";
          llvm::raw_string_ostream(d.reason) << d.lowType;
          break;
        }
    const std::optional<AccumulationInfo> &acc = d.accumulation;
    if (acc && acc->kind == AccumulationKind::Sum &&
        (d.mode == ComputeMode::WideAccumulator ||
         (d.mode == ComputeMode::F32 && acc->reductionSize != 1)))
      for (unsigned i : acc->accumulatorResults)
        wideSums.insert(op->getResult(i));
  }
}

//===----------------------------------------------------------------------===//
// Steps 3 and 4: states
//===----------------------------------------------------------------------===//

void PrecisionAssignment::Impl::propagate(bool fixedOnly) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto [op, d] : llvm::zip(ops, decisions)) {
      GroupState out;
      switch (d.mode) {
      case ComputeMode::Low:
        if (d.follows && fixedOnly)
          continue;
        if (d.follows) {
          for (OpOperand &operand : op->getOpOperands())
            if (d.dataOperands[operand.getOperandNumber()] &&
                !isConstantValue(operand.get()))
              out = join(out, stateOf(operand.get()).state == State::Free
                                  ? GroupState{}
                                  : stateOf(operand.get()));
        } else {
          out = {State::Low, d.lowType};
        }
        break;
      case ComputeMode::WideAccumulator:
      case ComputeMode::F32:
        out = {State::F32, {}};
        break;
      default:
        continue;
      }
      for (OpResult r : op->getResults()) {
        if (!d.dataResults[r.getResultNumber()])
          continue;
        // For the optimal placement a wide accumulator result is an f32
        // value: rounding it for low users is one more cast to place.
        bool wideResult = fixedOnly && d.mode == ComputeMode::Low &&
                          d.accumulation &&
                          llvm::is_contained(d.accumulation->accumulatorResults,
                                             r.getResultNumber()) &&
                          d.accType.getWidth() > d.lowType.getWidth();
        changed |= contribute(r, wideResult ? GroupState{State::F32, {}} : out);
      }
      // An op on buffers produces into its init buffers. For the optimal
      // placement a wide accumulator is left to the cut (its buffer may be
      // low, accumulated through an f32 copy).
      if (getBufferRole(op) == BufferRole::Compute)
        for (OpOperand &init :
             cast<DestinationStyleOpInterface>(op).getDpsInitsMutable()) {
          bool wideInit =
              fixedOnly && d.accumulation &&
              llvm::is_contained(d.accumulation->accumulatorOperands,
                                 init.getOperandNumber()) &&
              d.accType.getWidth() > d.lowType.getWidth();
          if (!wideInit)
            changed |= contribute(init.get(), out);
        }
    }
  }
}

void PrecisionAssignment::Impl::resolveFreeGroups() {
  // One sweep against program order: when an op is visited, every user of
  // its results has been, so its free result groups take what their users
  // want; then the op states what it wants of its own free inputs.
  DenseMap<unsigned, GroupState> wants;
  auto want = [&](Value v, GroupState s) {
    std::optional<unsigned> g = group(v);
    if (g && states[*g].state == State::Free && s.state != State::Free)
      wants[*g] = join(wants.lookup(*g), s);
  };
  auto resolve = [&](Value v) {
    std::optional<unsigned> g = group(v);
    if (!g || states[*g].state != State::Free)
      return;
    auto it = wants.find(*g);
    if (it != wants.end())
      states[*g] = it->second;
  };
  // Fixed f32 signatures want f32: with nothing else asking, a value that
  // only leaves the function is computed in f32, not rounded on the way.
  for (Value v : f32Sinks)
    want(v, {State::F32, {}});
  for (size_t idx = ops.size(); idx-- > 0;) {
    Operation *op = ops[idx];
    const OpDecision &d = decisions[idx];
    for (Value r : op->getResults())
      resolve(r);
    const std::optional<AccumulationInfo> &acc = d.accumulation;
    GroupState low{State::Low, d.lowType};
    FloatType accType = d.accType, lowType = d.lowType;
    GroupState wide = accType && accType.getWidth() > lowType.getWidth()
                          ? GroupState{State::F32, {}}
                          : low;
    // A follow op wants what its decided inputs make it, or else what its
    // users made its result.
    GroupState followState;
    if (d.follows) {
      for (OpOperand &operand : op->getOpOperands())
        if (d.dataOperands[operand.getOperandNumber()] &&
            !isConstantValue(operand.get()))
          followState = join(followState, stateOf(operand.get()));
      if (followState.state == State::Free)
        for (OpResult r : op->getResults())
          if (valueIds.count(r))
            followState = join(followState, stateOf(r));
    }
    for (OpOperand &operand : op->getOpOperands()) {
      unsigned i = operand.getOperandNumber();
      if (!d.dataOperands[i])
        continue;
      bool isAcc = acc && llvm::is_contained(acc->accumulatorOperands, i);
      switch (d.mode) {
      case ComputeMode::Low:
        want(operand.get(),
             d.follows ? followState : (isAcc ? wide : low));
        break;
      case ComputeMode::WideAccumulator:
        want(operand.get(), isAcc ? GroupState{State::F32, {}} : low);
        break;
      case ComputeMode::F32:
      case ComputeMode::Untouched:
        want(operand.get(), {State::F32, {}});
        break;
      default:
        break;
      }
    }
  }
  // Block arguments and values no user asked about.
  for (auto [g, s] : wants)
    if (states[g].state == State::Free)
      states[g] = s;
  // Nobody decided: f32 loses nothing and costs no cast here.
  for (unsigned g = 0, e = states.size(); g < e; ++g)
    if (find(g) == g && states[g].state == State::Free)
      states[g] = {State::F32, {}};
}

void PrecisionAssignment::Impl::finalizeFollowOps() {
  for (auto [op, d] : llvm::zip(ops, decisions)) {
    if (d.mode != ComputeMode::WideAccumulator && !d.follows)
      continue;
    bool wideAcc = d.mode == ComputeMode::WideAccumulator;
    const std::optional<AccumulationInfo> &acc = d.accumulation;
    // A follow op runs low when its decided inputs are all low (constants,
    // empty tensors and fixed arguments decide nothing); with none, its
    // result's group decides. A wide-accumulator op reads low inputs only
    // when they are low already: rounding an f32 argument into an f32
    // accumulator would only lose accuracy.
    bool allLow = true, anyInput = false;
    for (OpOperand &operand : op->getOpOperands()) {
      unsigned i = operand.getOperandNumber();
      if (!d.dataOperands[i] || !valueIds.count(operand.get()))
        continue;
      if (wideAcc && acc && llvm::is_contained(acc->accumulatorOperands, i))
        continue;
      Value v = operand.get();
      bool isConstant = isMaterializable(v);
      if (isConstant || (!wideAcc && entryCast.contains(v)))
        continue;
      GroupState s = entryCast.contains(v) ? GroupState{State::F32, {}}
                                           : stateOf(v);
      anyInput = true;
      allLow &= s.state == State::Low && s.low == d.lowType;
    }
    bool resultsLow = true;
    if (d.follows)
      for (OpResult r : op->getResults()) {
        if (!d.dataResults[r.getResultNumber()] || !valueIds.count(r))
          continue;
        GroupState s = stateOf(r);
        resultsLow &= s.state == State::Low && s.low == d.lowType;
      }
    bool low = (anyInput ? allLow : !wideAcc) && resultsLow;
    if (low) {
      d.reason += anyInput ? "; its inputs are low" : "; its users are low";
      continue;
    }
    d.reason += wideAcc ? "; its inputs are f32, so it stays f32"
                        : "; follows an f32 input or result";
    d.mode = ComputeMode::F32;
  }
}

//===----------------------------------------------------------------------===//
// Naive and optimal placement
//===----------------------------------------------------------------------===//

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

namespace {

/// The labelling problem: variables are free groups and the modes of follow
/// and wide-accumulator ops; label true = low (the source side of the cut).
struct PlacementProblem {
  /// A variable, or a fixed label.
  struct Label {
    int var = -1;
    bool low = false;
  };
  struct CastTerm {
    Label producer;
    SmallVector<Label> consumers;
    int64_t cost;
  };
  unsigned numVars = 0;
  std::vector<int64_t> costIfF32;
  std::vector<std::pair<unsigned, unsigned>> equal;
  std::vector<CastTerm> casts;

  static bool labelOf(Label l, const std::vector<bool> &low) {
    return l.var >= 0 ? low[l.var] : l.low;
  }
  /// The bytes a labelling moves (casts plus values kept wide).
  int64_t energy(const std::vector<bool> &low) const {
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
};

/// Elements in a value (1 for scalars and unknown sizes).
int64_t elementsOf(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return 1;
  return shaped.getNumElements();
}

} // namespace

void PrecisionAssignment::Impl::placeOptimally(Operation *root) {
  using Label = PlacementProblem::Label;
  PlacementProblem problem;
  std::vector<int> groupVar(parent.size(), -1);
  std::vector<FloatType> varLowType;
  auto newVar = [&](FloatType low) {
    problem.costIfF32.push_back(0);
    varLowType.push_back(low);
    return int(problem.numVars++);
  };
  auto labelOfValue = [&](Value v, FloatType low) -> Label {
    std::optional<unsigned> g = group(v);
    if (!g || entryCast.contains(v) || states[*g].state == State::F32)
      return {-1, false};
    if (states[*g].state == State::Low)
      return {-1, true};
    int &var = groupVar[*g];
    if (var < 0)
      var = newVar(low);
    return {var, false};
  };

  // Which label each op gives the data operands it reads, as (value id,
  // label) pairs grouped by value below.
  std::vector<std::pair<unsigned, Label>> reads;
  DenseSet<Value> sinkValues(f32Sinks.begin(), f32Sinks.end());
  std::vector<int> opVar(ops.size(), -1);
  for (auto [idx, op] : llvm::enumerate(ops)) {
    OpDecision &d = decisions[idx];
    Label low{-1, true}, wide{-1, false};
    Label self = low;
    if (d.follows || d.mode == ComputeMode::WideAccumulator) {
      // The op's own label: its result group's for a follow op.
      std::optional<Label> resultLabel;
      if (d.follows)
        for (OpResult r : op->getResults())
          if (d.dataResults[r.getResultNumber()] && valueIds.count(r)) {
            Label l = labelOfValue(r, d.lowType);
            if (!resultLabel)
              resultLabel = l;
            else if (l.var >= 0 && resultLabel->var >= 0)
              problem.equal.push_back({unsigned(l.var), unsigned(resultLabel->var)});
          }
      self = resultLabel ? *resultLabel : Label{newVar(d.lowType), false};
      opVar[idx] = self.var;
      if (self.var < 0 && !self.low) {
        d.mode = ComputeMode::F32;
        d.reason += "; its result is f32";
      }
    }
    const std::optional<AccumulationInfo> &acc = d.accumulation;
    bool wideAcc = d.accType && d.accType.getWidth() > d.lowType.getWidth();
    for (OpOperand &operand : op->getOpOperands()) {
      unsigned i = operand.getOperandNumber();
      Value v = operand.get();
      auto dest = operandDest.find(&operand);
      if (dest != operandDest.end()) {
        if (valueIds.count(v))
          reads.push_back({valueIds.lookup(v), labelOfValue(dest->second, d.lowType)});
        continue;
      }
      if (!d.dataOperands.empty() && !d.dataOperands[i] &&
          d.mode != ComputeMode::Carrier)
        continue;
      auto idIt = valueIds.find(v);
      if (idIt == valueIds.end())
        continue;
      bool isAcc = acc && llvm::is_contained(acc->accumulatorOperands, i);
      unsigned id = idIt->second;
      switch (d.mode) {
      case ComputeMode::Carrier:
        if (sinkValues.contains(v))
          reads.push_back({id, wide});
        break;
      case ComputeMode::Low:
        reads.push_back({id, d.follows ? self : isAcc && wideAcc ? wide : low});
        break;
      case ComputeMode::WideAccumulator:
        reads.push_back({id, isAcc ? wide : self});
        break;
      case ComputeMode::F32:
      case ComputeMode::Untouched:
        reads.push_back({id, wide});
        break;
      case ComputeMode::Constant:
        break;
      }
    }
    // An op writing a buffer of the other type writes it through a copy.
    if (getBufferRole(op) == BufferRole::Compute)
      for (OpOperand &init :
           cast<DestinationStyleOpInterface>(op).getDpsInitsMutable()) {
        if (!valueIds.count(init.get()))
          continue;
        bool isAcc = acc && llvm::is_contained(acc->accumulatorOperands,
                                               init.getOperandNumber());
        Label writes = d.mode == ComputeMode::F32 ||
                               d.mode == ComputeMode::Untouched ||
                               (isAcc && (wideAcc ||
                                          d.mode == ComputeMode::WideAccumulator))
                           ? wide
                           : d.follows || d.mode == ComputeMode::WideAccumulator
                                 ? self
                                 : low;
        problem.casts.push_back({writes,
                                 {labelOfValue(init.get(), d.lowType)},
                                 6 * elementsOf(init.get().getType())});
      }
  }

  // Casts: one per value and direction when some reader wants the other
  // type. Constants and empty tensors are converted for free.
  const std::vector<Value> &valueOf = values;
  llvm::stable_sort(reads, [](const auto &a, const auto &b) {
    return a.first < b.first;
  });
  for (size_t i = 0; i < reads.size();) {
    size_t j = i;
    SmallVector<Label> readers;
    for (; j < reads.size() && reads[j].first == reads[i].first; ++j)
      readers.push_back(reads[j].second);
    Value v = valueOf[reads[i].first];
    i = j;
    if (isConstantValue(v) && !entryCast.contains(v))
      continue;
    Label producer = labelOfValue(v, options->lowType);
    int64_t n = elementsOf(v.getType());
    // A value kept f32 is written and read at twice the width.
    if (producer.var >= 0 && isa<OpResult>(v))
      problem.costIfF32[producer.var] += 2 * n * int64_t(1 + readers.size());
    problem.casts.push_back({producer, std::move(readers), 6 * n});
  }

  // The minimum cut: source side = low.
  MinCutGraph graph;
  std::vector<unsigned> node(problem.numVars);
  for (unsigned v = 0; v < problem.numVars; ++v)
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
  for (unsigned v = 0; v < problem.numVars; ++v)
    edge(MinCutGraph::kSource, node[v], problem.costIfF32[v]);
  for (auto [a, b] : problem.equal) {
    edge(node[a], node[b], MinCutGraph::kInfinity);
    edge(node[b], node[a], MinCutGraph::kInfinity);
  }
  // Terms between fixed labels cost the same in every labelling.
  int64_t constantCost = 0;
  for (const PlacementProblem::CastTerm &t : problem.casts) {
    unsigned p = nodeOf(t.producer);
    SmallVector<unsigned, 4> readers;
    for (Label c : t.consumers)
      if (nodeOf(c) != p && !llvm::is_contained(readers, nodeOf(c)))
        readers.push_back(nodeOf(c));
    bool variable = p > MinCutGraph::kSink ||
                    llvm::any_of(readers, [](unsigned n) {
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
  int64_t cost = graph.solve() + constantCost;
  std::vector<bool> low(problem.numVars);
  for (unsigned v = 0; v < problem.numVars; ++v)
    low[v] = graph.onSourceSide(node[v]);

  if (options->bruteForceLimit && problem.numVars <= options->bruteForceLimit) {
    int64_t best = MinCutGraph::kInfinity;
    for (uint64_t bits = 0; bits < (uint64_t(1) << problem.numVars); ++bits) {
      std::vector<bool> labels(problem.numVars);
      for (unsigned v = 0; v < problem.numVars; ++v)
        labels[v] = (bits >> v) & 1;
      best = std::min(best, problem.energy(labels));
    }
    mlir::emitRemark(root->getLoc())
        << "amp: optimal placement moves " << problem.energy(low)
                       << " bytes (cut " << cost << "); the best of "
                       << (uint64_t(1) << problem.numVars)
                       << " labellings moves " << best;
  }

  // Apply the labels.
  for (auto [g, var] : llvm::enumerate(groupVar))
    if (var >= 0)
      states[g] = low[var] ? GroupState{State::Low, varLowType[var]}
                           : GroupState{State::F32, {}};
  for (unsigned g = 0, e = states.size(); g < e; ++g)
    if (find(g) == g && states[g].state == State::Free)
      states[g] = {State::F32, {}};
  for (auto [idx, d] : llvm::enumerate(decisions)) {
    if (!d.follows && d.mode != ComputeMode::WideAccumulator)
      continue;
    if (d.mode == ComputeMode::F32)
      continue;
    int var = opVar[idx];
    bool isLow = var >= 0 ? low[var] : true;
    if (isLow) {
      d.reason += "; low: fewest bytes moved";
      continue;
    }
    d.reason += d.mode == ComputeMode::WideAccumulator
                    ? "; f32: its inputs are cheaper read in f32"
                    : "; f32: fewest bytes moved";
    d.mode = ComputeMode::F32;
  }
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
PrecisionAssignment::analyze(Operation *root,
                             const AssignmentOptions &options,
                             bool changeSignatures) {
  PrecisionAssignment result;
  Impl &impl = *result.impl;
  impl.options = &options;
  impl.placement = options.placement;
  impl.ctx = root->getContext();
  impl.collect(root, changeSignatures);
  impl.decisions.resize(impl.ops.size());
  for (auto [i, op] : llvm::enumerate(impl.ops)) {
    impl.opIndex[op] = i;
    impl.decide(op, impl.decisions[i]);
  }

  if (!impl.missingOps.empty() && (options.missingOp == MissingOpMode::Warn ||
                                   options.missingOp == MissingOpMode::Error)) {
    bool isError = options.missingOp == MissingOpMode::Error;
    InFlightDiagnostic diag = isError ? root->emitError() : root->emitWarning();
    diag << "amp: ops without a model"
         << (isError ? "" : " stay f32") << ": ";
    llvm::interleaveComma(impl.missingOps, diag, [&](auto &entry) {
      diag << entry.first << " (" << entry.second << ")";
    });
    if (isError)
      return failure();
  }

  impl.keepSumsWide();
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

Placement PrecisionAssignment::getPlacement() const {
  return impl->placement;
}

//===- FloatRangeAnalysis.cpp - Ranges of float values --------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The propagation: entry states (arguments), widening at loop heads, the
// transfer functions (FloatRangeTransfer.cpp) with user-stated and
// calibrated ranges on top, and what the assignment asks of the result
// (fits, describe).
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/FloatRangeAnalysis.h"
#include "FloatRangeTransfer.h"
#include "amp/Analysis/Policy.h"
#include "amp/Dialect/Amp/Amp.h"
#include "amp/Interfaces/AmpOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/RegionGraphTraits.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <deque>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::ranges;

static constexpr double inf = FloatRange::inf;

//===----------------------------------------------------------------------===//
// Input ranges
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<InputRange>>
mlir::amp::parseInputRanges(ArrayRef<std::string> specs, std::string &error) {
  SmallVector<InputRange> ranges;
  for (StringRef spec : specs) {
    InputRange range;
    StringRef bounds = spec;
    auto [head, tail] = spec.split('=');
    if (!tail.empty() || spec.contains('=')) {
      unsigned index;
      if (head.getAsInteger(10, index)) {
        error = "input-range entry '" + spec.str() +
                "': expected LO:HI or N=LO:HI with N an argument index";
        return failure();
      }
      range.argument = index;
      bounds = tail;
    }
    // The separator is the first ':' not right after an exponent... bounds
    // never hold ':' themselves, so split at the last one.
    auto [lo, hi] = bounds.rsplit(':');
    if (lo.getAsDouble(range.lo) || hi.getAsDouble(range.hi) ||
        std::isnan(range.lo) || std::isnan(range.hi) || range.lo > range.hi) {
      error = "input-range entry '" + spec.str() +
              "': expected LO:HI with numbers LO <= HI (e.g. -14:14)";
      return failure();
    }
    ranges.push_back(range);
  }
  return ranges;
}

//===----------------------------------------------------------------------===//
// Widening
//===----------------------------------------------------------------------===//

/// Values a loop may carry around: a bound that grows there jumps to the
/// next step of a finite ladder, so the analysis ends.
static bool isLoopCarried(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Block *block = arg.getOwner();
    Operation *parent = block->getParentOp();
    if (!block->isEntryBlock())
      return true;
    return parent && (isa<LoopLikeOpInterface>(parent) ||
                      isa<RegionBranchOpInterface>(parent));
  }
  return isa_and_present<LoopLikeOpInterface>(value.getDefiningOp());
}

static double widenUp(double v) {
  static const double ladder[] = {
      0, 1, 2, 16, 256, 4096, 65504, 16777216, 1.8e19, 3.39e38, 3.403e38, inf};
  if (v <= 0) {
    // Negative values widen towards zero from below: -x rounded up.
    for (int i = std::size(ladder) - 1; i >= 0; --i)
      if (-ladder[i] >= v)
        return -ladder[i];
    return 0;
  }
  for (double step : ladder)
    if (step >= v)
      return step;
  return inf;
}

/// `old` joined with `next`; bounds that grow jump up the ladder when
/// `widen` is set.
static FloatRange joinRanges(const FloatRange &old, const FloatRange &next,
                             bool widen) {
  FloatRange joined = FloatRange::join(old, next);
  if (!widen || !old.isInitialized())
    return joined;
  double lo = joined.getLo(), hi = joined.getHi();
  if (hi > old.getHi())
    hi = widenUp(hi);
  if (lo < old.getLo())
    lo = -widenUp(-lo);
  return FloatRange(lo, hi, joined.getSource(), joined.getOrigin())
      .setFromAssumption(joined.restsOnAssumption());
}

//===----------------------------------------------------------------------===//
// Propagation
//===----------------------------------------------------------------------===//

namespace {
/// Propagates ranges forward through the program: straight-line code in
/// one visit, a region's blocks in reverse post-order until their arguments
/// are stable, region branch ops (scf.for, scf.while, scf.if) by their
/// interface until what their terminators forward is stable, and calls
/// through the functions they reach (a private function whose every use is
/// a call takes its arguments from its call sites). Unreached blocks and
/// regions (a constant branch condition) and private functions nobody
/// calls keep no ranges.
///
/// amp does this itself rather than on mlir/Analysis/DataFlow: the
/// framework's per-op program points, per-value states and the dead-code
/// and constant analyses it needs beside this one cost more than the whole
/// precision assignment on large models (docs/Performance.md).
class RangePropagation {
public:
  RangePropagation(const FloatRangeOptions &options,
                   llvm::DenseMap<Value, FloatRange> &ranges)
      : options(options), ranges(ranges) {}

  LogicalResult run(Operation *root);

private:
  FloatRange get(Value value) const {
    if (!holdsFloats(value.getType()))
      return FloatRange::known(-inf, inf);
    return ranges.lookup(value);
  }
  /// Joins `range` into `value`'s; whether it changed.
  bool join(Value value, const FloatRange &range, bool widen);
  bool joinLoopCarried(Value value, const FloatRange &range) {
    return join(value, range, isLoopCarried(value));
  }
  FloatRange entryRange(Value value) const;

  void visitFunction(FunctionOpInterface func);
  void visitRegion(Region &region);
  void visitBlock(Block &block);
  void visitOp(Operation *op);
  void visitRegionBranch(RegionBranchOpInterface op);
  bool visitCall(CallOpInterface call);
  void enqueue(Operation *func) {
    if (queued.insert(func).second)
      worklist.push_back(func);
  }

  const FloatRangeOptions &options;
  llvm::DenseMap<Value, FloatRange> &ranges;
  SymbolTableCollection symbols;
  /// Functions whose arguments come only from their call sites.
  llvm::DenseSet<Operation *> closed;
  /// The functions holding the calls of each function.
  llvm::DenseMap<Operation *, SmallVector<Operation *>> callers;
  /// The join of what each function returns.
  llvm::DenseMap<Operation *, SmallVector<FloatRange>> returned;
  llvm::DenseMap<Operation *, unsigned> visits;
  std::deque<Operation *> worklist;
  llvm::DenseSet<Operation *> queued;
  /// Set when a fixpoint loop gives up (a malformed program).
  bool diverged = false;
  /// Whether joins into function arguments and call results widen: set
  /// for functions visited again and again (recursion).
  bool widenCalls = false;
};
} // namespace

bool RangePropagation::join(Value value, const FloatRange &range, bool widen) {
  if (!holdsFloats(value.getType()) || !range.isInitialized())
    return false;
  FloatRange &slot = ranges[value];
  FloatRange joined = joinRanges(slot, range, widen);
  if (joined == slot)
    return false;
  slot = joined;
  return true;
}

FloatRange RangePropagation::entryRange(Value value) const {
  FloatRange range = FloatRange::assumed();
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return range;
  Block *block = arg.getOwner();
  auto func = dyn_cast_or_null<FunctionOpInterface>(block->getParentOp());
  if (!func || !block->isEntryBlock())
    return range;
  // By precedence: the argument's attribute, the option, the policy file's
  // rule on the function.
  unsigned index = arg.getArgNumber();
  auto given = [&](double lo, double hi) {
    return FloatRange(lo, hi, RangeSource::Given, func);
  };
  if (options.policy)
    if (auto stated = options.policy->lookupRange(func))
      range = given(stated->first.first, stated->first.second);
  for (const InputRange &r : options.inputRanges)
    if (!r.argument || *r.argument == index)
      range = given(r.lo, r.hi);
  if (auto attr = func.getArgAttrOfType<ArrayAttr>(
          index, AmpDialect::getRangeAttrName()))
    if (attr.size() == 2 && isa<FloatAttr>(attr[0]) && isa<FloatAttr>(attr[1]))
      range = given(cast<FloatAttr>(attr[0]).getValueAsDouble(),
                    cast<FloatAttr>(attr[1]).getValueAsDouble());
  if (!range.isAssumed() && range.maxAbs() > kAssumedBound)
    range =
        FloatRange(range.getLo(), range.getHi(), RangeSource::Expanded, func);
  return range;
}

/// The constant value of each of `op`'s operands (null where not constant),
/// for the interfaces that prune successors.
static SmallVector<Attribute> constantOperands(Operation *op) {
  SmallVector<Attribute> attrs(op->getNumOperands());
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    matchPattern(operand, m_Constant(&attrs[i]));
  return attrs;
}

/// Past this many rounds a fixpoint loop gives up: widening makes every
/// well-formed program settle long before.
static constexpr unsigned kMaxRounds = 64;

void RangePropagation::visitBlock(Block &block) {
  for (Operation &op : block)
    visitOp(&op);
}

void RangePropagation::visitRegion(Region &region) {
  if (region.empty())
    return;
  if (region.hasOneBlock()) {
    visitBlock(region.front());
    return;
  }
  // A CFG: blocks in reverse post-order, again while a block's arguments
  // change (a back edge) or a block becomes reachable.
  llvm::ReversePostOrderTraversal<Block *> traversal(&region.front());
  SmallVector<Block *> order(traversal.begin(), traversal.end());
  llvm::DenseSet<Block *> live = {&region.front()};
  for (unsigned round = 0;; ++round) {
    if (round == kMaxRounds) {
      diverged = true;
      return;
    }
    bool changed = false;
    for (Block *block : order) {
      if (!live.contains(block))
        continue;
      visitBlock(*block);
      Operation *terminator = block->getTerminator();
      auto branch = dyn_cast<BranchOpInterface>(terminator);
      Block *only =
          branch ? branch.getSuccessorForOperands(constantOperands(terminator))
                 : nullptr;
      for (auto [index, successor] :
           llvm::enumerate(terminator->getSuccessors())) {
        if (only && successor != only)
          continue;
        changed |= live.insert(successor).second;
        unsigned produced = 0;
        OperandRange forwarded = terminator->getOperands().take_front(0);
        if (branch) {
          SuccessorOperands operands = branch.getSuccessorOperands(index);
          produced = operands.getProducedOperandCount();
          forwarded = operands.getForwardedOperands();
        } else {
          produced = successor->getNumArguments();
        }
        for (unsigned i = 0; i < produced && i < successor->getNumArguments();
             ++i)
          changed |= join(successor->getArgument(i),
                          entryRange(successor->getArgument(i)), true);
        for (auto [operand, arg] : llvm::zip(
                 forwarded, successor->getArguments().drop_front(produced)))
          changed |= join(arg, get(operand), true);
      }
    }
    if (!changed)
      return;
  }
}

void RangePropagation::visitRegionBranch(RegionBranchOpInterface op) {
  llvm::SetVector<Region *> live;
  auto flow = [&](OperandRange operands, const RegionSuccessor &successor) {
    bool changed = false;
    ValueRange inputs = successor.getSuccessorInputs();
    for (auto [operand, input] : llvm::zip(operands, inputs))
      changed |= joinLoopCarried(input, get(operand));
    if (Region *region = successor.getSuccessor()) {
      changed |= live.insert(region);
      // Arguments nothing is forwarded to (an induction variable).
      for (BlockArgument arg : region->getArguments())
        if (!llvm::is_contained(inputs, arg))
          changed |= join(arg, entryRange(arg), false);
    }
    return changed;
  };
  SmallVector<RegionSuccessor> entries;
  op.getEntrySuccessorRegions(constantOperands(op), entries);
  for (const RegionSuccessor &successor : entries)
    flow(op.getEntrySuccessorOperands(successor), successor);
  for (unsigned round = 0;; ++round) {
    if (round == kMaxRounds) {
      diverged = true;
      return;
    }
    bool changed = false;
    for (unsigned i = 0; i < live.size(); ++i) {
      Region *region = live[i];
      visitRegion(*region);
      for (Block &block : *region) {
        auto terminator =
            dyn_cast_if_present<RegionBranchTerminatorOpInterface>(
                block.empty() ? nullptr : &block.back());
        if (!terminator)
          continue;
        SmallVector<RegionSuccessor> successors;
        terminator.getSuccessorRegions(constantOperands(terminator),
                                       successors);
        for (const RegionSuccessor &successor : successors)
          changed |=
              flow(terminator.getSuccessorOperands(successor), successor);
      }
    }
    if (!changed)
      return;
  }
}

bool RangePropagation::visitCall(CallOpInterface call) {
  auto callee = dyn_cast_if_present<FunctionOpInterface>(
      call.resolveCallableInTable(&symbols));
  if (!callee || callee.isExternal())
    return false;
  if (closed.contains(callee)) {
    bool changed = false;
    for (auto [operand, arg] :
         llvm::zip(call.getArgOperands(), callee.getArguments()))
      changed |= join(arg, get(operand), widenCalls);
    if (changed)
      enqueue(callee);
  }
  auto it = returned.find(callee);
  if (it != returned.end())
    for (auto [result, range] : llvm::zip(call->getResults(), it->second))
      join(result, range, widenCalls);
  return true;
}

void RangePropagation::visitOp(Operation *op) {
  if (auto branch = dyn_cast<RegionBranchOpInterface>(op))
    return visitRegionBranch(branch);
  if (auto call = dyn_cast<CallOpInterface>(op))
    if (visitCall(call))
      return;
  if (op->getNumResults() == 0)
    return;
  SmallVector<FloatRange> in;
  in.reserve(op->getNumOperands());
  for (Value v : op->getOperands()) {
    FloatRange r = get(v);
    // Wait until every float operand has a range.
    if (!r.isInitialized())
      return;
    in.push_back(r);
  }
  SmallVector<FloatRange> out =
      ranges::evaluate(op, in, [&](Value v) { return get(v); });
  // What the user states of the op's results wins over what is computed
  // and what was observed.
  std::optional<std::pair<std::pair<double, double>, std::string>> stated;
  if (options.policy)
    stated = options.policy->lookupRange(op);
  for (auto [result, range] : llvm::zip(op->getResults(), out)) {
    if (!holdsFloats(result.getType()))
      continue;
    FloatRange r = range;
    if (stated)
      r = FloatRange(stated->first.first, stated->first.second,
                     std::max(std::fabs(stated->first.first),
                              std::fabs(stated->first.second)) > kAssumedBound
                         ? RangeSource::Expanded
                         : RangeSource::Given,
                     op);
    if (options.calibrated && !stated) {
      auto it = options.calibrated->find(result);
      if (it != options.calibrated->end()) {
        const ObservedRange &o = it->second;
        double lo = o.hasFiniteValues() ? o.min : 0;
        double hi = o.hasFiniteValues() ? o.max : 0;
        if (o.nonfinite) {
          lo = -inf;
          hi = inf;
        }
        r = FloatRange(lo, hi, RangeSource::Calibrated, op);
      }
    }
    joinLoopCarried(result, r);
  }
}

void RangePropagation::visitFunction(FunctionOpInterface func) {
  if (func.isExternal())
    return;
  widenCalls = ++visits[func] > 2;
  if (!closed.contains(func))
    for (BlockArgument arg : func.getArguments())
      join(arg, entryRange(arg), false);
  visitRegion(func.getFunctionBody());
  SmallVector<FloatRange> results(func.getResultTypes().size());
  for (Block &block : func.getFunctionBody()) {
    if (block.empty() || !block.back().hasTrait<OpTrait::ReturnLike>())
      continue;
    for (auto [range, operand] : llvm::zip(results, block.back().getOperands()))
      range = FloatRange::join(range, get(operand));
  }
  SmallVector<FloatRange> &old = returned[func];
  if (old == results)
    return;
  old = std::move(results);
  for (Operation *caller : callers.lookup(func))
    enqueue(caller);
}

LogicalResult RangePropagation::run(Operation *root) {
  // The functions, and who calls whom.
  SmallVector<Operation *> functions =
      llvm::map_to_vector(getFunctions(root), [](FunctionOpInterface f) {
        return f.getOperation();
      });
  llvm::DenseMap<Operation *, unsigned> calls;
  // (A call in a structured op's body is not counted: its callee is then
  // not closed, and its arguments are assumed.)
  for (Operation *func : functions)
    func->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<linalg::LinalgOp>(op))
        return WalkResult::skip();
      auto call = dyn_cast<CallOpInterface>(op);
      if (!call)
        return WalkResult::advance();
      if (auto callee = dyn_cast_if_present<FunctionOpInterface>(
              call.resolveCallableInTable(&symbols))) {
        callers[callee].push_back(func);
        ++calls[callee];
      }
      return WalkResult::advance();
    });
  // A private function is closed when its every use is a call.
  for (Operation *func : functions) {
    auto symbol = dyn_cast<SymbolOpInterface>(func);
    Operation *table = func->getParentOp();
    if (!symbol || !symbol.isPrivate() || !table ||
        !table->hasTrait<OpTrait::SymbolTable>())
      continue;
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(func, table);
    if (uses &&
        static_cast<unsigned>(llvm::range_size(*uses)) == calls.lookup(func))
      closed.insert(func);
  }
  for (auto &entry : callers) {
    llvm::sort(entry.second);
    entry.second.erase(llvm::unique(entry.second), entry.second.end());
  }

  if (auto func = dyn_cast<FunctionOpInterface>(root)) {
    enqueue(func);
  } else {
    for (Operation *func : functions)
      enqueue(func);
    // Code outside functions (a module's top level).
    for (Region &region : root->getRegions())
      for (Block &block : region)
        for (Operation &op : block)
          if (!isa<FunctionOpInterface>(op) &&
              !op.hasTrait<OpTrait::SymbolTable>())
            visitOp(&op);
  }
  unsigned steps = 0;
  while (!worklist.empty()) {
    Operation *func = worklist.front();
    worklist.pop_front();
    queued.erase(func);
    if (++steps > kMaxRounds * (functions.size() + 1)) {
      diverged = true;
      break;
    }
    visitFunction(cast<FunctionOpInterface>(func));
  }
  return failure(diverged);
}

//===----------------------------------------------------------------------===//
// FloatRanges
//===----------------------------------------------------------------------===//

struct FloatRanges::Impl {
  llvm::DenseMap<Value, FloatRange> ranges;
  FloatRangeOptions options;

  /// What calibration observed of `value`, if anything.
  const ObservedRange *observed(Value value) const {
    if (!options.calibrated)
      return nullptr;
    auto it = options.calibrated->find(value);
    return it == options.calibrated->end() ? nullptr : &it->second;
  }
};

FloatRanges::FloatRanges() : impl(std::make_unique<Impl>()) {}
FloatRanges::~FloatRanges() = default;
FloatRanges::FloatRanges(FloatRanges &&) = default;
FloatRanges &FloatRanges::operator=(FloatRanges &&) = default;

FailureOr<FloatRanges> FloatRanges::compute(Operation *root,
                                            const FloatRangeOptions &options) {
  FloatRanges result;
  result.impl->options = options;
  RangePropagation propagation(result.impl->options, result.impl->ranges);
  if (failed(propagation.run(root)))
    return failure();
  return result;
}

FloatRange FloatRanges::lookup(Value value) const {
  if (!holdsFloats(value.getType()))
    return FloatRange();
  return impl->ranges.lookup(value);
}

/// "%3 = math.exp at file.mlir:4:10" for reasons.
static std::string describeOp(Operation *op) {
  return (op->getName().getStringRef() + " at " + formatLocation(op->getLoc()))
      .str();
}

static std::string formatBound(double v) {
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  return llvm::formatv("{0}", llvm::format("%.6g", v)).str();
}

static std::string formatRange(const FloatRange &r) {
  return "[" + formatBound(r.getLo()) + ", " + formatBound(r.getHi()) + "]";
}

std::string FloatRanges::describe(Value value) const {
  FloatRange r = lookup(value);
  if (!r.isInitialized())
    return "not reached by the range analysis";
  Operation *origin = r.getOrigin();
  switch (r.getSource()) {
  case RangeSource::Assumed:
    return "in " + formatRange(r) + ", assumed (inputs are assumed to fit " +
           "f16, |x| <= 65504)";
  case RangeSource::Given:
    if (origin && isa<FunctionOpInterface>(origin))
      return "in " + formatRange(r) + ": the range given for the argument";
    if (origin)
      return "in " + formatRange(r) + ": the range the policy file gives for " +
             describeOp(origin);
    return "in " + formatRange(r) + ": given";
  case RangeSource::Known:
    if (origin)
      return "in " + formatRange(r) + ": output of " + describeOp(origin);
    return "in " + formatRange(r);
  case RangeSource::Calibrated: {
    std::string text = "calibrated max |x| = " + formatBound(r.maxAbs());
    if (const ObservedRange *o = impl->observed(value); o && o->nonfinite)
      text += " (" + std::to_string(o->nonfinite) +
              " non-finite values seen in f32)";
    return text;
  }
  case RangeSource::Expanded: {
    std::string reach =
        "may reach " + (r.getHi() >= -r.getLo() ? formatBound(r.getHi())
                                                : formatBound(r.getLo()));
    if (!origin)
      return "in " + formatRange(r) + ", " + reach;
    if (isa<FunctionOpInterface>(origin))
      return "in " + formatRange(r) + ": the range given for the argument";
    if (origin == value.getDefiningOp() && impl->options.policy &&
        impl->options.policy->lookupRange(origin))
      return "in " + formatRange(r) + ": the range the policy file gives for " +
             describeOp(origin);
    std::string text = describeOp(origin);
    SmallVector<std::string> inputs;
    for (Value operand : origin->getOperands())
      if (holdsFloats(operand.getType())) {
        FloatRange in = lookup(operand);
        if (in.isInitialized())
          inputs.push_back((in.isAssumed() ? "assumed in " : "in ") +
                           formatRange(in));
      }
    if (!inputs.empty())
      text += " of values " + llvm::join(inputs, " and ");
    if (origin != value.getDefiningOp())
      return "in " + formatRange(r) + ", computed from " + text + ", which " +
             reach;
    return text + " " + reach;
  }
  }
  llvm_unreachable("unknown range source");
}

RangeFit FloatRanges::fits(Value value, FloatType lowType, bool explain) const {
  RangeFit fit;
  FloatRange r = lookup(value);
  if (!r.isInitialized() || r.isAssumed())
    return fit;
  // Constants are checked value by value where they are converted.
  if (Operation *def = value.getDefiningOp())
    if (def->hasTrait<OpTrait::ConstantLike>())
      return fit;
  const llvm::fltSemantics &sem = lowType.getFloatSemantics();
  double largest = APFloat::getLargest(sem).convertToDouble();
  double smallestNormal = APFloat::getSmallestNormalized(sem).convertToDouble();
  bool calibrated = r.getSource() == RangeSource::Calibrated;
  // bf16 has f32's range: an f32 value cannot overflow it.
  bool narrowRange = largest < 1e38;
  // Infinities themselves (a max reduction's -inf start) are held by every
  // float type.
  if (r.getLo() == r.getHi() && std::isinf(r.getLo()))
    return fit;
  double margin = calibrated ? 2 : 1;
  if (narrowRange && (r.isExpanded() || r.maxAbs() * margin > largest)) {
    fit.kind = RangeFit::MayOverflow;
    if (!explain)
      return fit;
    llvm::raw_string_ostream os(fit.reason);
    os << describe(value) << ", beyond " << lowType << "'s largest value "
       << formatBound(largest);
    if (calibrated)
      os << " (with a margin of 2)";
    return fit;
  }
  if (calibrated) {
    if (const ObservedRange *o = impl->observed(value)) {
      double fraction = lowType.isF16() ? o->f16ZeroOrSubnormalFraction()
                                        : o->bf16ZeroOrSubnormalFraction();
      if (fraction > 0.5) {
        fit.kind = RangeFit::Underflows;
        if (!explain)
          return fit;
        fit.reason = llvm::formatv("calibrated: {0}% of its values would be "
                                   "zero or subnormal in {1}",
                                   llvm::format("%.0f", fraction * 100),
                                   lowType.isF16() ? "f16" : "bf16")
                         .str();
      }
    }
    return fit;
  }
  if (!r.isExpanded() && r.maxAbs() > 0 && r.maxAbs() < smallestNormal) {
    fit.kind = RangeFit::Underflows;
    if (!explain)
      return fit;
    llvm::raw_string_ostream os(fit.reason);
    os << describe(value) << ": every nonzero value is below " << lowType
       << "'s smallest normal " << formatBound(smallestNormal)
       << " (subnormal or zero)";
  }
  return fit;
}

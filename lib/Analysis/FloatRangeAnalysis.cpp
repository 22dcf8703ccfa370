//===- FloatRangeAnalysis.cpp - Ranges of float values --------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The analysis on MLIR's data-flow framework: entry states (arguments),
// widening at loop heads, the transfer functions (FloatRangeTransfer.cpp)
// with user-stated and calibrated ranges on top, and what the assignment
// asks of the result (fits, describe).
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/FloatRangeAnalysis.h"
#include "FloatRangeTransfer.h"
#include "amp/Analysis/Policy.h"
#include "amp/Dialect/Amp/Amp.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

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

ChangeResult FloatRangeLattice::join(const AbstractSparseLattice &rhs) {
  const FloatRange &other =
      static_cast<const FloatRangeLattice &>(rhs).getValue();
  FloatRange old = getValue();
  FloatRange joined = FloatRange::join(old, other);
  if (old.isInitialized() && isLoopCarried(getAnchor())) {
    double lo = joined.getLo(), hi = joined.getHi();
    if (hi > old.getHi())
      hi = widenUp(hi);
    if (lo < old.getLo())
      lo = -widenUp(-lo);
    joined = FloatRange(lo, hi, joined.getSource(), joined.getOrigin());
  }
  if (joined == old)
    return ChangeResult::NoChange;
  getValue() = joined;
  return ChangeResult::Change;
}

//===----------------------------------------------------------------------===//
// FloatRangeAnalysis
//===----------------------------------------------------------------------===//

void FloatRangeAnalysis::setToEntryState(FloatRangeLattice *lattice) {
  Value value = lattice->getAnchor();
  FloatRange range = FloatRange::assumed();
  if (!holdsFloats(value.getType())) {
    range = FloatRange::known(-inf, inf);
  } else if (auto arg = dyn_cast<BlockArgument>(value)) {
    Block *block = arg.getOwner();
    auto func = dyn_cast_or_null<FunctionOpInterface>(block->getParentOp());
    if (func && block->isEntryBlock()) {
      // By precedence: the argument's attribute, the option, the policy
      // file's rule on the function.
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
        if (attr.size() == 2 && isa<FloatAttr>(attr[0]) &&
            isa<FloatAttr>(attr[1]))
          range = given(cast<FloatAttr>(attr[0]).getValueAsDouble(),
                        cast<FloatAttr>(attr[1]).getValueAsDouble());
      if (!range.isAssumed() && range.maxAbs() > kAssumedBound)
        range = FloatRange(range.getLo(), range.getHi(), RangeSource::Expanded,
                           func);
    }
  }
  propagateIfChanged(lattice, lattice->join(range));
}

LogicalResult
FloatRangeAnalysis::visitOperation(Operation *op,
                                   ArrayRef<const FloatRangeLattice *> operands,
                                   ArrayRef<FloatRangeLattice *> results) {
  if (results.empty())
    return success();
  // Ops of a body its owner evaluates (a linalg op's) are not values of
  // the program: the owner's transfer function evaluates them.
  if (Operation *parent = op->getParentOp())
    if (!isa<FunctionOpInterface, RegionBranchOpInterface>(parent) &&
        !parent->hasTrait<OpTrait::SymbolTable>())
      return success();
  SmallVector<FloatRange> in;
  for (auto [v, lattice] : llvm::zip(op->getOperands(), operands)) {
    // Wait until every float operand has a range.
    if (holdsFloats(v.getType()) && !lattice->getValue().isInitialized())
      return success();
    in.push_back(lattice->getValue());
  }
  auto outside = [&](Value v) {
    return getLatticeElementFor(getProgramPointAfter(op), v)->getValue();
  };
  SmallVector<FloatRange> out = ranges::evaluate(op, in, outside);
  // What the user states of the op's results wins over what is computed
  // and what was observed.
  std::optional<std::pair<std::pair<double, double>, std::string>> stated;
  if (options.policy)
    stated = options.policy->lookupRange(op);
  for (auto [result, lattice, range] :
       llvm::zip(op->getResults(), results, out)) {
    FloatRange r = range;
    if (!holdsFloats(result.getType()))
      r = FloatRange::known(-inf, inf);
    else if (stated)
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
    propagateIfChanged(lattice, lattice->join(r));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// FloatRanges
//===----------------------------------------------------------------------===//

struct FloatRanges::Impl {
  DataFlowSolver solver;
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
  FloatRanges ranges;
  ranges.impl->options = options;
  DataFlowSolver &solver = ranges.impl->solver;
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<FloatRangeAnalysis>(ranges.impl->options);
  if (failed(solver.initializeAndRun(root)))
    return failure();
  return ranges;
}

FloatRange FloatRanges::lookup(Value value) const {
  const FloatRangeLattice *lattice =
      impl->solver.lookupState<FloatRangeLattice>(value);
  if (!lattice || !holdsFloats(value.getType()))
    return FloatRange();
  return lattice->getValue();
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

RangeFit FloatRanges::fits(Value value, FloatType lowType) const {
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
    llvm::raw_string_ostream os(fit.reason);
    os << describe(value) << ": every nonzero value is below " << lowType
       << "'s smallest normal " << formatBound(smallestNormal)
       << " (subnormal or zero)";
  }
  return fit;
}

//===- FloatRangeAnalysis.cpp - Ranges of float values --------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every transfer function computes the hull of what an op can produce from
// its operands' intervals (interval arithmetic, FloatRange.cpp), then
// `settle` gives the result its status:
//  - bounds that fit the assumed bound keep the operands' certainty (an
//    op of assumed values is assumed, of facts is a fact);
//  - bounds beyond it are "expanded" (may exceed the low type) when the op
//    expands ranges (exp, pow, log near 0, division by values near 0, a
//    sum of many elements), when an operand was already expanded, or when
//    every operand is a fact (then the bound is sound);
//  - otherwise the op only combines assumed values (x * y, a matmul of
//    activations) and its result is assumed to fit, as its inputs were.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/FloatRangeAnalysis.h"
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
using interval::Bounds;

static constexpr double inf = FloatRange::inf;

/// A float scalar, or a shaped value of floats.
static bool holdsFloats(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  return isa<FloatType>(type);
}

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
        std::isnan(range.lo) || std::isnan(range.hi) ||
        range.lo > range.hi) {
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
  static const double ladder[] = {0,       1,       2,        16,
                                  256,     4096,    65504,    16777216,
                                  1.8e19,  3.39e38, 3.403e38, inf};
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
// Transfer functions
//===----------------------------------------------------------------------===//

namespace {
/// What a transfer function says of one result.
struct Transfer {
  Bounds bounds;
  /// The op expands ranges (exp, division by small values, long sums).
  bool expanding = false;
  /// The bounds hold whatever the operands are (tanh, softmax, clamp).
  bool bounded = false;
};
} // namespace

static Transfer unbounded() { return {{-inf, inf}, true, false}; }

/// The result's range from the transfer and the operands' ranges.
static FloatRange settle(Operation *op, const Transfer &t,
                         ArrayRef<FloatRange> operands) {
  Bounds b = t.bounds;
  if (std::isnan(b.lo))
    b.lo = -inf;
  if (std::isnan(b.hi))
    b.hi = inf;
  if (t.bounded)
    return FloatRange::known(b.lo, b.hi, op);
  bool assumedIn = false, calibratedIn = false;
  // (Given ranges are facts like constants: results of them are Known.)
  const FloatRange *expandedIn = nullptr;
  for (const FloatRange &r : operands) {
    if (!r.isInitialized())
      continue;
    assumedIn |= r.isAssumed();
    calibratedIn |= r.getSource() == RangeSource::Calibrated;
    if (r.isExpanded() && !expandedIn)
      expandedIn = &r;
  }
  double maxAbs = std::max(std::fabs(b.lo), std::fabs(b.hi));
  if (maxAbs <= kAssumedBound)
    return {b.lo, b.hi,
            assumedIn      ? RangeSource::Assumed
            : calibratedIn ? RangeSource::Calibrated
                           : RangeSource::Known};
  if (expandedIn && !t.expanding)
    return {b.lo, b.hi, RangeSource::Expanded, expandedIn->getOrigin()};
  if (t.expanding || expandedIn || !assumedIn)
    return {b.lo, b.hi, RangeSource::Expanded, op};
  // Only assumed values combined: assumed to fit, as they were.
  double lo = std::max(b.lo, -kAssumedBound), hi = std::min(b.hi, kAssumedBound);
  if (lo > hi)
    return {b.lo, b.hi, RangeSource::Expanded, op};
  return {lo, hi, RangeSource::Assumed};
}

/// The bounds of an integer type's values (an integer converted to float).
static Bounds integerBounds(Type type, bool isUnsigned) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  unsigned width = type.getIntOrFloatBitWidth();
  if (type.isIndex() || width >= 64)
    return {isUnsigned ? 0 : -9.3e18, 1.85e19};
  if (width == 1)
    return {isUnsigned ? 0.0 : -1.0, 1};
  double half = std::ldexp(1.0, width - 1);
  if (isUnsigned)
    return {0, 2 * half - 1};
  return {-half, half - 1};
}

static double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

/// An elementwise op's transfer over operand bounds, for arith and math ops
/// on scalars, vectors or tensors (and in linalg bodies). Returns nullopt for
/// ops it does not know.
static std::optional<Transfer> elementwise(Operation *op,
                                           ArrayRef<Bounds> in) {
  using namespace interval;
  auto result = [](Bounds b) { return Transfer{b, false, false}; };
  auto expanding = [](Bounds b) { return Transfer{b, true, false}; };
  auto bounded = [](Bounds b) { return Transfer{b, false, true}; };
  auto monotone = [&](double (*f)(double)) { return increasing(in[0], f); };
  return llvm::TypeSwitch<Operation *, std::optional<Transfer>>(op)
      .Case([&](arith::AddFOp) { return result(add(in[0], in[1])); })
      .Case([&](arith::SubFOp) { return result(sub(in[0], in[1])); })
      .Case([&](arith::MulFOp mul) {
        // x * x is a square: never negative.
        if (mul.getLhs() == mul.getRhs())
          return result(powConstant(in[0], 2));
        return result(interval::mul(in[0], in[1]));
      })
      .Case([&](arith::DivFOp) {
        // Division by values near zero expands; by values bounded away from
        // zero it scales, like a multiplication.
        Bounds r = reciprocal(in[1]);
        return Transfer{div(in[0], in[1]),
                        std::max(std::fabs(r.lo), std::fabs(r.hi)) >
                            kAssumedBound,
                        false};
      })
      .Case([&](arith::RemFOp) {
        double m = abs(in[1]).hi;
        return result({-m, m});
      })
      .Case([&](arith::NegFOp) { return result({-in[0].hi, -in[0].lo}); })
      .Case<arith::MaximumFOp, arith::MaxNumFOp>([&](Operation *) {
        return result(
            {std::max(in[0].lo, in[1].lo), std::max(in[0].hi, in[1].hi)});
      })
      .Case<arith::MinimumFOp, arith::MinNumFOp>([&](Operation *) {
        return result(
            {std::min(in[0].lo, in[1].lo), std::min(in[0].hi, in[1].hi)});
      })
      .Case([&](arith::SelectOp) { return result(hull(in[1], in[2])); })
      .Case<arith::ExtFOp, arith::TruncFOp>(
          [&](Operation *) { return result(in[0]); })
      .Case<arith::SIToFPOp, arith::UIToFPOp>(
          [&](Operation *cast) -> std::optional<Transfer> {
            // Narrow integers bound their values; wider ones (indices,
            // counts) are assumed to fit, as other inputs are.
            Type in = getElementTypeOrSelf(cast->getOperand(0).getType());
            if (in.isIndex() || in.getIntOrFloatBitWidth() > 16)
              return std::nullopt;
            return bounded(integerBounds(in, isa<arith::UIToFPOp>(cast)));
          })
      .Case([&](math::AbsFOp) { return result(abs(in[0])); })
      .Case([&](math::CopySignOp) {
        double m = abs(in[0]).hi;
        return result({-m, m});
      })
      .Case([&](math::ExpOp) {
        return expanding(monotone([](double x) { return std::exp(x); }));
      })
      .Case([&](math::Exp2Op) {
        return expanding(monotone([](double x) { return std::exp2(x); }));
      })
      .Case([&](math::ExpM1Op) {
        return expanding(monotone([](double x) { return std::expm1(x); }));
      })
      .Case<math::SinhOp, math::CoshOp, math::TanOp>(
          [&](Operation *) { return unbounded(); })
      .Case<math::LogOp, math::Log2Op, math::Log10Op, math::Log1pOp>(
          [&](Operation *log) {
            double (*f)(double) = [](double x) { return std::log(x); };
            if (isa<math::Log2Op>(log))
              f = [](double x) { return std::log2(x); };
            else if (isa<math::Log10Op>(log))
              f = [](double x) { return std::log10(x); };
            else if (isa<math::Log1pOp>(log))
              f = [](double x) { return std::log1p(x); };
            double floor = isa<math::Log1pOp>(log) ? -1 : 0;
            Bounds b = {in[0].lo <= floor ? -inf : f(in[0].lo),
                        in[0].hi <= floor ? -inf : f(in[0].hi)};
            return expanding(b);
          })
      .Case([&](math::SqrtOp) {
        return result(
            {std::sqrt(std::max(in[0].lo, 0.0)), std::sqrt(std::max(in[0].hi, 0.0))});
      })
      .Case([&](math::CbrtOp) { return result(monotone(std::cbrt)); })
      .Case([&](math::RsqrtOp) {
        Bounds s = {std::sqrt(std::max(in[0].lo, 0.0)),
                    std::sqrt(std::max(in[0].hi, 0.0))};
        return expanding(reciprocal(s));
      })
      .Case([&](math::PowFOp pow) {
        if (in[1].lo == in[1].hi)
          return expanding(powConstant(in[0], in[1].lo));
        if (in[0].lo > 0) {
          Bounds l = increasing(in[0], std::log);
          Bounds e = mul(l, in[1]);
          return expanding(increasing(e, std::exp));
        }
        return unbounded();
      })
      .Case([&](math::FPowIOp) { return unbounded(); })
      .Case([&](math::TanhOp) { return bounded(monotone(std::tanh)); })
      .Case([&](math::ErfOp) { return bounded(monotone(std::erf)); })
      .Case([&](math::ErfcOp) { return bounded(decreasing(in[0], std::erfc)); })
      .Case<math::SinOp, math::CosOp>(
          [&](Operation *) { return bounded({-1, 1}); })
      .Case([&](math::AtanOp) { return bounded(monotone(std::atan)); })
      .Case([&](math::Atan2Op) { return bounded({-M_PI, M_PI}); })
      .Case<math::AsinOp, math::AcosOp>(
          [&](Operation *) { return bounded({-M_PI, M_PI}); })
      .Case<math::FloorOp, math::CeilOp, math::RoundOp, math::RoundEvenOp,
            math::TruncOp>([&](Operation *) {
        return result({std::floor(in[0].lo), std::ceil(in[0].hi)});
      })
      .Case([&](math::FmaOp) {
        return result(add(mul(in[0], in[1]), in[2]));
      })
      .Case([&](math::ClampFOp) {
        return result({std::min(std::max(in[0].lo, in[1].lo), in[2].hi),
                       std::min(std::max(in[0].hi, in[1].lo), in[2].hi)});
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// Looks through ops that broadcast or reshape a value without changing its
/// elements.
static Value stripBroadcasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto broadcast = dyn_cast<linalg::BroadcastOp>(def))
      v = broadcast.getInput();
    else if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                 tosa::ReshapeOp, tensor::CastOp>(def))
      v = def->getOperand(0);
    else
      break;
  }
  return v;
}

/// The combiner of a reduction's `output`-th init in a linalg op.
static Operation *getCombiner(linalg::LinalgOp op, unsigned output) {
  Block *body = op.getBlock();
  BlockArgument acc = body->getArgument(op.getNumDpsInputs() + output);
  Value yielded = body->getTerminator()->getOperand(output);
  Operation *combiner = yielded.getDefiningOp();
  if (!combiner || !llvm::is_contained(combiner->getOperands(), acc))
    return nullptr;
  return combiner;
}

/// True if `reduced` (through broadcasts) is a reduction of `source` whose
/// combiner computes `kind`: the sum or max of a softmax, a normalisation.
static bool isReductionOf(Value reduced, Value source, bool sum) {
  reduced = stripBroadcasts(reduced);
  source = stripBroadcasts(source);
  Operation *def = reduced.getDefiningOp();
  if (!def)
    return false;
  if (sum ? isa<tosa::ReduceSumOp>(def) : isa<tosa::ReduceMaxOp>(def))
    return stripBroadcasts(def->getOperand(0)) == source;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(def);
  if (!linalgOp || linalgOp.getNumReductionLoops() == 0 ||
      linalgOp.getNumDpsInputs() != 1 || linalgOp.getNumDpsInits() != 1 ||
      stripBroadcasts(linalgOp.getDpsInputOperand(0)->get()) != source)
    return false;
  Operation *combiner = getCombiner(linalgOp, 0);
  if (!combiner)
    return false;
  return sum ? isa<arith::AddFOp>(combiner)
             : isa<arith::MaximumFOp, arith::MaxNumFOp>(combiner);
}

namespace {
/// Evaluates ops on ranges: at the top level with the lattice's ranges, in a
/// linalg body with the ranges of the op's operands.
class Evaluator {
public:
  /// `outside` gives the range of a value a body captures from outside.
  Evaluator(const FloatRangeOptions &options,
            llvm::function_ref<FloatRange(Value)> outside)
      : options(options), outside(outside) {}

  /// The ranges of `op`'s results from its operands' ranges.
  SmallVector<FloatRange> evaluate(Operation *op,
                                   ArrayRef<FloatRange> operands);

private:
  FloatRange evaluateElementwise(Operation *op, ArrayRef<FloatRange> operands,
                                 ArrayRef<Value> tensors);
  SmallVector<FloatRange> evaluateLinalg(linalg::LinalgOp op,
                                         ArrayRef<FloatRange> operands);
  std::optional<FloatRange> evaluateTosa(Operation *op,
                                         ArrayRef<FloatRange> operands);

  const FloatRangeOptions &options;
  llvm::function_ref<FloatRange(Value)> outside;
};
} // namespace

static Bounds boundsOf(const FloatRange &r) {
  if (!r.isInitialized())
    return {-inf, inf};
  return {r.getLo(), r.getHi()};
}

/// The range of a constant's values, or nullopt if it holds no floats.
static std::optional<FloatRange> constantRange(Operation *op) {
  Attribute value;
  if (op->getNumResults() != 1 ||
      !matchPattern(op->getResult(0), m_Constant(&value)))
    return std::nullopt;
  if (auto f = dyn_cast<FloatAttr>(value))
    return FloatRange::point(f.getValueAsDouble());
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense || !isa<FloatType>(dense.getElementType()))
    return std::nullopt;
  if (dense.empty())
    return FloatRange::point(0);
  double lo = inf, hi = -inf;
  for (APFloat v : dense.getValues<APFloat>()) {
    double d = v.convertToDouble();
    if (std::isnan(d))
      d = inf;
    lo = std::min(lo, d);
    hi = std::max(hi, d);
    if (dense.isSplat())
      break;
  }
  return FloatRange::known(lo, hi);
}

FloatRange Evaluator::evaluateElementwise(Operation *op,
                                          ArrayRef<FloatRange> operands,
                                          ArrayRef<Value> tensors) {
  SmallVector<Bounds> in = llvm::map_to_vector(operands, boundsOf);
  // Normalisations: x - max(x) is at most 0; e / sum(e) with e >= 0 is in
  // [0, 1] (the parts of a softmax).
  if (tensors.size() == 2 && operands.size() == 2) {
    if (isa<arith::SubFOp>(op) && isReductionOf(tensors[1], tensors[0], false))
      return settle(op,
                    {{in[0].lo - in[1].hi, 0}, false, false}, operands);
    if (isa<arith::DivFOp>(op) && in[0].lo >= 0 &&
        isReductionOf(tensors[1], tensors[0], true))
      return FloatRange::known(0, 1, op);
  }
  std::optional<Transfer> t = elementwise(op, in);
  if (!t)
    return FloatRange::assumed(op);
  return settle(op, *t, operands);
}

SmallVector<FloatRange>
Evaluator::evaluateLinalg(linalg::LinalgOp op, ArrayRef<FloatRange> operands) {
  SmallVector<FloatRange> results;
  Block *body = op.getBlock();
  auto assumedResults = [&] {
    return SmallVector<FloatRange>(op->getNumResults(),
                                   FloatRange::assumed(op));
  };
  if (!body)
    return assumedResults();
  // Elements folded into each accumulator.
  double count = 1;
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  for (auto [size, type] : llvm::zip(sizes, op.getIteratorTypesArray()))
    if (type == utils::IteratorType::reduction)
      count *= ShapedType::isDynamic(size) ? inf : double(size);
  bool reduces = op.getNumReductionLoops() > 0;

  // Each body value's range; block arguments take their operand's.
  auto evaluateBody = [&](ArrayRef<FloatRange> inits) {
    DenseMap<Value, FloatRange> env;
    unsigned numInputs = op.getNumDpsInputs();
    for (BlockArgument arg : body->getArguments()) {
      unsigned i = arg.getArgNumber();
      env[arg] = i < numInputs ? operands[i] : inits[i - numInputs];
    }
    // The tensor each block argument reads, for the normalisation patterns.
    auto tensorOf = [&](Value v) -> Value {
      auto arg = dyn_cast<BlockArgument>(v);
      if (!arg || arg.getOwner() != body ||
          arg.getArgNumber() >= op->getNumOperands())
        return {};
      return op->getOperand(arg.getArgNumber());
    };
    for (Operation &nested : body->without_terminator()) {
      SmallVector<FloatRange> in;
      SmallVector<Value> tensors;
      for (Value v : nested.getOperands()) {
        auto it = env.find(v);
        in.push_back(it != env.end() ? it->second : outside(v));
        tensors.push_back(tensorOf(v));
      }
      if (!llvm::all_of(tensors, [](Value v) { return bool(v); }))
        tensors.clear();
      SmallVector<FloatRange> out;
      if (std::optional<FloatRange> c = constantRange(&nested))
        out.push_back(*c);
      else if (nested.getNumResults() == 1 &&
               holdsFloats(nested.getResult(0).getType()))
        out.push_back(evaluateElementwise(&nested, in, tensors));
      else
        out.assign(nested.getNumResults(), FloatRange::known(-inf, inf));
      for (auto [r, range] : llvm::zip(nested.getResults(), out))
        env[r] = range;
    }
    SmallVector<FloatRange> yielded;
    for (Value v : body->getTerminator()->getOperands()) {
      auto it = env.find(v);
      yielded.push_back(it != env.end() ? it->second : FloatRange::assumed(op));
    }
    return yielded;
  };

  unsigned numInits = op.getNumDpsInits();
  ArrayRef<FloatRange> inits = operands.drop_front(op.getNumDpsInputs());
  if (!reduces) {
    SmallVector<FloatRange> yielded = evaluateBody(inits);
    // A body op's origin is inside the body: name the linalg op instead.
    for (FloatRange &r : yielded)
      if (r.getOrigin() && r.getOrigin()->getParentOp() == op)
        r = FloatRange(r.getLo(), r.getHi(), r.getSource(), op);
    return yielded;
  }
  // Reductions: what one element adds (the body with zero accumulators),
  // counted, or what a max/min keeps (the body with the inits).
  SmallVector<FloatRange> zeros(numInits, FloatRange::point(0));
  SmallVector<FloatRange> summands = evaluateBody(zeros);
  SmallVector<FloatRange> kept = evaluateBody(inits);
  for (unsigned k = 0; k < numInits; ++k) {
    Operation *combiner = getCombiner(op, k);
    FloatRange init = inits[k];
    if (combiner && isa<arith::AddFOp>(combiner)) {
      // A contraction (a sum of products) combines activations as the
      // inputs were assumed to; a plain sum of many elements expands.
      Value addend = combiner->getOperand(0) ==
                             body->getArgument(op.getNumDpsInputs() + k)
                         ? combiner->getOperand(1)
                         : combiner->getOperand(0);
      // (A sum of squares is a plain sum.)
      auto product = addend.getDefiningOp<arith::MulFOp>();
      bool contraction = product && product.getLhs() != product.getRhs();
      Bounds summed = interval::scale(boundsOf(summands[k]), count);
      Bounds total = interval::add(boundsOf(init), summed);
      bool expands = !contraction && count > 1 &&
                     std::max(std::fabs(summed.lo), std::fabs(summed.hi)) >
                         kAssumedBound;
      results.push_back(
          settle(op, {total, expands, false}, {init, summands[k]}));
    } else if (combiner &&
               isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MinimumFOp,
                   arith::MinNumFOp>(combiner)) {
      results.push_back(kept[k]);
    } else {
      results.push_back(settle(op, unbounded(), operands));
    }
  }
  return results;
}

/// A tosa op's result range; nullopt for ops that only move data.
std::optional<FloatRange>
Evaluator::evaluateTosa(Operation *op, ArrayRef<FloatRange> operands) {
  using namespace interval;
  auto in = [&](unsigned i) { return boundsOf(operands[i]); };
  auto settleWith = [&](Transfer t) { return settle(op, t, operands); };
  // The number of products summed into each element of a contraction.
  auto contraction = [&](Value weight, ArrayRef<unsigned> dims,
                         Value bias) -> FloatRange {
    auto type = cast<ShapedType>(weight.getType());
    double count = 1;
    for (unsigned d : dims)
      count *= type.isDynamicDim(d) ? inf : double(type.getDimSize(d));
    Bounds products = mul(in(0), in(1));
    Bounds total = scale(products, count);
    if (bias) {
      unsigned b = 2;
      total = add(total, boundsOf(operands[b]));
    }
    return settleWith({total, false, false});
  };
  auto reduced = [&](Value input, uint32_t axis) {
    auto type = cast<ShapedType>(input.getType());
    return type.isDynamicDim(axis) ? inf : double(type.getDimSize(axis));
  };
  return llvm::TypeSwitch<Operation *, std::optional<FloatRange>>(op)
      .Case([&](tosa::AddOp) { return settleWith({add(in(0), in(1))}); })
      .Case([&](tosa::SubOp sub) -> FloatRange {
        if (isReductionOf(sub.getInput2(), sub.getInput1(), false))
          return settleWith({{in(0).lo - in(1).hi, 0}});
        return settleWith({interval::sub(in(0), in(1))});
      })
      .Case([&](tosa::MulOp mul) -> FloatRange {
        // e * reciprocal(sum(e)): a softmax's normalisation.
        for (unsigned i : {0u, 1u}) {
          auto recip = stripBroadcasts(mul->getOperand(1 - i))
                           .getDefiningOp<tosa::ReciprocalOp>();
          if (recip && in(i).lo >= 0 &&
              isReductionOf(recip.getInput1(), mul->getOperand(i), true))
            return FloatRange::known(0, 1, op);
        }
        return settleWith({interval::mul(in(0), in(1))});
      })
      .Case([&](tosa::MaximumOp) {
        return settleWith(
            {{std::max(in(0).lo, in(1).lo), std::max(in(0).hi, in(1).hi)}});
      })
      .Case([&](tosa::MinimumOp) {
        return settleWith(
            {{std::min(in(0).lo, in(1).lo), std::min(in(0).hi, in(1).hi)}});
      })
      .Case([&](tosa::AbsOp) { return settleWith({abs(in(0))}); })
      .Case([&](tosa::NegateOp) {
        return settleWith({{-in(0).hi, -in(0).lo}});
      })
      .Case<tosa::FloorOp, tosa::CeilOp>([&](Operation *) {
        return settleWith({{std::floor(in(0).lo), std::ceil(in(0).hi)}});
      })
      .Case([&](tosa::ExpOp) {
        return settleWith(
            {increasing(in(0), [](double x) { return std::exp(x); }), true});
      })
      .Case([&](tosa::LogOp) {
        Bounds b = in(0);
        return settleWith({{b.lo <= 0 ? -inf : std::log(b.lo),
                            b.hi <= 0 ? -inf : std::log(b.hi)},
                           true});
      })
      .Case([&](tosa::ReciprocalOp) {
        return settleWith({reciprocal(in(0)), true});
      })
      .Case([&](tosa::RsqrtOp) {
        Bounds s = {std::sqrt(std::max(in(0).lo, 0.0)),
                    std::sqrt(std::max(in(0).hi, 0.0))};
        return settleWith({reciprocal(s), true});
      })
      .Case([&](tosa::PowOp) -> FloatRange {
        if (in(1).lo == in(1).hi)
          return settleWith({powConstant(in(0), in(1).lo), true});
        return settleWith(unbounded());
      })
      .Case([&](tosa::SigmoidOp) {
        return FloatRange::known(sigmoid(in(0).lo), sigmoid(in(0).hi), op);
      })
      .Case([&](tosa::TanhOp) {
        return FloatRange::known(std::tanh(in(0).lo), std::tanh(in(0).hi), op);
      })
      .Case([&](tosa::ErfOp) {
        return FloatRange::known(std::erf(in(0).lo), std::erf(in(0).hi), op);
      })
      .Case<tosa::SinOp, tosa::CosOp>(
          [&](Operation *) { return FloatRange::known(-1, 1, op); })
      .Case([&](tosa::ClampOp clamp) -> FloatRange {
        auto lo = dyn_cast<FloatAttr>(clamp.getMinValAttr());
        auto hi = dyn_cast<FloatAttr>(clamp.getMaxValAttr());
        if (!lo || !hi)
          return settleWith({in(0)});
        double l = lo.getValueAsDouble(), h = hi.getValueAsDouble();
        Bounds b = {std::min(std::max(in(0).lo, l), h),
                    std::min(std::max(in(0).hi, l), h)};
        if (std::isfinite(l) && std::isfinite(h))
          return FloatRange::known(b.lo, b.hi, op);
        return settleWith({b});
      })
      .Case([&](tosa::SelectOp) {
        return settleWith({hull(in(1), in(2))});
      })
      .Case([&](tosa::CastOp cast) -> FloatRange {
        Type from = getElementTypeOrSelf(cast.getInput().getType());
        if (isa<FloatType>(from))
          return settleWith({in(0)});
        if (from.isIndex() || from.getIntOrFloatBitWidth() > 16)
          return FloatRange::assumed(op);
        Bounds b = integerBounds(from, false);
        return FloatRange::known(b.lo, b.hi);
      })
      .Case([&](tosa::MatMulOp mm) {
        return contraction(mm.getA(), {2}, Value());
      })
      .Case([&](tosa::Conv2DOp conv) {
        return contraction(conv.getWeight(), {1, 2, 3}, conv.getBias());
      })
      .Case([&](tosa::Conv3DOp conv) {
        return contraction(conv.getWeight(), {1, 2, 3, 4}, conv.getBias());
      })
      .Case([&](tosa::DepthwiseConv2DOp conv) {
        return contraction(conv.getWeight(), {0, 1}, conv.getBias());
      })
      .Case([&](tosa::TransposeConv2DOp conv) {
        return contraction(conv.getWeight(), {1, 2, 3}, conv.getBias());
      })
      .Case([&](tosa::AvgPool2dOp) {
        // A mean of the window, padding zeros included.
        return settleWith({hull(in(0), {0, 0})});
      })
      .Case([&](tosa::MaxPool2dOp) { return settleWith({in(0)}); })
      .Case<tosa::ReduceMaxOp, tosa::ReduceMinOp>(
          [&](Operation *) { return settleWith({in(0)}); })
      .Case([&](tosa::ReduceSumOp sum) {
        double n = reduced(sum.getInput(), sum.getAxis());
        return settleWith({scale(in(0), n), n > 1, false});
      })
      .Case([&](tosa::ReduceProductOp) { return settleWith(unbounded()); })
      .Case([&](tosa::PadOp pad) {
        return settleWith({hull(in(0), boundsOf(operands[2]))});
      })
      .Default([](Operation *) { return std::nullopt; });
}

SmallVector<FloatRange> Evaluator::evaluate(Operation *op,
                                            ArrayRef<FloatRange> operands) {
  if (std::optional<FloatRange> c = constantRange(op))
    return {*c};
  if (isa<linalg::SoftmaxOp>(op))
    return {FloatRange::known(0, 1, op)};
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    if (linalgOp.hasPureTensorSemantics())
      return evaluateLinalg(linalgOp, operands);
  if (isa<tensor::EmptyOp>(op))
    return {FloatRange::point(0)};
  if (op->getDialect() && op->getDialect()->getNamespace() == "tosa")
    if (std::optional<FloatRange> r = evaluateTosa(op, operands))
      return {*r};
  if (op->getNumResults() == 1 &&
      op->getDialect() &&
      isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return {evaluateElementwise(op, operands, {})};
  // Data movement (tensor, tosa, views and casts): the hull of the float
  // data it moves.
  bool movesData =
      isa<ViewLikeOpInterface, CastOpInterface>(op) ||
      (op->getDialect() &&
       (op->getDialect()->getNamespace() == "tensor" ||
        op->getDialect()->getNamespace() == "tosa"));
  if (movesData) {
    FloatRange hull;
    for (auto [v, r] : llvm::zip(op->getOperands(), operands))
      if (holdsFloats(v.getType()))
        hull = FloatRange::join(hull, r);
    if (hull.isInitialized())
      return SmallVector<FloatRange>(op->getNumResults(), hull);
  }
  // Unknown ops: their results are assumed to fit, as arguments are.
  return SmallVector<FloatRange>(op->getNumResults(), FloatRange::assumed(op));
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

LogicalResult FloatRangeAnalysis::visitOperation(
    Operation *op, ArrayRef<const FloatRangeLattice *> operands,
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
  Evaluator evaluator(options, outside);
  SmallVector<FloatRange> out = evaluator.evaluate(op, in);
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
    if (auto it = impl->options.calibrated
                      ? impl->options.calibrated->find(value)
                      : llvm::DenseMap<Value, ObservedRange>::const_iterator();
        impl->options.calibrated && it != impl->options.calibrated->end() &&
        it->second.nonfinite)
      text += " (" + std::to_string(it->second.nonfinite) +
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
  if (calibrated && impl->options.calibrated) {
    auto it = impl->options.calibrated->find(value);
    if (it != impl->options.calibrated->end()) {
      double fraction = lowType.isF16() ? it->second.f16ZeroOrSubnormalFraction()
                                        : it->second.bf16ZeroOrSubnormalFraction();
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

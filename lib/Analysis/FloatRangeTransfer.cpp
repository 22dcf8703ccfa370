//===- FloatRangeTransfer.cpp - What each op makes of ranges --------------===//
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

#include "FloatRangeTransfer.h"
#include "amp/Interfaces/AmpOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <complex>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::ranges;
using interval::Bounds;

static constexpr double inf = FloatRange::inf;

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
  bool assumedIn = false, calibratedIn = false, restsOnAssumption = false;
  // (Given ranges are facts like constants: results of them are Known.)
  const FloatRange *expandedIn = nullptr;
  for (const FloatRange &r : operands) {
    if (!r.isInitialized())
      continue;
    assumedIn |= r.isAssumed();
    restsOnAssumption |= r.restsOnAssumption();
    calibratedIn |= r.getSource() == RangeSource::Calibrated;
    if (r.isExpanded() && !expandedIn)
      expandedIn = &r;
  }
  double maxAbs = std::max(std::fabs(b.lo), std::fabs(b.hi));
  // Back within the bound: what an expanded value (a sum of assumed values)
  // makes fits only as far as the assumption holds (a mean of activations
  // is an activation), so it stays assumed, as the values it came from.
  if (maxAbs <= kAssumedBound)
    return {b.lo, b.hi,
            restsOnAssumption ? RangeSource::Assumed
            : calibratedIn    ? RangeSource::Calibrated
                              : RangeSource::Known};
  if (expandedIn && !t.expanding)
    return FloatRange(b.lo, b.hi, RangeSource::Expanded,
                      expandedIn->getOrigin())
        .setFromAssumption(restsOnAssumption);
  if (t.expanding || expandedIn || !assumedIn)
    return FloatRange(b.lo, b.hi, RangeSource::Expanded, op)
        .setFromAssumption(restsOnAssumption);
  // Only assumed values combined: assumed to fit, as they were.
  double lo = std::max(b.lo, -kAssumedBound),
         hi = std::min(b.hi, kAssumedBound);
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
static std::optional<Transfer> elementwise(Operation *op, ArrayRef<Bounds> in) {
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
        return Transfer{
            div(in[0], in[1]),
            std::max(std::fabs(r.lo), std::fabs(r.hi)) > kAssumedBound, false};
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
        return result({std::sqrt(std::max(in[0].lo, 0.0)),
                       std::sqrt(std::max(in[0].hi, 0.0))});
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
      .Case([&](math::FmaOp) { return result(add(mul(in[0], in[1]), in[2])); })
      // Complex values: the range of their parts (real and imaginary).
      .Case([&](complex::CreateOp) { return result(hull(in[0], in[1])); })
      .Case<complex::ReOp, complex::ImOp>(
          [&](Operation *) { return result(in[0]); })
      .Case([&](complex::AddOp) { return result(add(in[0], in[1])); })
      .Case([&](complex::SubOp) { return result(sub(in[0], in[1])); })
      .Case<complex::NegOp, complex::ConjOp>([&](Operation *) {
        double m = abs(in[0]).hi;
        return result({-m, m});
      })
      .Case([&](complex::MulOp) {
        // re = ar br - ai bi, im = ar bi + ai br: at most 2 |a| |b|.
        double m = 2 * mul(abs(in[0]), abs(in[1])).hi;
        return result({-m, m});
      })
      .Case([&](complex::AbsOp) {
        return result({0, std::sqrt(2.0) * abs(in[0]).hi});
      })
      .Case([&](complex::SqrtOp) {
        double m = std::sqrt(std::sqrt(2.0) * abs(in[0]).hi);
        return result({-m, m});
      })
      .Case<complex::SignOp>([&](Operation *) { return bounded({-1, 1}); })
      .Case<complex::AngleOp, complex::Atan2Op>(
          [&](Operation *) { return bounded({-M_PI, M_PI}); })
      // Other powers, logs, division, trigonometry (cosh of the imaginary
      // part): unbounded.
      .Case([&](complex::ExpOp) {
        // |exp(z)| = exp(re z): each part at most exp of the parts' bound.
        double m = std::exp(in[0].hi);
        return expanding({-m, m});
      })
      .Case<complex::Expm1Op, complex::LogOp, complex::Log1pOp, complex::PowOp,
            complex::PowiOp, complex::DivOp, complex::RsqrtOp, complex::SinOp,
            complex::CosOp, complex::TanOp, complex::TanhOp>(
          [&](Operation *) { return unbounded(); })
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
  BlockArgument acc = body->getArgument(amp::detail::numDpsInputs(op) + output);
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
  explicit Evaluator(llvm::function_ref<FloatRange(Value)> outside)
      : outside(outside) {}

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

  llvm::function_ref<FloatRange(Value)> outside;
};
} // namespace

/// Whether nothing writes into `buffer` or the views of it: each use reads
/// it (as a tensor, an element, a vector, a copy's source, a linalg input)
/// or takes a view of it that is only read as well. Anything else (a store,
/// a linalg init, a call) may write it.
static bool isReadOnlyBuffer(Value buffer) {
  SmallVector<Value> worklist = {buffer};
  while (!worklist.empty()) {
    Value view = worklist.pop_back_val();
    for (OpOperand &use : view.getUses()) {
      Operation *user = use.getOwner();
      if (isa<bufferization::ToTensorOp, memref::LoadOp, memref::DimOp,
              vector::TransferReadOp, vector::LoadOp>(user))
        continue;
      if (auto copy = dyn_cast<memref::CopyOp>(user);
          copy && use.get() == copy.getSource() &&
          copy.getTarget() != copy.getSource())
        continue;
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
          linalgOp && linalgOp.isDpsInput(&use))
        continue;
      if (auto viewOp = dyn_cast<ViewLikeOpInterface>(user);
          viewOp && viewOp.getViewSource() == view) {
        llvm::append_range(worklist, user->getResults());
        continue;
      }
      return false;
    }
  }
  return true;
}

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
  // A complex scalar constant: [re, im].
  if (auto parts = dyn_cast<ArrayAttr>(value)) {
    if (parts.size() != 2 || !isa<FloatAttr>(parts[0]) ||
        !isa<FloatAttr>(parts[1]))
      return std::nullopt;
    double re = cast<FloatAttr>(parts[0]).getValueAsDouble();
    double im = cast<FloatAttr>(parts[1]).getValueAsDouble();
    return FloatRange::known(std::min(re, im), std::max(re, im));
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (dense && isa<ComplexType>(dense.getElementType())) {
    double lo = inf, hi = -inf;
    for (std::complex<APFloat> v : dense.getValues<std::complex<APFloat>>()) {
      for (double d :
           {v.real().convertToDouble(), v.imag().convertToDouble()}) {
        lo = std::min(lo, std::isnan(d) ? -inf : d);
        hi = std::max(hi, std::isnan(d) ? inf : d);
      }
      if (dense.isSplat())
        break;
    }
    return dense.empty() ? FloatRange::point(0) : FloatRange::known(lo, hi);
  }
  if (!dense || !isa<FloatType>(dense.getElementType()))
    return std::nullopt;
  if (dense.empty())
    return FloatRange::point(0);
  // f32, f16 and bf16 weights straight from their buffer.
  if (std::optional<std::pair<double, double>> bounds =
          getFloatDataBounds(dense))
    return FloatRange::known(bounds->first, bounds->second);
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
      return settle(op, {{in[0].lo - in[1].hi, 0}, false, false}, operands);
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
  unsigned numInputs = amp::detail::numDpsInputs(op);
  // Elements folded into each accumulator.
  double count = 1;
  bool reduces = op.getNumReductionLoops() > 0;
  if (reduces) {
    SmallVector<int64_t> sizes = op.getStaticLoopRanges();
    for (auto [size, type] : llvm::zip(sizes, op.getIteratorTypesArray()))
      if (type == utils::IteratorType::reduction)
        count *= ShapedType::isDynamic(size) ? inf : double(size);
  }

  // Each body value's range; block arguments take their operand's.
  auto evaluateBody = [&](ArrayRef<FloatRange> inits) {
    llvm::SmallDenseMap<Value, FloatRange, 16> env;
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

  unsigned numInits = op->getNumOperands() - numInputs;
  ArrayRef<FloatRange> inits = operands.drop_front(numInputs);
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
      Value addend = combiner->getOperand(0) == body->getArgument(numInputs + k)
                         ? combiner->getOperand(1)
                         : combiner->getOperand(0);
      // (A sum of squares is a plain sum.)
      auto product = addend.getDefiningOp<arith::MulFOp>();
      bool contraction = product && product.getLhs() != product.getRhs();
      Bounds summed = interval::scale(boundsOf(summands[k]), count);
      Bounds total = interval::add(boundsOf(init), summed);
      bool expands =
          !contraction && count > 1 &&
          std::max(std::fabs(summed.lo), std::fabs(summed.hi)) > kAssumedBound;
      results.push_back(
          settle(op, {total, expands, false}, {init, summands[k]}));
    } else if (combiner && isa<arith::MaximumFOp, arith::MaxNumFOp,
                               arith::MinimumFOp, arith::MinNumFOp>(combiner)) {
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
        // x * x is a square: never negative.
        if (mul.getInput1() == mul.getInput2())
          return settleWith({powConstant(in(0), 2)});
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
      .Case(
          [&](tosa::NegateOp) { return settleWith({{-in(0).hi, -in(0).lo}}); })
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
      .Case([&](tosa::SelectOp) { return settleWith({hull(in(1), in(2))}); })
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
  if (op->getNumResults() == 1 && op->getDialect() &&
      isa<arith::ArithDialect, math::MathDialect, complex::ComplexDialect>(
          op->getDialect()))
    return {evaluateElementwise(op, operands, {})};
  // Reads of a buffer nothing writes (a function's memref argument): what
  // it holds. What a program writes into a buffer is not followed: reads of
  // those are unknown ops below.
  if (isa<bufferization::ToTensorOp, memref::LoadOp, vector::TransferReadOp,
          vector::LoadOp>(op) &&
      operands.size() >= 1 && operands[0].isInitialized() &&
      isReadOnlyBuffer(op->getOperand(0))) {
    FloatRange read = operands[0];
    // A transfer past the buffer's end reads its padding value.
    if (auto transfer = dyn_cast<vector::TransferReadOp>(op))
      for (auto [v, r] : llvm::zip(op->getOperands(), operands))
        if (v == transfer.getPadding() && r.isInitialized())
          read = FloatRange::join(read, r);
    return {read};
  }
  // Data movement (tensor, tosa, views and casts): the hull of the float
  // data it moves.
  bool movesData =
      isa<ViewLikeOpInterface, CastOpInterface>(op) ||
      (op->getDialect() && (op->getDialect()->getNamespace() == "tensor" ||
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

SmallVector<FloatRange>
mlir::amp::ranges::evaluate(Operation *op, ArrayRef<FloatRange> operands,
                            llvm::function_ref<FloatRange(Value)> outside) {
  return Evaluator(outside).evaluate(op, operands);
}

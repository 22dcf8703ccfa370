//===- FloatRange.h - What values a float value can hold --------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The lattice of amp's float range analysis: an interval [lo, hi] of the
// values an f32 value (a scalar, or every element of a tensor) can hold,
// and where the bounds come from.
//
// Bounds rest either on facts (constants, ranges the user gives, bounded
// functions such as tanh or softmax, calibration) or on an assumption: a
// function argument or an unknown op's result is assumed to fit the low
// type, as every mixed-precision tool assumes of activations, i.e. to lie in
// [-kAssumedBound, kAssumedBound]. Arithmetic on assumed values keeps the
// assumption (a matmul of activations is an activation), but an op that
// expands ranges (exp, pow, division by small values, long sums) takes an
// assumed value beyond it: such a value "may exceed" the low type and amp
// never rounds it. The analysis so tells "unknown, assumed to fit" apart
// from "may exceed the low type because an op expands the range".
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_FLOATRANGE_H
#define AMP_ANALYSIS_FLOATRANGE_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

namespace mlir {
namespace amp {

/// The magnitude values of unknown origin are assumed to stay within: f16's
/// largest finite value (bf16 and f32 hold it too).
constexpr double kAssumedBound = 65504.0;

/// Where a range's bounds come from.
enum class RangeSource : uint8_t {
  /// Assumed to fit (a function argument, an unknown op's result), or
  /// computed from such values by ops that keep the assumption.
  Assumed,
  /// Facts: constants, integer conversions, bounded functions.
  Known,
  /// Stated by the user: `amp.range`, `input-range=`, a policy file's
  /// `range` (a fact to amp).
  Given,
  /// Observed by `amp-run --calibrate`.
  Calibrated,
  /// An op (`origin`) expanded the range beyond what was assumed or known
  /// to fit: the value may exceed the low type.
  Expanded,
};

class FloatRange {
public:
  static constexpr double inf = std::numeric_limits<double>::infinity();

  /// The uninitialized (bottom) element.
  FloatRange() = default;
  FloatRange(double lo, double hi, RangeSource source,
             Operation *origin = nullptr)
      : initialized(true), lo(lo), hi(hi), source(source), origin(origin) {}

  static FloatRange assumed(Operation *origin = nullptr) {
    return {-kAssumedBound, kAssumedBound, RangeSource::Assumed, origin};
  }
  static FloatRange known(double lo, double hi, Operation *origin = nullptr) {
    return {lo, hi, RangeSource::Known, origin};
  }
  static FloatRange point(double v) { return known(v, v); }

  bool isInitialized() const { return initialized; }
  double getLo() const { return lo; }
  double getHi() const { return hi; }
  double maxAbs() const { return std::max(std::fabs(lo), std::fabs(hi)); }
  RangeSource getSource() const { return source; }
  /// The op that decided this range's status: the op that expanded it, the
  /// bounded function, the calibrated op or the user-ranged argument's
  /// function (null for constants and plain derivations).
  Operation *getOrigin() const { return origin; }
  bool isExpanded() const { return source == RangeSource::Expanded; }
  bool isAssumed() const { return source == RangeSource::Assumed; }
  /// True if the bounds rest on the assumption that unknown values fit:
  /// an assumed range, or one an op expanded from assumed values.
  bool restsOnAssumption() const {
    return source == RangeSource::Assumed || fromAssumption;
  }
  FloatRange &setFromAssumption(bool value) {
    fromAssumption = value;
    return *this;
  }

  /// The lattice join: the hull of both intervals; Expanded over Assumed
  /// over Calibrated over Known.
  static FloatRange join(const FloatRange &a, const FloatRange &b);
  bool operator==(const FloatRange &other) const {
    return initialized == other.initialized &&
           (!initialized ||
            (lo == other.lo && hi == other.hi && source == other.source &&
             origin == other.origin && fromAssumption == other.fromAssumption));
  }

  void print(llvm::raw_ostream &os) const;

private:
  bool initialized = false;
  double lo = -inf, hi = inf;
  RangeSource source = RangeSource::Assumed;
  Operation *origin = nullptr;
  bool fromAssumption = false;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const FloatRange &range) {
  range.print(os);
  return os;
}

/// Interval arithmetic on bounds (no status): each returns the hull of what
/// the op can produce from values in the operands' intervals.
namespace interval {
struct Bounds {
  double lo, hi;
};
Bounds add(Bounds a, Bounds b);
Bounds sub(Bounds a, Bounds b);
Bounds mul(Bounds a, Bounds b);
/// 1/b; unbounded when b holds zero.
Bounds reciprocal(Bounds b);
Bounds div(Bounds a, Bounds b);
Bounds hull(Bounds a, Bounds b);
/// `f` applied to a monotonically increasing (decreasing) function.
Bounds increasing(Bounds a, double (*f)(double));
Bounds decreasing(Bounds a, double (*f)(double));
Bounds abs(Bounds a);
/// a^p for a constant p.
Bounds powConstant(Bounds a, double p);
/// n copies of a summed (n may be infinite).
Bounds scale(Bounds a, double n);
} // namespace interval

/// How a value's range relates to a low type.
struct RangeFit {
  enum Kind {
    Fits,
    /// Values may be larger than the low type holds.
    MayOverflow,
    /// Nonzero values would be subnormal or zero in the low type.
    Underflows,
  } kind = Fits;
  /// Why, for remarks and reports ("exp of values assumed in [-65504,
  /// 65504] may reach inf in f16", "softmax output in [0, 1]").
  std::string reason;
};

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_FLOATRANGE_H

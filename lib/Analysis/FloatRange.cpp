//===- FloatRange.cpp - What values a float value can hold ----------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/FloatRange.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::amp;
using interval::Bounds;

/// The precedence of sources in a join: the less certain wins.
static int rank(RangeSource source) {
  switch (source) {
  case RangeSource::Known:
    return 0;
  case RangeSource::Given:
    return 1;
  case RangeSource::Calibrated:
    return 2;
  case RangeSource::Assumed:
    return 3;
  case RangeSource::Expanded:
    return 4;
  }
  llvm_unreachable("unknown range source");
}

FloatRange FloatRange::join(const FloatRange &a, const FloatRange &b) {
  if (!a.initialized)
    return b;
  if (!b.initialized)
    return a;
  FloatRange result = a;
  result.lo = std::min(a.lo, b.lo);
  result.hi = std::max(a.hi, b.hi);
  result.fromAssumption = a.fromAssumption || b.fromAssumption;
  if (rank(b.source) > rank(a.source)) {
    result.source = b.source;
    result.origin = b.origin;
  } else if (b.source == a.source && !a.origin) {
    result.origin = b.origin;
  }
  return result;
}

static void printBound(llvm::raw_ostream &os, double v) {
  if (std::isinf(v))
    os << (v < 0 ? "-inf" : "inf");
  else
    os << llvm::format("%g", v);
}

void FloatRange::print(llvm::raw_ostream &os) const {
  if (!initialized) {
    os << "<uninitialized>";
    return;
  }
  os << "[";
  printBound(os, lo);
  os << ", ";
  printBound(os, hi);
  os << "]";
  switch (source) {
  case RangeSource::Known:
    break;
  case RangeSource::Given:
    os << " given";
    break;
  case RangeSource::Calibrated:
    os << " calibrated";
    break;
  case RangeSource::Assumed:
    os << " assumed";
    break;
  case RangeSource::Expanded:
    os << " expanded";
    break;
  }
}

//===----------------------------------------------------------------------===//
// Interval arithmetic
//===----------------------------------------------------------------------===//

/// A product of bounds where 0 * inf is 0 (a bound of a product of a zero
/// and a large value is zero, never NaN).
static double times(double a, double b) {
  if (a == 0 || b == 0)
    return 0;
  return a * b;
}

Bounds interval::add(Bounds a, Bounds b) {
  // inf + -inf: the bound is unknown.
  double lo = a.lo + b.lo, hi = a.hi + b.hi;
  return {std::isnan(lo) ? -FloatRange::inf : lo,
          std::isnan(hi) ? FloatRange::inf : hi};
}

Bounds interval::sub(Bounds a, Bounds b) { return add(a, {-b.hi, -b.lo}); }

Bounds interval::mul(Bounds a, Bounds b) {
  double c[] = {times(a.lo, b.lo), times(a.lo, b.hi), times(a.hi, b.lo),
                times(a.hi, b.hi)};
  return {*std::min_element(std::begin(c), std::end(c)),
          *std::max_element(std::begin(c), std::end(c))};
}

Bounds interval::reciprocal(Bounds b) {
  if (b.lo > 0 || b.hi < 0)
    return {1 / b.hi, 1 / b.lo};
  if (b.lo == 0 && b.hi > 0)
    return {1 / b.hi, FloatRange::inf};
  if (b.hi == 0 && b.lo < 0)
    return {-FloatRange::inf, 1 / b.lo};
  return {-FloatRange::inf, FloatRange::inf};
}

Bounds interval::div(Bounds a, Bounds b) { return mul(a, reciprocal(b)); }

Bounds interval::hull(Bounds a, Bounds b) {
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}

Bounds interval::increasing(Bounds a, double (*f)(double)) {
  return {f(a.lo), f(a.hi)};
}

Bounds interval::decreasing(Bounds a, double (*f)(double)) {
  return {f(a.hi), f(a.lo)};
}

Bounds interval::abs(Bounds a) {
  if (a.lo >= 0)
    return a;
  if (a.hi <= 0)
    return {-a.hi, -a.lo};
  return {0, std::max(-a.lo, a.hi)};
}

Bounds interval::powConstant(Bounds a, double p) {
  auto pw = [&](double x) {
    double r = std::pow(x, p);
    return std::isnan(r) ? FloatRange::inf : r;
  };
  if (p == 0)
    return {1, 1};
  bool integer = std::floor(p) == p;
  if (a.lo >= 0) {
    if (p > 0)
      return {pw(a.lo), pw(a.hi)};
    return {pw(a.hi), a.lo == 0 ? FloatRange::inf : pw(a.lo)};
  }
  if (!integer) // negative bases give NaN: unknown
    return {-FloatRange::inf, FloatRange::inf};
  bool even = std::fmod(p, 2.0) == 0;
  if (p < 0) {
    Bounds r = reciprocal(a);
    return powConstant(r, -p);
  }
  if (even) {
    Bounds m = abs(a);
    return {pw(m.lo), pw(m.hi)};
  }
  return {pw(a.lo), pw(a.hi)};
}

Bounds interval::scale(Bounds a, double n) {
  return {times(a.lo, n), times(a.hi, n)};
}

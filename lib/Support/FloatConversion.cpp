//===- FloatConversion.cpp - f32 buffers to f16/bf16 at memory speed ------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Support/FloatConversion.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Threading.h"

#include <cstring>
#include <limits>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define AMP_HAVE_F16C_PATH 1
#endif

using namespace mlir;
using namespace mlir::amp;

static uint16_t narrowToF16(uint32_t bits) {
  uint32_t sign = (bits >> 16) & 0x8000;
  uint32_t abs = bits & 0x7fffffff;
  if (abs > 0x7f800000) // NaN: the payload's top bits, made quiet
    return sign | 0x7e00 | ((abs >> 13) & 0x3ff);
  if (abs >= 0x477ff000) // at least 65520 (a tie up to 2^16): infinity
    return sign | 0x7c00;
  if (abs >= 0x38800000) { // a normal f16: rebias, round off 13 bits
    uint32_t h = (abs - (112u << 23)) >> 13;
    uint32_t rest = abs & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
      ++h; // may carry into the exponent: still the right encoding
    return sign | h;
  }
  if (abs <= 0x33000000) // at most 2^-25 (a tie down to 0): zero
    return sign;
  // A subnormal f16: units of 2^-24.
  uint32_t exponent = abs >> 23;
  uint32_t mantissa = (abs & 0x7fffff) | 0x800000;
  unsigned shift = 126 - exponent; // 14 .. 24
  uint32_t h = mantissa >> shift;
  uint32_t rest = mantissa & ((1u << shift) - 1);
  uint32_t half = 1u << (shift - 1);
  if (rest > half || (rest == half && (h & 1)))
    ++h; // 0x400 is the smallest normal: the right encoding too
  return sign | h;
}

static uint16_t narrowToBF16(uint32_t bits) {
  uint32_t sign = (bits >> 16) & 0x8000;
  uint32_t abs = bits & 0x7fffffff;
  if (abs > 0x7f800000) // NaN: the payload's top bits, made quiet
    return sign | 0x7fc0 | ((abs >> 16) & 0x7f);
  // Round off 16 bits, ties to even; finite values past the largest bf16
  // carry into the infinity's encoding.
  return sign | ((abs + 0x7fff + ((abs >> 16) & 1)) >> 16);
}

uint16_t mlir::amp::narrowF32Bits(uint32_t bits, NarrowFloat to) {
  return to == NarrowFloat::F16 ? narrowToF16(bits) : narrowToBF16(bits);
}

bool mlir::amp::hostHasF16C() {
#ifdef AMP_HAVE_F16C_PATH
  static const bool has =
      __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
  return has;
#else
  return false;
#endif
}

#ifdef AMP_HAVE_F16C_PATH
/// Eight values at a time with vcvtps2ph (round to nearest even; NaNs made
/// quiet with their payload's top bits, as APFloat does), the tail by bits.
__attribute__((target("avx,f16c"))) static void
narrowToF16WithF16C(const uint32_t *in, uint16_t *out, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 v = _mm256_castsi256_ps(
        _mm256_loadu_si256(reinterpret_cast<const __m256i *>(in + i)));
    __m128i h = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + i), h);
  }
  for (; i < n; ++i)
    out[i] = narrowToF16(in[i]);
}
#endif

static NarrowingStats narrowChunk(const uint32_t *in, uint16_t *out, size_t n,
                                  NarrowFloat to, bool useHardware) {
  uint16_t infinity;
  if (to == NarrowFloat::F16) {
    infinity = 0x7c00;
#ifdef AMP_HAVE_F16C_PATH
    if (useHardware && hostHasF16C()) {
      narrowToF16WithF16C(in, out, n);
    } else
#endif
    {
      for (size_t i = 0; i < n; ++i)
        out[i] = narrowToF16(in[i]);
    }
  } else {
    infinity = 0x7f80;
    for (size_t i = 0; i < n; ++i)
      out[i] = narrowToBF16(in[i]);
  }
  // What the conversion met, in a loop of its own that vectorizes.
  NarrowingStats stats;
  uint64_t overflowed = 0, nonzero = 0, flushed = 0;
  for (size_t i = 0; i < n; ++i) {
    uint32_t abs = in[i] & 0x7fffffff;
    uint16_t narrowAbs = out[i] & 0x7fff;
    overflowed += abs < 0x7f800000 && narrowAbs == infinity;
    nonzero += abs != 0;
    flushed += abs != 0 && narrowAbs == 0;
  }
  stats.overflowed = overflowed;
  stats.nonzero = nonzero;
  stats.flushed = flushed;
  return stats;
}

NarrowingStats mlir::amp::narrowF32Buffer(llvm::ArrayRef<uint32_t> in,
                                          llvm::MutableArrayRef<uint16_t> out,
                                          NarrowFloat to, MLIRContext *context,
                                          bool useHardware) {
  assert(in.size() == out.size() && "narrowF32Buffer: sizes differ");
  constexpr size_t chunk = size_t(1) << 18;
  size_t chunks = (in.size() + chunk - 1) / chunk;
  if (!context || chunks < 2)
    return narrowChunk(in.data(), out.data(), in.size(), to, useHardware);
  SmallVector<NarrowingStats> stats(chunks);
  parallelFor(context, 0, chunks, [&](size_t c) {
    size_t begin = c * chunk, size = std::min(chunk, in.size() - begin);
    stats[c] = narrowChunk(in.data() + begin, out.data() + begin, size, to,
                           useHardware);
  });
  NarrowingStats total;
  for (const NarrowingStats &s : stats)
    total.add(s);
  return total;
}

uint32_t mlir::amp::widenToF32Bits(uint16_t bits, NarrowFloat from) {
  // A NaN comes out quiet (its payload kept), as APFloat and the hardware
  // give it.
  if (from == NarrowFloat::BF16) {
    bool nan = (bits & 0x7f80) == 0x7f80 && (bits & 0x7f);
    return uint32_t(nan ? bits | 0x40 : bits) << 16;
  }
  uint32_t sign = uint32_t(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0x1f) // infinity, or NaN: quiet, the payload kept
    return sign | 0x7f800000 | (mantissa ? 0x400000 : 0) | (mantissa << 13);
  if (exponent != 0)
    return sign | ((exponent + 112) << 23) | (mantissa << 13);
  if (mantissa == 0)
    return sign;
  // A subnormal f16 is a normal f32: shift the leading one into place.
  int shift = 0;
  while (!(mantissa & 0x400)) {
    mantissa <<= 1;
    ++shift;
  }
  return sign | ((113 - shift) << 23) | ((mantissa & 0x3ff) << 13);
}

void mlir::amp::widenToF32Buffer(llvm::ArrayRef<uint16_t> in,
                                 llvm::MutableArrayRef<uint32_t> out,
                                 NarrowFloat from) {
  assert(in.size() == out.size() && "widenToF32Buffer: sizes differ");
  for (size_t i = 0, e = in.size(); i < e; ++i)
    out[i] = widenToF32Bits(in[i], from);
}

std::pair<float, float> mlir::amp::getF32Bounds(llvm::ArrayRef<uint32_t> bits) {
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (uint32_t b : bits) {
    float value;
    std::memcpy(&value, &b, sizeof(value));
    if (value != value) // NaN
      value = std::numeric_limits<float>::infinity();
    lo = std::min(lo, value);
    hi = std::max(hi, value);
  }
  return {lo, hi};
}

//===- TestFloatConversion.cpp - f32 narrowing against APFloat ------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "amp/Support/FloatConversion.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <random>

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_TESTFLOATCONVERSION
#include "TestPasses.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

/// The f32 patterns of every class (see the pass's description).
static std::vector<uint32_t> patterns(unsigned random) {
  std::vector<uint32_t> out;
  // Mantissas at the rounding boundaries: bf16 keeps 7 bits (16 rounded
  // off), f16 normals 10 (13 rounded off), f16 subnormals fewer.
  std::vector<uint32_t> mantissas = {
      0, 1, 2, 0x7fffff, 0x7ffffe, 0x400000, 0x3fffff, 0x200000, 0x100000};
  for (unsigned drop : {13u, 14u, 16u, 17u, 18u, 20u, 22u, 23u}) {
    uint32_t half = 1u << (drop - 1);
    for (uint32_t above :
         {0u, 1u << drop, 3u << drop, 0x7fffffu & ~((1u << drop) - 1)})
      for (int delta : {-1, 0, 1})
        mantissas.push_back((above + half + delta) & 0x7fffff);
  }
  for (uint32_t sign : {0u, 0x80000000u})
    for (uint32_t exponent = 0; exponent < 256; ++exponent)
      for (uint32_t mantissa : mantissas)
        out.push_back(sign | exponent << 23 | mantissa);
  // NaNs: quiet and signaling, payloads kept by both formats, kept by f16
  // only, and lost by both.
  for (uint32_t payload : {0x1u, 0x1fffu, 0x2000u, 0xffffu, 0x10000u, 0x3fffffu,
                           0x400000u, 0x400001u, 0x7fffffu})
    for (uint32_t sign : {0u, 0x80000000u})
      out.push_back(sign | 0x7f800000u | payload);
  std::mt19937 rng(20261207);
  for (unsigned i = 0; i < random; ++i)
    out.push_back(rng());
  return out;
}

namespace {
struct Reference {
  uint16_t bits;
  bool overflowed, nonzero, flushed;
};
} // namespace

static Reference viaAPFloat(uint32_t bits, NarrowFloat to) {
  llvm::APFloat value(llvm::APFloat::IEEEsingle(), llvm::APInt(32, bits));
  bool finite = value.isFinite(), nonzero = !value.isZero(), loses = false;
  value.convert(to == NarrowFloat::F16 ? llvm::APFloat::IEEEhalf()
                                       : llvm::APFloat::BFloat(),
                llvm::APFloat::rmNearestTiesToEven, &loses);
  return {uint16_t(value.bitcastToAPInt().getZExtValue()),
          finite && !value.isFinite(), nonzero, nonzero && value.isZero()};
}

namespace {
struct TestFloatConversion
    : amp::impl::TestFloatConversionBase<TestFloatConversion> {
  using Base::Base;
  void runOnOperation() override {
    // Widening: every 16-bit pattern of both formats.
    for (NarrowFloat from : {NarrowFloat::F16, NarrowFloat::BF16}) {
      StringRef name = from == NarrowFloat::F16 ? "f16" : "bf16";
      std::vector<uint16_t> in(1 << 16);
      for (unsigned i = 0; i < in.size(); ++i)
        in[i] = uint16_t(i);
      std::vector<uint32_t> got(in.size());
      widenToF32Buffer(in, got, from);
      for (unsigned i = 0; i < in.size(); ++i) {
        llvm::APFloat value(from == NarrowFloat::F16 ? llvm::APFloat::IEEEhalf()
                                                     : llvm::APFloat::BFloat(),
                            llvm::APInt(16, in[i]));
        bool loses;
        value.convert(llvm::APFloat::IEEEsingle(),
                      llvm::APFloat::rmNearestTiesToEven, &loses);
        uint32_t want = uint32_t(value.bitcastToAPInt().getZExtValue());
        if (got[i] != want) {
          std::string text;
          llvm::raw_string_ostream os(text);
          os << "amp: " << name << " 0x" << llvm::format_hex_no_prefix(in[i], 4)
             << " widens to 0x" << llvm::format_hex_no_prefix(got[i], 8)
             << ", APFloat 0x" << llvm::format_hex_no_prefix(want, 8);
          getOperation()->emitError(text);
          return signalPassFailure();
        }
      }
      llvm::outs() << name << " to f32: 65536 patterns equal APFloat's\n";
    }
    std::vector<uint32_t> in = patterns(random);
    for (NarrowFloat to : {NarrowFloat::F16, NarrowFloat::BF16}) {
      StringRef name = to == NarrowFloat::F16 ? "f16" : "bf16";
      std::vector<uint16_t> want(in.size());
      NarrowingStats wantStats;
      for (size_t i = 0; i < in.size(); ++i) {
        Reference r = viaAPFloat(in[i], to);
        want[i] = r.bits;
        wantStats.overflowed += r.overflowed;
        wantStats.nonzero += r.nonzero;
        wantStats.flushed += r.flushed;
      }
      // One value at a time, then whole buffers by bits and by hardware.
      std::vector<uint16_t> got(in.size());
      for (size_t i = 0; i < in.size(); ++i)
        got[i] = narrowF32Bits(in[i], to);
      if (!check(name, "one value", in, got, want, nullptr, wantStats))
        return;
      for (bool hardware : {false, true}) {
        if (hardware && (to != NarrowFloat::F16 || !hostHasF16C()))
          continue;
        std::fill(got.begin(), got.end(), 0);
        NarrowingStats stats =
            narrowF32Buffer(in, got, to, &getContext(), hardware);
        if (!check(name, hardware ? "buffer, F16C" : "buffer, bits", in, got,
                   want, &stats, wantStats))
          return;
      }
    }
  }

  bool check(StringRef format, StringRef path, ArrayRef<uint32_t> in,
             ArrayRef<uint16_t> got, ArrayRef<uint16_t> want,
             const NarrowingStats *stats, const NarrowingStats &wantStats) {
    for (size_t i = 0; i < in.size(); ++i)
      if (got[i] != want[i]) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << "amp: f32 0x" << llvm::format_hex_no_prefix(in[i], 8) << " to "
           << format << " (" << path << ") gives 0x"
           << llvm::format_hex_no_prefix(got[i], 4) << ", APFloat 0x"
           << llvm::format_hex_no_prefix(want[i], 4);
        getOperation()->emitError(text);
        signalPassFailure();
        return false;
      }
    if (stats && (stats->overflowed != wantStats.overflowed ||
                  stats->nonzero != wantStats.nonzero ||
                  stats->flushed != wantStats.flushed)) {
      getOperation()->emitError()
          << "amp: " << format << " (" << path << ") counts "
          << stats->overflowed << " overflowed, " << stats->flushed
          << " flushed of " << stats->nonzero << " nonzero; APFloat "
          << wantStats.overflowed << ", " << wantStats.flushed << " of "
          << wantStats.nonzero;
      signalPassFailure();
      return false;
    }
    llvm::outs() << format << " " << path << ": " << in.size()
                 << " patterns equal APFloat's";
    if (stats)
      llvm::outs() << " (" << stats->overflowed << " overflow, "
                   << stats->flushed << " flushed)";
    llvm::outs() << "\n";
    return true;
  }
};
} // namespace

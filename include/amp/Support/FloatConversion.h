//===- FloatConversion.h - f32 buffers to f16/bf16 at memory speed -*- C++
//-*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Converts f32 values to f16 or bf16 on raw buffers, rounding to nearest
// even, with the results APFloat::convert gives bit for bit: subnormals,
// overflow to infinity, NaN payloads truncated (a signaling NaN made quiet).
// f16 uses the host's F16C instructions where it has them, bit arithmetic
// otherwise. The mixed-precision pass converts constant weights with it:
// one element at a time through APFloat, a model's 176 MB of weights took
// seconds.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_SUPPORT_FLOATCONVERSION_H
#define AMP_SUPPORT_FLOATCONVERSION_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <utility>

namespace mlir {
class MLIRContext;
namespace amp {

/// The narrow formats convertF32Bits produces.
enum class NarrowFloat { F16, BF16 };

/// What a conversion met: finite values that became infinite, and nonzero
/// values that became zero.
struct NarrowingStats {
  uint64_t overflowed = 0;
  uint64_t nonzero = 0;
  uint64_t flushed = 0;
  void add(const NarrowingStats &other) {
    overflowed += other.overflowed;
    nonzero += other.nonzero;
    flushed += other.flushed;
  }
};

/// One f32 (as its bits) to f16 or bf16 bits, as APFloat::convert rounds
/// it (to nearest, ties to even).
uint16_t narrowF32Bits(uint32_t bits, NarrowFloat to);

/// Converts `in` into `out` (the same length). With a context whose
/// multithreading is enabled, large buffers are split over its thread pool.
/// `useHardware` false forces the bit arithmetic (for tests).
NarrowingStats narrowF32Buffer(llvm::ArrayRef<uint32_t> in,
                               llvm::MutableArrayRef<uint16_t> out,
                               NarrowFloat to, MLIRContext *context = nullptr,
                               bool useHardware = true);

/// Whether narrowF32Buffer uses F16C instructions for f16 on this host.
bool hostHasF16C();

/// One f16 or bf16 (as its bits) widened to f32 bits: exact (a NaN made
/// quiet, as APFloat::convert makes it).
uint32_t widenToF32Bits(uint16_t bits, NarrowFloat from);

/// Widens `in` into `out` (the same length), exactly.
void widenToF32Buffer(llvm::ArrayRef<uint16_t> in,
                      llvm::MutableArrayRef<uint32_t> out, NarrowFloat from);

/// The least and greatest of f32 values given as bits, a NaN counting as
/// +infinity; {+inf, -inf} for none.
std::pair<float, float> getF32Bounds(llvm::ArrayRef<uint32_t> bits);

} // namespace amp
} // namespace mlir

#endif // AMP_SUPPORT_FLOATCONVERSION_H

//===- ElementType.h - Element types amp-run exchanges ----------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The element types amp-run reads, writes, generates and compares: the
// floating-point types mixed precision produces (f16, bf16) next to f32 and
// f64, and the integers a program typically takes (i32, i64, index).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_ELEMENTTYPE_H
#define AMP_RUNTIME_ELEMENTTYPE_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir {
namespace amp {
namespace runtime {

enum class ElementKind { F16, BF16, F32, F64, I32, I64 };

/// The MLIR spelling: "f16", "bf16", "f32", "f64", "i32", "i64".
llvm::StringRef getElementKindName(ElementKind kind);

/// Bytes per element in memory (and in a .npy file).
unsigned getElementByteWidth(ElementKind kind);

bool isFloatKind(ElementKind kind);

/// The kind of an MLIR scalar type, or nothing when amp-run cannot exchange
/// it. `index` is exchanged as i64 (the width the JIT uses on 64-bit hosts).
std::optional<ElementKind> getElementKind(Type type);

/// Exact widening of 16-bit floats.
float halfToFloat(uint16_t bits);
float bfloat16ToFloat(uint16_t bits);

/// Rounding to nearest, ties to even; NaN stays NaN, overflow gives infinity.
uint16_t floatToHalf(float value);
uint16_t floatToBfloat16(float value);

/// Reads the element at `address` as a double (exact for every kind but
/// i64 values beyond 2^53).
double loadAsDouble(ElementKind kind, const void *address);

/// Stores `value` rounded to `kind` (floats to nearest even, integers
/// truncated toward zero) at `address`.
void storeFromDouble(ElementKind kind, void *address, double value);

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNTIME_ELEMENTTYPE_H

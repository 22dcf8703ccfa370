//===- ElementType.cpp - Element types amp-run exchanges ------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/ElementType.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::amp::runtime;

llvm::StringRef mlir::amp::runtime::getElementKindName(ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
    return "f16";
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::F32:
    return "f32";
  case ElementKind::F64:
    return "f64";
  case ElementKind::I32:
    return "i32";
  case ElementKind::I64:
    return "i64";
  }
  llvm_unreachable("unknown element kind");
}

unsigned mlir::amp::runtime::getElementByteWidth(ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
  case ElementKind::BF16:
    return 2;
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::F64:
  case ElementKind::I64:
    return 8;
  }
  llvm_unreachable("unknown element kind");
}

bool mlir::amp::runtime::isFloatKind(ElementKind kind) {
  return kind != ElementKind::I32 && kind != ElementKind::I64;
}

std::optional<ElementKind> mlir::amp::runtime::getElementKind(Type type) {
  if (type.isF16())
    return ElementKind::F16;
  if (type.isBF16())
    return ElementKind::BF16;
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF64())
    return ElementKind::F64;
  if (type.isIndex())
    return ElementKind::I64;
  // Signless or signed integers; the JIT does not distinguish them.
  if (auto integer = dyn_cast<IntegerType>(type);
      integer && !integer.isUnsigned()) {
    if (integer.getWidth() == 32)
      return ElementKind::I32;
    if (integer.getWidth() == 64)
      return ElementKind::I64;
  }
  return std::nullopt;
}

static float bitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

static uint32_t floatToBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

float mlir::amp::runtime::halfToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0x1f) // Infinity or NaN (payload kept).
    return bitsToFloat(sign | 0x7f800000 | (mantissa << 13));
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in f32.
    float magnitude = std::ldexp(float(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  return bitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

float mlir::amp::runtime::bfloat16ToFloat(uint16_t bits) {
  return bitsToFloat(uint32_t(bits) << 16);
}

uint16_t mlir::amp::runtime::floatToHalf(float value) {
  uint32_t bits = floatToBits(value);
  uint16_t sign = (bits >> 16) & 0x8000;
  uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude > 0x7f800000) // NaN: quiet, keep the top payload bits.
    return sign | 0x7e00 | ((magnitude >> 13) & 0x3ff);
  // 65520 = largest f16 (65504) plus half an ulp rounds to infinity.
  if (magnitude >= 0x477ff000)
    return sign | 0x7c00;
  if (magnitude < 0x38800000) {
    // Below the smallest normal f16 (2^-14): round value * 2^24 to an
    // integer, ties to even (nearbyint in the default rounding mode).
    float scaled = std::ldexp(bitsToFloat(magnitude), 24);
    return sign | uint16_t(std::nearbyint(scaled));
  }
  // Normal: rebias the exponent, round the 13 dropped mantissa bits.
  uint32_t rebased = magnitude - (112u << 23);
  uint32_t half = rebased >> 13;
  uint32_t rest = rebased & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // A carry into the exponent is the correct rounding.
  return sign | uint16_t(half);
}

uint16_t mlir::amp::runtime::floatToBfloat16(float value) {
  uint32_t bits = floatToBits(value);
  if ((bits & 0x7fffffff) > 0x7f800000) // NaN: quiet it.
    return uint16_t((bits >> 16) | 0x40);
  uint32_t rounding = 0x7fff + ((bits >> 16) & 1);
  return uint16_t((bits + rounding) >> 16);
}

double mlir::amp::runtime::loadAsDouble(ElementKind kind, const void *address) {
  switch (kind) {
  case ElementKind::F16: {
    uint16_t bits;
    std::memcpy(&bits, address, 2);
    return halfToFloat(bits);
  }
  case ElementKind::BF16: {
    uint16_t bits;
    std::memcpy(&bits, address, 2);
    return bfloat16ToFloat(bits);
  }
  case ElementKind::F32: {
    float value;
    std::memcpy(&value, address, 4);
    return value;
  }
  case ElementKind::F64: {
    double value;
    std::memcpy(&value, address, 8);
    return value;
  }
  case ElementKind::I32: {
    int32_t value;
    std::memcpy(&value, address, 4);
    return value;
  }
  case ElementKind::I64: {
    int64_t value;
    std::memcpy(&value, address, 8);
    return double(value);
  }
  }
  llvm_unreachable("unknown element kind");
}

void mlir::amp::runtime::storeFromDouble(ElementKind kind, void *address,
                                         double value) {
  switch (kind) {
  case ElementKind::F16: {
    uint16_t bits = floatToHalf(float(value));
    std::memcpy(address, &bits, 2);
    return;
  }
  case ElementKind::BF16: {
    uint16_t bits = floatToBfloat16(float(value));
    std::memcpy(address, &bits, 2);
    return;
  }
  case ElementKind::F32: {
    float narrow = float(value);
    std::memcpy(address, &narrow, 4);
    return;
  }
  case ElementKind::F64:
    std::memcpy(address, &value, 8);
    return;
  case ElementKind::I32: {
    int32_t integer = int32_t(value);
    std::memcpy(address, &integer, 4);
    return;
  }
  case ElementKind::I64: {
    int64_t integer = int64_t(value);
    std::memcpy(address, &integer, 8);
    return;
  }
  }
  llvm_unreachable("unknown element kind");
}

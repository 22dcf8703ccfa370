//===- ElementType.cpp - Element types amp-run exchanges ------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/ElementType.h"

#include "llvm/ADT/APFloat.h"

#include <vector>

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

// f16 and bf16 conversions are APFloat's (round to nearest even, NaNs
// quiet); decoding goes through a table of all 2^16 values, built once with
// APFloat, since whole .npy arrays are decoded on the host.

static float decodeWith(const llvm::fltSemantics &semantics, uint16_t bits) {
  llvm::APFloat value(semantics, llvm::APInt(16, bits));
  bool losesInfo = false;
  value.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToFloat();
}

static uint16_t encodeWith(const llvm::fltSemantics &semantics, float f) {
  llvm::APFloat value(f);
  bool losesInfo = false;
  value.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return uint16_t(value.bitcastToAPInt().getZExtValue());
}

float mlir::amp::runtime::halfToFloat(uint16_t bits) {
  static const std::vector<float> table = [] {
    std::vector<float> t(1 << 16);
    for (uint32_t b = 0; b < t.size(); ++b)
      t[b] = decodeWith(llvm::APFloat::IEEEhalf(), uint16_t(b));
    return t;
  }();
  return table[bits];
}

float mlir::amp::runtime::bfloat16ToFloat(uint16_t bits) {
  // Every bf16 is the f32 of its bits followed by 16 zeros (APFloat agrees).
  return bitsToFloat(uint32_t(bits) << 16);
}

uint16_t mlir::amp::runtime::floatToHalf(float value) {
  return encodeWith(llvm::APFloat::IEEEhalf(), value);
}

uint16_t mlir::amp::runtime::floatToBfloat16(float value) {
  return encodeWith(llvm::APFloat::BFloat(), value);
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

//===- HostTensor.cpp - Arrays amp-run passes in and gets back ------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/HostTensor.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::amp::runtime;

/// The element count of `shape`. Callers check that a shape without zeros
/// fits in memory; one with a zero holds nothing whatever its other sizes.
static int64_t product(llvm::ArrayRef<int64_t> shape) {
  if (llvm::is_contained(shape, 0))
    return 0;
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

HostTensor::HostTensor(ElementKind kind, llvm::ArrayRef<int64_t> shape)
    : kind(kind), shape(shape.begin(), shape.end()),
      storage(product(shape) * getElementByteWidth(kind), 0) {}

int64_t HostTensor::getNumElements() const { return product(shape); }

double HostTensor::getAsDouble(int64_t index) const {
  return loadAsDouble(kind, storage.data() + index * getElementByteWidth(kind));
}

void HostTensor::setFromDouble(int64_t index, double value) {
  storeFromDouble(kind, storage.data() + index * getElementByteWidth(kind),
                  value);
}

HostTensor HostTensor::convertTo(ElementKind newKind) const {
  HostTensor converted(newKind, shape);
  for (int64_t i = 0, e = getNumElements(); i < e; ++i)
    converted.setFromDouble(i, getAsDouble(i));
  return converted;
}

std::string HostTensor::getTypeString() const {
  std::string text = formatShape(shape);
  if (!text.empty())
    text += "x";
  return text + getElementKindName(kind).str();
}

std::string mlir::amp::runtime::formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string text;
  for (auto [i, size] : llvm::enumerate(shape)) {
    if (i)
      text += "x";
    text += ShapedType::isDynamic(size) ? "?" : std::to_string(size);
  }
  return text;
}

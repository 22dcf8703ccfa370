//===- HostTensor.h - Arrays amp-run passes in and gets back ----*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A dense, row-major array in host memory with an element kind and a shape;
// rank 0 holds a scalar. It is what .npy files are read into, what inputs
// are generated as, and what results are copied out to.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_HOSTTENSOR_H
#define AMP_RUNTIME_HOSTTENSOR_H

#include "amp/Runner/ElementType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
namespace amp {
namespace runtime {

class HostTensor {
public:
  /// A zero-filled array.
  HostTensor(ElementKind kind, llvm::ArrayRef<int64_t> shape);

  ElementKind getElementKind() const { return kind; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getRank() const { return shape.size(); }
  int64_t getNumElements() const;
  size_t getByteSize() const { return storage.size(); }

  void *getData() { return storage.data(); }
  const void *getData() const { return storage.data(); }

  double getAsDouble(int64_t index) const;
  void setFromDouble(int64_t index, double value);

  /// A copy with elements of `kind`, each converted as setFromDouble does
  /// (floats rounded to nearest even; f64 data to f16 or bf16 is rounded twice,
  /// through f32).
  HostTensor convertTo(ElementKind kind) const;

  /// "4x8xf16", or "f16" for rank 0.
  std::string getTypeString() const;

private:
  ElementKind kind;
  llvm::SmallVector<int64_t> shape;
  std::vector<uint8_t> storage;
};

/// "4x8" (empty for rank 0), with "?" for dynamic sizes.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNTIME_HOSTTENSOR_H

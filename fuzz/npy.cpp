//===- npy.cpp - Fuzz target: amp-run's .npy reader
//------------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Any bytes given to parseNpy give a tensor or an error, never a crash or
// an allocation the data cannot back. A tensor that was read prints back
// to a .npy file that reads as the same tensor, and its elements survive
// widening to f64 and narrowing back unchanged (NaN stays NaN).
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "amp/Runner/Npy.h"

#include <cmath>
#include <cstring>

using namespace mlir::amp::runtime;

/// Widening to f64 and back is exact for every kind but i64 (f64 holds 53
/// bits).
static void checkWidening(const HostTensor &tensor) {
  ElementKind kind = tensor.getElementKind();
  if (kind == ElementKind::I64 || tensor.getNumElements() > 4096)
    return;
  HostTensor back = tensor.convertTo(ElementKind::F64).convertTo(kind);
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i) {
    double before = tensor.getAsDouble(i), after = back.getAsDouble(i);
    AMP_FUZZ_CHECK(std::isnan(before) ? std::isnan(after)
                                      : std::memcmp(&before, &after, 8) == 0);
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  auto tensor = parseNpy(bytes, "input.npy");
  if (!tensor) {
    llvm::consumeError(tensor.takeError());
    return 0;
  }
  AMP_FUZZ_CHECK(tensor->getByteSize() ==
                 size_t(tensor->getNumElements()) *
                     getElementByteWidth(tensor->getElementKind()));

  std::string printed;
  llvm::raw_string_ostream os(printed);
  printNpy(os, *tensor);
  auto again = parseNpy(printed, "printed.npy");
  AMP_FUZZ_CHECK(static_cast<bool>(again));
  AMP_FUZZ_CHECK(again->getElementKind() == tensor->getElementKind());
  AMP_FUZZ_CHECK(again->getShape() == tensor->getShape());
  AMP_FUZZ_CHECK(again->getByteSize() == tensor->getByteSize());
  AMP_FUZZ_CHECK(tensor->getByteSize() == 0 ||
                 std::memcmp(again->getData(), tensor->getData(),
                             tensor->getByteSize()) == 0);
  checkWidening(*tensor);
  return 0;
}

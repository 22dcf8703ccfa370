//===- RandomInputs.cpp - Seeded inputs for the entry function ------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/RandomInputs.h"

using namespace mlir;
using namespace mlir::amp::runtime;

namespace {
/// SplitMix64: a tiny generator whose output is fixed by its definition, so
/// inputs are the same on every platform and standard library.
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t state) : state(state) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1) with 53 random bits.
  double nextUnit() { return double(next() >> 11) * 0x1.0p-53; }

private:
  uint64_t state;
};
} // namespace

llvm::Expected<HostTensor>
mlir::amp::runtime::generateArgument(const EntrySignature &signature,
                                     unsigned index, uint64_t seed) {
  const ValueSpec &spec = signature.arguments[index];
  if (!spec.hasStaticShape())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "@" + signature.name + " " + spec.describe("argument", index) +
            " has dynamic sizes: give its values with --input=FILE.npy");
  HostTensor tensor(spec.kind, spec.shape);
  SplitMix64 generator(seed * 0x100000001b3ull + index);
  bool isFloat = isFloatKind(spec.kind);
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i) {
    double unit = generator.nextUnit();
    tensor.setFromDouble(i, isFloat ? 2.0 * unit - 1.0
                                    : static_cast<double>(int(unit * 16)));
  }
  return std::move(tensor);
}

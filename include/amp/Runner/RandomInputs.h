//===- RandomInputs.h - Seeded inputs for the entry function ----*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Deterministic inputs when no .npy is given: floats uniform in [-1, 1)
// (rounded to the argument's type), integers uniform in [0, 16). Each
// argument has its own stream derived from the seed and its position, so
// argument k gets the same values whatever the other arguments are, and the
// f32 and the mixed-precision versions of a function get the same inputs.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_RANDOMINPUTS_H
#define AMP_RUNTIME_RANDOMINPUTS_H

#include "amp/Runner/EntrySignature.h"

namespace mlir {
namespace amp {
namespace runtime {

/// Fails when the argument has dynamic sizes (its shape must come from a
/// .npy file).
llvm::Expected<HostTensor> generateArgument(const EntrySignature &signature,
                                            unsigned index, uint64_t seed);

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNTIME_RANDOMINPUTS_H

//===- LowPrecisionWork.h - f16/bf16 work a target has no units for ------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A program converted without a target (mixed-precision's default) computes
// in f16 or bf16 wherever the policy allows. Run on a CPU without units
// for that work, each such op widens its operands and rounds its results:
// it runs slower than in f32. This finds those ops, so that the tools can
// say so once and name the option that converts for the machine.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_LOWPRECISIONWORK_H
#define AMP_ANALYSIS_LOWPRECISIONWORK_H

#include "mlir/IR/Operation.h"

#include <optional>
#include <string>

namespace mlir {
namespace amp {

/// The ops under `root` (outside structured ops' bodies) with f16 or bf16
/// data that `target` cannot compute in that type (amp::canComputeIn: a
/// contraction, arithmetic or a math function; casts and data movement are
/// storage, which every target has), in order.
SmallVector<Operation *> findLowPrecisionWorkWithoutUnits(Operation *root,
                                                          Attribute target);

/// One sentence for users when `root` has such work on `target` (named
/// `targetName`), naming how many ops compute in which type and the option
/// that converts for the target (`convertOption`); std::nullopt when all of
/// its low-precision work runs on the target's units.
std::optional<std::string>
describeLowPrecisionWorkWithoutUnits(Operation *root, Attribute target,
                                     StringRef targetName,
                                     StringRef convertOption);

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_LOWPRECISIONWORK_H

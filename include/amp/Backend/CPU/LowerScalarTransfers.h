//===- LowerScalarTransfers.h - 0-d transfers as loads/stores ---*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_CPU_LOWERSCALARTRANSFERS_H
#define AMP_BACKEND_CPU_LOWERSCALARTRANSFERS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {

/// Rewrites 0-d vector.transfer_read/transfer_write on memrefs (no mask) to
/// memref.load + vector.broadcast and vector.extract + memref.store.
void populateScalarTransferLoweringPatterns(RewritePatternSet &patterns);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_CPU_LOWERSCALARTRANSFERS_H

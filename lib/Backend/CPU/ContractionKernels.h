//===- ContractionKernels.h - What the contraction files share --*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// amp-vectorize-contractions is split by concern: matching
// (ContractionMatching.cpp), fills and epilogues (ContractionEpilogues.cpp),
// zero-row clipping (ContractionZeroRows.cpp), the tile
// (ContractionTile.cpp), emission (ContractionEmitter.cpp) and the pass
// (VectorizeContractions.cpp). The public API is in
// amp/Backend/CPU/VectorizeContractions.h; these are the helpers the files
// share and nothing outside them uses.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_BACKEND_CPU_CONTRACTIONKERNELS_H
#define AMP_LIB_BACKEND_CPU_CONTRACTIONKERNELS_H

#include "amp/Backend/CPU/VectorizeContractions.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir {
namespace amp {

/// Element types a kernel loads and stores as vectors (a vector of i1 is
/// packed bits, a memref of i1 one byte per element).
bool isVectorMemoryType(Type type);

/// Whether the buffer `op` writes is one allocated here that nothing but
/// `op`, its init fill and `epilogue` accesses: the kernel need not store
/// it.
bool isOnlyReadByEpilogue(linalg::LinalgOp op, linalg::LinalgOp fill,
                          linalg::GenericOp epilogue);

/// The value `op` fills its output with, when it is a fill: a `linalg.fill`,
/// or a generic without inputs that yields one value from outside its body
/// (on tensors or buffers, unlike Common/GPUContractionStrategy.h's
/// getFilledValue).
Value getFilledScalar(Operation *op);

/// A reduction dimension of `op` (with `tile`) whose steps past known zeros
/// of an input can be skipped.
std::optional<ZeroRowClip> findZeroRowClip(linalg::LinalgOp op,
                                           const ContractionTile &tile);

} // namespace amp
} // namespace mlir

#endif // AMP_LIB_BACKEND_CPU_CONTRACTIONKERNELS_H

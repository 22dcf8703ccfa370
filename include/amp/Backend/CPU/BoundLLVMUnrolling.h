//===- BoundLLVMUnrolling.h - No LLVM unrolling of unrolled kernels -*- C++
//-*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_CPU_BOUNDLLVMUNROLLING_H
#define AMP_BACKEND_CPU_BOUNDLLVMUNROLLING_H

#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace amp {

/// `#llvm.loop_annotation<unroll = <disable = true>>`.
LLVM::LoopAnnotationAttr getNoUnrollAnnotation(MLIRContext *context);

/// Whether LLVM should leave `loop` rolled: it holds another loop, and it
/// runs at least `minTrips` times or an unknown number of times.
bool isUnrollingBounded(scf::ForOp loop, int64_t minTrips);

/// Marks every scf.for under `root` for which isUnrollingBounded holds so
/// that LLVM does not unroll it; returns how many it marked
/// (amp-bound-llvm-unrolling).
int64_t boundLLVMUnrolling(Operation *root, int64_t minTrips);

/// Moves the annotations that convert-scf-to-cf leaves on the latch
/// branches of loops as a discardable `llvm.loop_annotation` into the
/// `loop_annotation` of the llvm.br/llvm.cond_br they were lowered to,
/// where the translation to LLVM IR reads them.
void attachLoopAnnotations(Operation *root);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_CPU_BOUNDLLVMUNROLLING_H

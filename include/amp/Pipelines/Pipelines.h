//===- Pipelines.h - amp's lowering pipelines -------------------*- C++ -*-===//
//
// Named pipelines that take the output of mixed-precision (linalg, tosa,
// tensor, arith, math, scf, func) to a target.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_PIPELINES_PIPELINES_H
#define AMP_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace amp {

/// The tensor-level part every lowering shares: tosa to linalg, a copy of
/// each shared tensor cast per user, elementwise arith/math on tensors to
/// linalg.generic, aggregated ops decomposed, named ops generalized, and
/// elementwise fusion, which puts every cast into the kernel of its producer
/// or consumer.
void buildAmpFuseKernelsPipeline(OpPassManager &pm);

/// CPU code through LLVM: the kernels above, one-shot bufferization, loops,
/// and the LLVM dialect (runnable with mlir-runner / the ExecutionEngine).
void buildAmpLowerToLLVMPipeline(OpPassManager &pm);

/// Registers `amp-fuse-kernels` and `amp-lower-to-llvm`.
void registerAmpPipelines();

} // namespace amp
} // namespace mlir

#endif // AMP_PIPELINES_PIPELINES_H

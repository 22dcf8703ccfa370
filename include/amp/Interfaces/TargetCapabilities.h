//===- TargetCapabilities.h - What a target can do in low precision -*- C++ -*-===//
//
// One table of what each target can store and compute in f16 and bf16.
// Targets are named by the attributes MLIR already uses for them: a
// `#spirv.target_env`, an `#nvvm.target`, or null for "any target" (the CPU,
// where LLVM legalises f16 and bf16 everywhere).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_TARGETCAPABILITIES_H
#define AMP_INTERFACES_TARGETCAPABILITIES_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir {
class Operation;
namespace amp {

/// The kinds of work a target may support separately.
enum class TargetOpKind {
  /// Loads, stores and copies.
  Storage,
  /// Elementwise arithmetic and comparisons.
  Arithmetic,
  /// exp, log, tanh and other math library functions.
  Transcendental,
  /// Matrix multiply and convolution (tensor cores where present).
  Contraction,
};

/// True if `target` supports `kind` of work on values of `type`.
bool targetSupports(Attribute target, TargetOpKind kind, FloatType type);

/// The target attribute that governs `op`: the nearest `spirv.target_env`
/// attribute or the first `#nvvm.target` of an enclosing gpu.module, or null.
Attribute getEnclosingTarget(Operation *op);

} // namespace amp
} // namespace mlir

#endif // AMP_INTERFACES_TARGETCAPABILITIES_H

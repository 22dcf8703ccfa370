//===- TargetCapabilities.h - What targets compute low ----------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What each target can store and compute in f16 and bf16, asked through
// AmpTargetAttrInterface. Targets are named by the attributes MLIR already
// uses for them: a `#spirv.target_env`, an `#nvvm.target`, or null for "any
// target" (the CPU, where LLVM legalises f16 and bf16 everywhere).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TARGET_TARGETCAPABILITIES_H
#define AMP_TARGET_TARGETCAPABILITIES_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir {
class DialectRegistry;
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

/// True if `target` supports `kind` of work on values of `type`. A null
/// target, or one without an AmpTargetAttrInterface model, supports all.
bool targetSupports(Attribute target, TargetOpKind kind, FloatType type);

/// The target attribute that governs `op`: the nearest `spirv.target_env`
/// attribute or the first target of an enclosing gpu.module that has an
/// AmpTargetAttrInterface model, or null.
Attribute getEnclosingTarget(Operation *op);

} // namespace amp
} // namespace mlir

#include "amp/Target/TargetAttrInterface.h.inc"

#endif // AMP_TARGET_TARGETCAPABILITIES_H

//===- Amp.h - The amp dialect ----------------------------------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The amp dialect: precision policy attributes (`amp.precision` on an op,
// `amp.scope` on a region-holding op).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AMP_AMP_H
#define AMP_DIALECT_AMP_AMP_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include <functional>

#include "amp/Dialect/Amp/AmpDialect.h.inc"
#include "amp/Dialect/Amp/AmpEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "amp/Dialect/Amp/AmpAttributes.h.inc"

namespace mlir {
namespace amp {

/// Returns true if `type` is a low-precision type amp converts to.
bool isSupportedLowType(Type type);

/// Parses a low-precision type name (`f16`, `bf16`); null if unsupported.
FloatType parseLowType(MLIRContext *ctx, StringRef name);
/// Parses an accumulator type name (`f16`, `bf16`, `f32`, `f64`); null if
/// unsupported.
FloatType parseAccumulatorType(MLIRContext *ctx, StringRef name);

/// The policy that applies to `op`: its own `amp.precision`, merged with the
/// `amp.scope` attributes of its ancestors (innermost wins, field by field).
/// Returns a null attribute when no policy is stated anywhere.
PrecisionAttr getEffectivePrecision(Operation *op);

} // namespace amp
} // namespace mlir

#endif // AMP_DIALECT_AMP_AMP_H

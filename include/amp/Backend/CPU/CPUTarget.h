//===- CPUTarget.h - What CPUs compute in f16 and bf16 ----------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_CPU_CPUTARGET_H
#define AMP_BACKEND_CPU_CPUTARGET_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class Attribute;
class DialectRegistry;
class MLIRContext;
namespace amp {

/// Attaches amp's target model to `#llvm.target` (the triple, chip and
/// features of a CPU): every CPU stores f16 and bf16 (LLVM converts them).
/// On x86 what computes low is what pays in amp's kernels: f16 is
/// storage-only (the kernels would convert it to f32, with or without
/// AVX512-FP16), and so is bf16 but for contractions on a chip whose
/// AVX512-BF16 dot product adds products faster than f32 fused
/// multiply-adds (Zen 4). AArch64 computes f16 with `fullfp16`, bf16
/// contractions with `bf16`. Other CPUs: everything (LLVM legalises it).
void registerCPUTargetModel(DialectRegistry &registry);

/// Registers the `cpu` target name: the host's `#llvm.target`, detected by
/// LLVM (triple, CPU name, features).
void registerCPUTargets();

/// Whether the x86 chip `chip` (an LLVM CPU name) adds bf16 products
/// faster with the AVX512-BF16 dot product than f32 products with fused
/// multiply-adds (bench/cpu-rates): Zen 4 (`znver4`). Only there do bf16
/// contractions pay for computing low, and amp-run use the dot product by
/// default.
bool hasFastBF16Dot(llvm::StringRef chip);

/// The host's `#llvm.target`.
Attribute getHostCPUTarget(MLIRContext *context);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_CPU_CPUTARGET_H

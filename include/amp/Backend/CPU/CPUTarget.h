//===- CPUTarget.h - What CPUs compute in f16 and bf16 ----------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_CPU_CPUTARGET_H
#define AMP_BACKEND_CPU_CPUTARGET_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

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

/// The vector registers of a CPU, as LLVM describes it: their width in
/// bits (fixed-width vectors) and how many there are.
struct CPUVectorRegisters {
  unsigned bits = 0;
  unsigned count = 0;
};

/// The vector registers of `cpu` (an LLVM CPU name: znver3, znver4,
/// skylake-avx512, neoverse-v1, ...; "host" for this machine) on `triple`
/// (empty: the host's), from LLVM's target description: 512-bit registers
/// with AVX-512, 256 with AVX, 128 with SSE or NEON; their count from the
/// target's register classes (32 with AVX-512 or on AArch64, 16 with AVX2).
/// None when LLVM does not know the target or the CPU.
std::optional<CPUVectorRegisters> getCPUVectorRegisters(llvm::StringRef cpu,
                                                        llvm::StringRef triple);

/// The register tile of amp-vectorize-contractions for f32 accumulators in
/// `registers`: `lanes` elements per vector (the register width), and
/// `rows` x `cols` vectors of accumulators, at most 16 and leaving four
/// registers for the vectors a step reads (`cols` of them) and the scalar
/// it broadcasts, so that the inner loop does not spill: 8 x 2 x 16 lanes
/// with AVX-512, 6 x 2 x 8 with AVX2 (16 registers), 8 x 2 x 4 with NEON.
struct CPURegisterTile {
  int64_t lanes = 16;
  int64_t rows = 8;
  int64_t cols = 2;
};
CPURegisterTile chooseCPURegisterTile(const CPUVectorRegisters &registers);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_CPU_CPUTARGET_H

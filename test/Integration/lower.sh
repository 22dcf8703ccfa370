#!/bin/bash
# Lowers a linalg-on-tensors program (with tensor-level arith.truncf/extf
# and math ops, as amp-test-convert-ops leaves them) to the LLVM dialect, for
# mlir-runner. Usage: lower.sh MLIR_OPT [INPUT]; reads INPUT (default stdin),
# writes stdout. In RUN lines, pass `mlir-opt` (lit substitutes its path).
#
#   convert-elementwise-to-linalg  tensor-level arith/math ops (truncf, extf,
#                                  subf, tanh, ...) become linalg.generic, so
#                                  bufferization sees no elementwise tensor op
#   one-shot-bufferize             whole program, identity layouts at calls
#   convert-linalg-to-loops        named and generic ops to scf loops
#   ... to LLVM                    f16/bf16 arithmetic and math.tanh lower to
#                                  plain LLVM instructions/intrinsics, which
#                                  the x86 JIT runs directly
#
# Not a test: lit only runs files ending in .mlir.
set -euo pipefail
exec "$1" "${2:--}" --pass-pipeline="builtin.module(\
convert-elementwise-to-linalg,\
one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},\
func.func(convert-linalg-to-loops),\
convert-scf-to-cf,\
expand-strided-metadata,\
lower-affine,\
finalize-memref-to-llvm,\
convert-to-llvm,\
reconcile-unrealized-casts)"

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Ahead of time, end to end (docs/Embedding.md, "Deploying"):
#
#   examples/aot/run.sh [OUT]     (default OUT: a fresh temporary folder)
#
# 1. converts examples/mlp.mlir to f16 with amp-opt;
# 2. compiles it with amp-compile into OUT/libmlp.so and OUT/mlp.h;
# 3. builds main.c against them with cc, and runs it: it writes its
#    arguments and result to OUT as .npy files;
# 4. checks that the library needs no MLIR or LLVM, and that amp-run's
#    run of the same program gives the same result bit for bit.
# AMP_BIN: where amp's tools are (default: build/bin); CC: the C compiler.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BIN="${AMP_BIN:-$ROOT/build/bin}"
OUT="${1:-$(mktemp -d)}"
mkdir -p "$OUT"

"$BIN/amp-opt" "$ROOT/examples/mlp.mlir" --mixed-precision=precision=f16 -o "$OUT/mlp.f16.mlir"
"$BIN/amp-compile" "$OUT/mlp.f16.mlir" -o "$OUT/libmlp.so" --header "$OUT/mlp.h"
"${CC:-cc}" -O2 -I"$OUT" "$HERE/main.c" -L"$OUT" -lmlp -Wl,-rpath,"$OUT" -o "$OUT/classify"
"$OUT/classify" "$OUT"

if ldd "$OUT/libmlp.so" | grep -E "libMLIR|libLLVM"; then
  echo "run.sh: libmlp.so needs MLIR or LLVM" >&2
  exit 1
fi
echo "run.sh: libmlp.so needs: $(ldd "$OUT/libmlp.so" | awk '{print $1}' | tr '\n' ' ')"
"$BIN/amp-run" "$OUT/mlp.f16.mlir" --entry=mlp --input-dir="$OUT" \
  --compare="$OUT/result0.npy" --rtol=0 --atol=0 --no-cache

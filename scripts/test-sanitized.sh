#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Configures and builds amp with AddressSanitizer and UndefinedBehaviorSanitizer
# in build-sanitized/ (-DAMP_SANITIZE=address,undefined) and runs the lit
# suite there, or the tests named (e.g. build-sanitized/test/BadInput);
# ends with "N passed, N failed, N skipped" like scripts/test.sh. Run
# ./scripts/setup.sh once first (it installs the packages).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-sanitized}"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DAMP_SANITIZE=address,undefined || { echo "0 passed, 1 failed"; exit 1; }
fi
BUILD_DIR="$BUILD_DIR" exec "$ROOT/scripts/test.sh" "$@"

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds amp's fuzz targets (fuzz/) with libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer in build-fuzz/ (clang, -DAMP_LIBFUZZER=ON
# -DAMP_SANITIZE=address,undefined) and runs each for SECONDS seconds
# (default 60) from a copy of its seed corpus (fuzz/corpus/<target>).
# New inputs stay in build-fuzz/corpus/<target>; inputs that crash go to
# build-fuzz/crashes/<target>/ (add them to fuzz/corpus/<target> once fixed,
# so that the replay test keeps them). Ends with one line per target.
#
#   ./scripts/fuzz.sh                 # every target, 60 s each
#   SECONDS_PER_TARGET=600 ./scripts/fuzz.sh npy
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-fuzz}"
TIME="${SECONDS_PER_TARGET:-60}"
TARGETS=("$@")
[ "${#TARGETS[@]}" -gt 0 ] || TARGETS=(policy-file npy run-inputs)

# shellcheck source=scripts/lib/install-packages.sh
. "$ROOT/scripts/lib/install-packages.sh"
# libFuzzer comes with clang (Debian's clang-14 ships libclang_rt.fuzzer).
amp_install_packages fuzz clang-14 cmake ninja-build \
  llvm-22-dev libmlir-22-dev mlir-22-tools || exit 1

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  CC=clang-14 CXX=clang++-14 cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DAMP_LIBFUZZER=ON -DAMP_SANITIZE=address,undefined || exit 1
fi
ninja -C "$BUILD_DIR" "${TARGETS[@]/#/amp-fuzz-}" || exit 1

status=0
summary=()
for target in "${TARGETS[@]}"; do
  corpus="$BUILD_DIR/corpus/$target" crashes="$BUILD_DIR/crashes/$target"
  mkdir -p "$corpus" "$crashes"
  cp -n "$ROOT/fuzz/corpus/$target"/* "$corpus"/
  log="$BUILD_DIR/$target.log"
  echo "fuzz: amp-fuzz-$target for ${TIME}s (log: $log)"
  "$BUILD_DIR/bin/amp-fuzz-$target" "$corpus" -max_total_time="$TIME" \
    -artifact_prefix="$crashes/" -print_final_stats=1 >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  found=$(find "$crashes" -type f | wc -l)
  if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
    status=1
    summary+=("$target: ${runs:-?} runs, $found crashing inputs in $crashes (exit $rc)")
  else
    summary+=("$target: ${runs:-?} runs, $(ls "$corpus" | wc -l) corpus inputs, no crash")
  fi
done
printf '%s\n' "${summary[@]}"
exit $status

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds what changed and runs amp's lit suite; ends with the line
# "N passed, N failed[, N skipped]". Run ./scripts/setup.sh once first.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
LIT=/usr/lib/llvm-22/bin/lit

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  echo "test: $BUILD_DIR is not configured; run ./scripts/setup.sh first" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
if ! cmake --build "$BUILD_DIR"; then
  echo "test: build failed" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

# Arguments go to lit (options as --name=value); the whole suite runs
# unless some name tests (paths under $BUILD_DIR/test).
tests=("$BUILD_DIR/test")
for arg in "$@"; do
  case "$arg" in -*) ;; *) tests=(); break ;; esac
done
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
"$LIT" -sv "${tests[@]}" "$@" | tee "$log"
status=${PIPESTATUS[0]}

# lit's summary lines look like "  Passed: 12 (85.71%)" or, aligned when
# several kinds are listed, "  Passed     : 81 (97.59%)"; absent kinds count 0.
count() {
  local n
  n=$(sed -n -E "s/^ *$1 *: *([0-9]+).*/\1/p" "$log" | tail -1)
  echo "${n:-0}"
}
passed=$(( $(count Passed) + $(count "Expectedly Failed") ))
failed=$(( $(count Failed) + $(count "Unexpectedly Passed") + $(count Unresolved) + $(count "Timed Out") ))
skipped=$(( $(count Unsupported) + $(count Skipped) + $(count Excluded) ))
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "$passed passed, $failed failed, $skipped skipped"
exit "$status"

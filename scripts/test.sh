#!/usr/bin/env bash
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

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
"$LIT" -sv "$BUILD_DIR/test" "$@" | tee "$log"
status=${PIPESTATUS[0]}

count() { sed -n -E "s/^ *$1: *([0-9]+).*/\1/p" "$log" | tail -1; }
passed=$(( $(count Passed || true) + $(count "Expectedly Failed" || true) ))
failed=$(( $(count Failed || true) + $(count "Unexpectedly Passed" || true) + $(count Unresolved || true) + $(count "Timed Out" || true) ))
skipped=$(( $(count Unsupported || true) + $(count Skipped || true) + $(count Excluded || true) ))
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "$passed passed, $failed failed, $skipped skipped"
exit "$status"

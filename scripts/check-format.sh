#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Checks that amp's C and C++ are formatted as clang-format 22 formats them
# (.clang-format: LLVM style). Prints the diff and exits 1 where they are
# not; .ci/run runs it.
#
#   scripts/check-format.sh          # every tracked .c/.cpp/.h file
#   scripts/check-format.sh BASE     # only the lines changed since commit BASE
#   scripts/check-format.sh --fix    # reformat every tracked file in place
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CLANG_FORMAT="${CLANG_FORMAT:-/usr/lib/llvm-22/bin/clang-format}"
if [ ! -x "$CLANG_FORMAT" ]; then
  echo "check-format: no $CLANG_FORMAT (./scripts/setup.sh installs clang-format-22)" >&2
  exit 2
fi
# git clang-format runs the clang-format beside it.
export PATH="$(dirname "$CLANG_FORMAT"):$PATH"
mapfile -t FILES < <(git ls-files '*.c' '*.cpp' '*.h')
case "${1:-}" in
  --fix)
    "$CLANG_FORMAT" -i "${FILES[@]}"
    exit 0 ;;
  "")
    status=0
    for f in "${FILES[@]}"; do
      if ! "$CLANG_FORMAT" "$f" | diff -u --label "$f" --label "$f (clang-format)" "$f" -; then
        status=1
      fi
    done
    if [ "$status" -ne 0 ]; then
      echo "check-format: the files above differ from clang-format's output" \
           "(scripts/check-format.sh --fix reformats them)" >&2
    else
      echo "check-format: ${#FILES[@]} files formatted"
    fi
    exit "$status" ;;
  *)
    out="$(git -c color.ui=never clang-format --binary "$CLANG_FORMAT" --diff "$1" -- \
           '*.c' '*.cpp' '*.h' 2>&1)" || true
    case "$out" in
      *"did not modify any files"* | *"no modified files to format"* | "")
        echo "check-format: the lines changed since $1 are formatted" ;;
      *)
        printf '%s\n' "$out"
        echo "check-format: the lines changed since $1 differ from clang-format's output" >&2
        exit 1 ;;
    esac ;;
esac

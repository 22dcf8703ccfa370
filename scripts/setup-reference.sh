#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs ONNX Runtime for Node.js (onnxruntime-node, CPU provider) from the
# npm registry into tools/onnx/ort/node_modules: the f32 reference
# that `tools/onnx/check.py` and the `onnxruntime` lit tests compare
# imported models with. Not part of scripts/setup.sh (it downloads ~60 MB).
# Safe to run again.
#
#   ./scripts/setup-reference.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="$ROOT/tools/onnx/ort"

if [ -d "$DIR/node_modules/onnxruntime-node" ]; then
  echo "setup-reference: onnxruntime-node already installed in $DIR/node_modules"
  exit 0
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "setup-reference: installing nodejs and npm"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nodejs npm
fi
cd "$DIR"
# The package's install script would fetch GPU binaries from GitHub; the CPU
# binaries ship inside the npm package, so the script is skipped.
ONNXRUNTIME_NODE_INSTALL=skip ONNXRUNTIME_NODE_INSTALL_CUDA=skip \
  npm ci --ignore-scripts --no-audit --no-fund
node -e "require('onnxruntime-node'); console.log('setup-reference: onnxruntime-node', require('onnxruntime-node/package.json').version)"

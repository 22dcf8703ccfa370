#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs what amp needs (Debian packages), configures and builds it, and
# runs amp on a bundled example. Safe to run again: it installs only what is
# missing and rebuilds incrementally.
#
#   ./scripts/setup.sh            # install + build + example
#   BUILD_DIR=out ./scripts/setup.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
LLVM_PREFIX=/usr/lib/llvm-22

PACKAGES=(
  # Build
  cmake ninja-build g++
  # LLVM/MLIR 22: headers, libMLIR.so/libLLVM.so, mlir-opt, mlir-runner,
  # FileCheck, lit and not
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  # The OpenMP runtime threaded CPU code calls (amp-run --threads)
  libomp-22-dev
  # The format check .ci/run makes (scripts/check-format.sh)
  clang-format-22
  # Vulkan on the CPU (lavapipe) and SPIR-V validation
  libvulkan-dev mesa-vulkan-drivers spirv-tools
  # Python side (tests, tools, benchmarks)
  python3 python3-numpy
  # pip installs the Python package offline (test/Embed/python-package.test)
  python3-pip python3-setuptools python3-wheel
  # ONNX import (python/amp/onnx)
  python3-onnx
  # The accuracy smoke test and the tutorial's test (scikit-learn's digits;
  # the rest of the accuracy benchmark's packages are in bench/setup.sh)
  python3-sklearn
  # The JSON report's schema check (test/Transforms/report-schema.py) and
  # pictures of the decisions (mixed-precision{graph=...}, dot -Tsvg)
  python3-jsonschema graphviz
)

# shellcheck source=scripts/lib/install-packages.sh
. "$ROOT/scripts/lib/install-packages.sh"
amp_install_packages setup "${PACKAGES[@]}"

# The CUDA Toolkit is optional: CMake looks for ptxas and reports what it found.
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit"
fi
cmake --build "$BUILD_DIR"

echo
echo "setup: amp is built. examples/mlp.mlir converted to mixed f16 precision,"
echo "with the reason for every decision:"
"$BUILD_DIR/bin/amp-opt" "$ROOT/examples/mlp.mlir" --mixed-precision=explain=true \
  --mlir-print-op-on-diagnostic=false 2>&1

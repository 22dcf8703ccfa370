#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Every GPU check and benchmark of the GPU kernels (issue: tiled
# contractions and parallel reductions), in one run on prebuilt binaries,
# for a machine with an NVIDIA GPU and its driver. Meant to finish within
# 8 minutes on an H100/H200:
#
#   1. test/Runner/gpu-contractions.py --backend cuda: the differential
#      test of contractions and row reductions against the CPU backend
#      (shapes with 1, 7, 63, 129, 1000; f32/f16/bf16; +-20 and +-1e-3);
#   2. test/Runner/cuda-gpu.mlir through lit (layer, attention, conv);
#   3. bench/gpu/run.sh (elementwise, softmax, 512^3 matmul) and the
#      contraction sizes below, f32/f16/bf16, with TFLOP/s.
#
#   bench/gpu/device-check.sh [--chip sm_90] [--build DIR] [--repeat N]
#
# Exits non-zero when there is no usable GPU or any check fails.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
chip=sm_90
repeat=20
while [ $# -gt 0 ]; do
  case "$1" in
    --chip) chip=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "device-check.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
amp_run="$build/bin/amp-run"
amp_opt="$build/bin/amp-opt"
python=$(command -v python3)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

# Is there a GPU? A four-element add answers, with amp-run's own message.
cat > "$work/probe.mlir" <<'MLIR'
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
MLIR
if ! "$amp_run" "$work/probe.mlir" --entry=add --backend=cuda --chip="$chip" \
    > "$work/probe.txt" 2>&1; then
  cat "$work/probe.txt" >&2
  echo "device-check.sh: no usable NVIDIA GPU here; nothing was checked" >&2
  exit 1
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true

echo "== 1. contractions and reductions, CUDA against the CPU backend"
timeout 240 "$python" "$root/test/Runner/gpu-contractions.py" \
  --amp-opt "$amp_opt" --amp-run "$amp_run" --backend cuda \
  --work "$work" || status=1

echo "== 2. test/Runner/cuda-gpu.mlir"
timeout 120 /usr/lib/llvm-22/bin/lit -v "$build/test/Runner/cuda-gpu.mlir" ||
  status=1

echo "== 3. bench/gpu/run.sh"
timeout 120 "$here/run.sh" --chip "$chip" --repeat "$repeat" \
  --build "$build" || status=1

echo "== 4. contractions: f32/f16/bf16 (min of $repeat calls)"
echo "| product | f32 ms | f32 TFLOP/s | f16 ms | f16 TFLOP/s | bf16 ms | bf16 TFLOP/s |"
echo "|---|---:|---:|---:|---:|---:|---:|"
# name batch m n k
for shape in "matmul-512 1 512 512 512" "matmul-1024 1 1024 1024 1024" \
             "matmul-2048 1 2048 2048 2048" "matmul-4096 1 4096 4096 4096" \
             "tall-skinny 1 65536 64 256" "batch-matmul 32 256 256 128"; do
  read -r name b m n k <<< "$shape"
  cat > "$work/$name.mlir" <<MLIR
func.func @main(%a: tensor<${b}x${m}x${k}xf32>, %w: tensor<${b}x${k}x${n}xf32>) -> tensor<${b}x${m}x${n}xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<${b}x${m}x${n}xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<${b}x${m}x${n}xf32>) -> tensor<${b}x${m}x${n}xf32>
  %r = linalg.batch_matmul ins(%a, %w : tensor<${b}x${m}x${k}xf32>, tensor<${b}x${k}x${n}xf32>) outs(%f : tensor<${b}x${m}x${n}xf32>) -> tensor<${b}x${m}x${n}xf32>
  return %r : tensor<${b}x${m}x${n}xf32>
}
MLIR
  row="| $name ($b x ${m}x${n}x${k}) |"
  for p in f32 f16 bf16; do
    file="$work/$name.mlir"
    if [ $p != f32 ]; then
      "$amp_opt" "$file" --mixed-precision=precision=$p -o "$work/$name-$p.mlir"
      file="$work/$name-$p.mlir"
    fi
    ms=$(timeout 60 "$amp_run" "$file" --entry=main --backend=cuda \
           --chip="$chip" --seed=1 --repeat="$repeat" 2>&1 |
         sed -n 's/^time: min \([0-9.]*\) ms.*/\1/p')
    if [ -z "$ms" ]; then status=1; row+=" failed | |"; continue; fi
    tflops=$(awk -v b=$b -v m=$m -v n=$n -v k=$k -v t=$ms \
               'BEGIN { printf "%.2f", 2 * b * m * n * k / (t * 1e-3) / 1e12 }')
    row+=" $ms | $tflops |"
  done
  echo "$row"
done
exit $status

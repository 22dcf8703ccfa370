#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Every GPU check and benchmark of the GPU kernels (issue: tiled
# contractions and parallel reductions), in one run on prebuilt binaries,
# for a machine with an NVIDIA GPU and its driver. Meant to finish within
# 8 minutes on an H100/H200:
#
#   1. test/Runner/gpu-contractions.py --backend cuda: the differential
#      test of contractions and row reductions against the CPU backend
#      (shapes with 1, 7, 63, 129, 1000; f32/f16/bf16; +-20 and +-1e-3),
#      then the same for the tensor-core kernels (--tensor-cores: converted
#      programs and f16/bf16 operands, mma.sync, ldmatrix, cp.async);
#   2. test/Runner/cuda-gpu.mlir through lit (layer, attention, conv);
#   3. bench/gpu/run.sh (elementwise, softmax, 512^3 matmul) and the
#      contraction sizes below with TFLOP/s and % of the card's dense
#      f16/bf16 tensor peak, side by side in one run: f32 (SIMT), f16 on
#      the SIMT kernel (--no-tensor-cores), f16 and bf16 on tensor cores
#      from converted f32 programs (operands rounded as tiles are loaded)
#      and on f16/bf16 operands (cp.async);
#   4. bench/gpu/models.py run, when DIR/models holds what its prepare step
#      wrote (the digits models, f32/f16/bf16).
#
#   bench/gpu/device-check.sh [--chip sm_90] [--build DIR] [--repeat N]
#                             [--models DIR]
#
# Exits non-zero when there is no usable GPU or any check fails.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
chip=sm_90
repeat=20
models=""
while [ $# -gt 0 ]; do
  case "$1" in
    --chip) chip=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --models) models=$2; shift 2 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
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
timeout 150 "$python" "$root/test/Runner/gpu-contractions.py" \
  --amp-opt "$amp_opt" --amp-run "$amp_run" --backend cuda \
  --work "$work" || status=1
echo "== 1b. tensor-core contractions, CUDA against the CPU backend"
timeout 120 "$python" "$root/test/Runner/gpu-contractions.py" \
  --amp-opt "$amp_opt" --amp-run "$amp_run" --backend cuda \
  --work "$work" --tensor-cores || status=1

echo "== 2. test/Runner/cuda-gpu.mlir"
timeout 60 /usr/lib/llvm-22/bin/lit -v "$build/test/Runner/cuda-gpu.mlir" ||
  status=1

echo "== 3. bench/gpu/run.sh"
timeout 90 "$here/run.sh" --chip "$chip" --repeat "$repeat" \
  --build "$build" || status=1

# Dense f16/bf16 tensor peak in TFLOP/s (A100: 312, H100/H200: 989).
peak=989
case "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null)" in
  *A100*) peak=312 ;;
esac
echo "== 3b. contractions (min of $repeat calls; % of the ${peak} TFLOP/s dense tensor peak)"
echo "| product | f32 SIMT | f16 SIMT | f16 TC (converted) | bf16 TC (converted) | f16 TC (f16 operands) | bf16 TC (bf16 operands) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
# name batch m n k (contractions as batch matmuls; convolutions below)
contraction() {
  local b=$1 m=$2 n=$3 k=$4 el=$5
  cat <<MLIR
func.func @main(%a: tensor<${b}x${m}x${k}x${el}>, %w: tensor<${b}x${k}x${n}x${el}>) -> tensor<${b}x${m}x${n}xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<${b}x${m}x${n}xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<${b}x${m}x${n}xf32>) -> tensor<${b}x${m}x${n}xf32>
  %r = linalg.batch_matmul ins(%a, %w : tensor<${b}x${m}x${k}x${el}>, tensor<${b}x${k}x${n}x${el}>) outs(%f : tensor<${b}x${m}x${n}xf32>) -> tensor<${b}x${m}x${n}xf32>
  return %r : tensor<${b}x${m}x${n}xf32>
}
MLIR
}
# OCR-sized convolutions (PaddleOCR's recogniser at batch 32 and its
# detector's first stages): name n h w c f (3x3, stride 1, no padding).
convolution() {
  local n=$1 h=$2 w=$3 c=$4 f=$5 el=$6
  local oh=$((h - 2)) ow=$((w - 2))
  cat <<MLIR
func.func @main(%x: tensor<${n}x${h}x${w}x${c}x${el}>, %w: tensor<3x3x${c}x${f}x${el}>) -> tensor<${n}x${oh}x${ow}x${f}xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<${n}x${oh}x${ow}x${f}xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<${n}x${oh}x${ow}x${f}xf32>) -> tensor<${n}x${oh}x${ow}x${f}xf32>
  %r = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<${n}x${h}x${w}x${c}x${el}>, tensor<3x3x${c}x${f}x${el}>) outs(%i : tensor<${n}x${oh}x${ow}x${f}xf32>) -> tensor<${n}x${oh}x${ow}x${f}xf32>
  return %r : tensor<${n}x${oh}x${ow}x${f}xf32>
}
MLIR
}
time_of() {  # file [amp-run options...] -> min ms
  timeout 60 "$amp_run" "$1" --entry=main --backend=cuda --chip="$chip" \
    --seed=1 --repeat="$repeat" "${@:2}" 2>&1 |
    sed -n 's/^time: min \([0-9.]*\) ms.*/\1/p'
}
for shape in "matmul-1024 mm 1 1024 1024 1024" "matmul-2048 mm 1 2048 2048 2048" \
             "matmul-4096 mm 1 4096 4096 4096" "matmul-8192 mm 1 8192 8192 8192" \
             "batch-matmul mm 32 256 256 128" "attention-qk mm 96 450 450 64" \
             "ocr-rec-conv conv 32 50 322 64 64" "ocr-det-conv conv 1 642 642 32 32"; do
  read -r name kind a1 a2 a3 a4 a5 <<< "$shape"
  if [ "$kind" = mm ]; then
    flops=$((2 * a1 * a2 * a3 * a4)); gen="contraction $a1 $a2 $a3 $a4"
  else
    flops=$((2 * a1 * (a2 - 2) * (a3 - 2) * a5 * 9 * a4)); gen="convolution $a1 $a2 $a3 $a4 $a5"
  fi
  $gen f32 > "$work/$name.mlir"
  for el in f16 bf16; do $gen $el > "$work/$name-$el-operands.mlir"; done
  for p in f16 bf16; do
    "$amp_opt" "$work/$name.mlir" --mixed-precision=precision=$p \
      -o "$work/$name-$p.mlir"
  done
  row="| $name |"
  for run in "$name.mlir" "$name-f16.mlir --no-tensor-cores" "$name-f16.mlir" \
             "$name-bf16.mlir" "$name-f16-operands.mlir" "$name-bf16-operands.mlir"; do
    read -r file opts <<< "$run"
    # The whole script stays within 8 minutes (a run may take 60 s): what
    # is left past 400 s is reported as skipped.
    if [ "$SECONDS" -gt 400 ]; then row+=" skipped (time) |"; continue; fi
    ms=$(time_of "$work/$file" $opts)
    if [ -z "$ms" ]; then status=1; row+=" failed |"; continue; fi
    row+=$(awk -v f=$flops -v t=$ms -v p=$peak 'BEGIN {
      tf = f / (t * 1e-3) / 1e12
      printf " %.3f ms, %.1f TFLOP/s (%.0f%%) |", t, tf, 100 * tf / p }')
  done
  echo "$row"
done

if [ -n "$models" ] && [ "$SECONDS" -lt 360 ]; then
  echo "== 4. bench/gpu/models.py run $models"
  timeout $((470 - SECONDS)) "$python" "$here/models.py" run "$models" --chip "$chip" ||
    status=1
fi
exit $status

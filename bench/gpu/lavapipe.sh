#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The GPU kernel strategies (amp-lower-to-vulkan{kernel-strategies}) on
# Vulkan, side by side with one thread per output element
# (amp-run --no-kernel-strategies), in one run: contractions tiled in
# workgroup memory against each thread running its whole k loop, row
# reductions across a workgroup against one thread per row. Runs wherever
# amp-run's Vulkan backend has a device; on a machine without a GPU that is
# Mesa's lavapipe, a Vulkan driver on the CPU, so the times say what the
# structure does for a real Vulkan compiler, not what a GPU reaches.
# Every result is compared with the CPU backend's result of the same
# program, computed without excess precision (amp-run
# --no-excess-precision: every bf16 op rounded, as on Vulkan), so that
# the backends differ only in summation order and exp/tanh. Exits 1 when a result is out
# of tolerance.
#
#   bench/gpu/lavapipe.sh [--repeat N] [--build DIR]
#
# Prints a line per run and a markdown table for docs/Performance.md.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
repeat=3
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "bench/gpu/lavapipe.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
amp_run="$build/bin/amp-run"
amp_opt="$build/bin/amp-opt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

# name | flops (0 for a reduction) | program
programs() {
cat > "$work/matmul.mlir" <<'MLIR'
func.func @main(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
MLIR
cat > "$work/batch_matmul.mlir" <<'MLIR'
func.func @main(%a: tensor<16x128x64xf32>, %b: tensor<16x64x128xf32>) -> tensor<16x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x128x128xf32>) -> tensor<16x128x128xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<16x128x64xf32>, tensor<16x64x128xf32>) outs(%f : tensor<16x128x128xf32>) -> tensor<16x128x128xf32>
  return %r : tensor<16x128x128xf32>
}
MLIR
# A 3x3 convolution of PaddleOCR's classifier's shape (48x192 image, 32
# channels in and out), with bias and relu as its epilogue.
cat > "$work/conv3x3.mlir" <<'MLIR'
func.func @main(%x: tensor<1x32x48x192xf32>, %w: tensor<32x3x3x32xf32>, %b: tensor<32xf32>) -> tensor<1x32x48x192xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %t = "tosa.const"() <{values = dense<[0, 2, 3, 1]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %nhwc = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x32x48x192xf32>) -> tensor<1x48x192x32xf32>
  %c = tosa.conv2d %nhwc, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x48x192x32xf32>, tensor<32x3x3x32xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x48x192x32xf32>
  %r = tosa.clamp %c {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<1x48x192x32xf32>) -> tensor<1x48x192x32xf32>
  %o = tosa.transpose %r {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x48x192x32xf32>) -> tensor<1x32x48x192xf32>
  return %o : tensor<1x32x48x192xf32>
}
MLIR
cat > "$work/softmax.mlir" <<'MLIR'
func.func @main(%x: tensor<512x2048xf32>) -> tensor<512x2048xf32> {
  %e = tensor.empty() : tensor<512x2048xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<512x2048xf32>) outs(%e : tensor<512x2048xf32>) -> tensor<512x2048xf32>
  return %r : tensor<512x2048xf32>
}
MLIR
}
programs

flops() {
  case $1 in
    matmul) echo $((2 * 512 * 512 * 512)) ;;
    batch_matmul) echo $((2 * 16 * 128 * 128 * 64)) ;;
    conv3x3) echo $((2 * 48 * 192 * 32 * 9 * 32)) ;;
    *) echo 0 ;;
  esac
}

table="| program | precision | one thread per output (ms) | kernel strategies (ms) | speed-up | GFLOP/s | max abs diff to CPU |
|---|---|---:|---:|---:|---:|---:|"
for name in matmul batch_matmul conv3x3 softmax; do
  f32="$work/$name.mlir"
  "$amp_run" "$f32" --entry=main --seed=1 --save-inputs="$work/$name-in" \
    --output="$work/$name-ref.npy" > /dev/null
  inputs=$(ls "$work/$name-in"/arg*.npy | sort -V | paste -sd, -)
  for precision in f32 f16 bf16; do
    file="$f32"
    if [ $precision != f32 ]; then
      file="$work/$name-$precision.mlir"
      "$amp_opt" "$f32" -p "builtin.module(mixed-precision{precision=$precision})" -o "$file"
      "$amp_run" "$file" --entry=main --input="$inputs" --no-excess-precision \
        --output="$work/$name-$precision-ref.npy" > /dev/null
    fi
    ref="$work/$name-ref.npy"; [ $precision != f32 ] && ref="$work/$name-$precision-ref.npy"
    declare -A ms=()
    err=""
    for mode in off on; do
      flag=""; [ $mode = off ] && flag="--no-kernel-strategies"
      n=$repeat; [ $mode = off ] && n=1
      case $precision in
        f32) tol="--rtol=1e-4 --atol=1e-3" ;;
        f16) tol="--rtol=1e-3 --atol=1e-3" ;;
        bf16) tol="--rtol=8e-3 --atol=1e-2" ;;
      esac
      out=$("$amp_run" "$file" --entry=main --backend=vulkan --input="$inputs" \
              --repeat=$n --compare="$ref" $tol $flag 2>&1) || status=1
      ms[$mode]=$(sed -n 's/^time: min \([0-9.]*\) ms.*/\1/p' <<< "$out")
      [ $mode = on ] && err=$(sed -n 's/.*max_abs_err=\([^ ]*\).*/\1/p' <<< "$out")
      printf '%-13s %-5s %-4s %s\n' "$name" "$precision" "$mode" \
        "$(grep -E '^(time|compare)' <<< "$out" | tr '\n' ' ')"
    done
    table+=$'\n'$(awk -v n="$name" -v p="$precision" -v a="${ms[off]}" -v b="${ms[on]}" \
      -v f="$(flops $name)" -v e="$err" \
      'BEGIN { g = (f > 0 ? sprintf("%.1f", f / (b * 1e-3) / 1e9) : "-");
               printf "| %s | %s | %.1f | %.1f | %.1fx | %s | %s |", n, p, a, b, a / b, g, e }')
  done
done
# The digits models of the accuracy suite (batch 450, the held-out images),
# when their ONNX files and amp's importer are there.
models="$root/bench/models/digits"
python=/usr/bin/python3
if [ -f "$models/cnn.onnx" ] && PYTHONPATH="$root/python" "$python" -c 'import amp.onnx' 2>/dev/null; then
  table+=$'\n'
  table+=$'\n'"| model (batch 450) | precision | one thread per output (ms) | kernel strategies (ms) | speed-up | kernels launched | max abs diff to CPU |"
  table+=$'\n'"|---|---|---:|---:|---:|---:|---:|"
  for name in mlp cnn lstm transformer; do
    [ -f "$models/$name.onnx" ] || continue
    PYTHONPATH="$root/python" "$python" -m amp.onnx "$models/$name.onnx" -o "$work/$name.mlir" > /dev/null
    PYTHONPATH="$models" "$python" -c "
import sys, numpy as np, data
_, x, _, _ = data.load_split()
np.save(sys.argv[1], data.as_input(sys.argv[2], x))" "$work/$name-x.npy" "$name"
    for precision in f32 f16 bf16; do
      file="$work/$name.mlir"
      if [ $precision != f32 ]; then
        file="$work/$name-$precision.mlir"
        "$amp_opt" "$work/$name.mlir" -p "builtin.module(mixed-precision{precision=$precision})" -o "$file"
      fi
      # The CPU rounds every bf16 op as Vulkan does (no excess precision).
      "$amp_run" "$file" --entry=main --input="$work/$name-x.npy" --no-excess-precision \
        --output="$work/$name-$precision-ref.npy" > /dev/null
      kernels=$("$amp_opt" "$file" -p 'builtin.module(amp-lower-to-spirv)' | grep -c 'gpu.launch_func' || true)
      declare -A ms=()
      err=""
      for mode in off on; do
        flag=""; [ $mode = off ] && flag="--no-kernel-strategies"
        n=$repeat; [ $mode = off ] && n=1
        out=$("$amp_run" "$file" --entry=main --backend=vulkan --input="$work/$name-x.npy" \
                --repeat=$n --compare="$work/$name-$precision-ref.npy" --rtol=0 --atol=1e-1 $flag 2>&1) || status=1
        ms[$mode]=$(sed -n 's/^time: min \([0-9.]*\) ms.*/\1/p' <<< "$out")
        [ $mode = on ] && err=$(sed -n 's/.*max_abs_err=\([^ ]*\).*/\1/p' <<< "$out")
        printf '%-13s %-5s %-4s %s\n' "$name" "$precision" "$mode" \
          "$(grep -E '^(time|compare)' <<< "$out" | tr '\n' ' ')"
      done
      table+=$'\n'$(awk -v n="$name" -v p="$precision" -v a="${ms[off]}" -v b="${ms[on]}" \
        -v k="$kernels" -v e="$err" \
        'BEGIN { printf "| %s | %s | %.1f | %.1f | %.1fx | %s | %s |", n, p, a, b, a / b, k, e }')
    done
  done
fi

echo
echo "Vulkan device: $("$build/bin/amp-vulkan-probe" 2>&1 | head -1); host CPU: $(/usr/lib/llvm-22/bin/llc --version | sed -n 's/.*Host CPU: *//p'), $(nproc) cores; min of $repeat calls with the strategies, 1 call without"
echo "$table"
exit $status

#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# f32 vs f16 vs bf16 on an NVIDIA GPU with amp-run --backend=cuda: the
# programs of bench/runtime/programs.py (relu(a*b + a) on 16M elements,
# elementwise chain and softmax on 4M elements, 512^3 matmul), each converted by mixed-precision, run on the
# same seeded inputs, checked against the f32 result of the CPU backend, and
# timed. Builds nothing: run it from a configured and built checkout.
#
#   bench/gpu/run.sh [--chip sm_90] [--repeat 20] [--format isa|bin]
#                    [--build DIR]
#
# --chip     the GPU's architecture: sm_80 (A100), sm_90 (H100/H200), ...
#            (default sm_90).
# --format   how kernels are embedded: isa (PTX, compiled by the driver;
#            needs no CUDA Toolkit, the default) or bin (cubin from ptxas).
# Prints one line per run and a markdown table to paste into
# docs/Performance.md. Exits non-zero when there is no usable GPU, or when
# a result is out of tolerance (the run's line says which).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
chip=sm_90
repeat=20
format=isa
while [ $# -gt 0 ]; do
  case "$1" in
    --chip) chip=$2; shift 2 ;;
    --chip=*) chip=${1#*=}; shift ;;
    --repeat) repeat=$2; shift 2 ;;
    --repeat=*) repeat=${1#*=}; shift ;;
    --format) format=$2; shift 2 ;;
    --format=*) format=${1#*=}; shift ;;
    --build) build=$2; shift 2 ;;
    --build=*) build=${1#*=}; shift ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "bench/gpu/run.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

amp_run="$build/bin/amp-run"
amp_opt="$build/bin/amp-opt"
for tool in "$amp_run" "$amp_opt" "$build/lib/libamp_cuda_runtime.so"; do
  if [ ! -e "$tool" ]; then
    echo "bench/gpu/run.sh: $tool not found; build amp first (scripts/setup.sh)" >&2
    exit 1
  fi
done
python=$(command -v python3 || true)
[ -n "$python" ] || { echo "bench/gpu/run.sh: python3 not found" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Is there a GPU? A four-element add answers, with amp-run's own message
# ("no CUDA driver (libcuda.so.1 not found)", "no CUDA device", ...).
cat > "$work/probe.mlir" <<'MLIR'
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
MLIR
if ! "$amp_run" "$work/probe.mlir" --entry=add --backend=cuda --chip="$chip" \
    --gpu-format="$format" > "$work/probe.txt" 2>&1; then
  cat "$work/probe.txt" >&2
  echo "bench/gpu/run.sh: no usable NVIDIA GPU here; nothing was measured" >&2
  exit 1
fi

# The programs, written by bench/runtime/programs.py.
"$python" - "$here/../runtime" "$work" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import programs
for name, entry, kind, text in programs.default_programs():
    open("%s/%s.mlir" % (sys.argv[2], entry), "w").write(text)
PY
# Tolerances per program, "rtol atol" for f32, f16 and bf16 against the f32
# CPU result. f32 on the GPU agrees with the CPU up to summation order and
# the device's exp/tanh. The low-precision bounds are those derived in
# test/Runner: relu(a*b + a) 6u absolute (3u for the rounded product, u
# for a, 2u for the sum's rounding), checked at 8u; the chain 12u absolute; the softmax stays f32 (mixed-precision
# keeps it); the matmul 24u sqrt(K/128) with K = 512 (u = 2^-11 for f16,
# 2^-8 for bf16).
declare -A tolerance=(
  [axpy_relu]="0 1e-6  0 3.9e-3  0 3.1e-2"
  [chain]="0 1e-5  0 5.9e-3  0 4.7e-2"
  [softmax]="1e-4 1e-7  1e-4 1e-7  1e-4 1e-7"
  [matmul]="1e-4 1e-3  0 2.4e-2  0 1.9e-1"
)

status=0
table="| program | f32 (ms) | f16 (ms) | bf16 (ms) | f16 speed-up | bf16 speed-up | f16 max abs err | bf16 max abs err |
|---|---:|---:|---:|---:|---:|---:|---:|"
for entry in axpy_relu chain softmax matmul; do
  f32="$work/$entry.mlir"
  for low in f16 bf16; do
    "$amp_opt" "$f32" -p "builtin.module(mixed-precision{precision=$low})" -o "$work/$entry-$low.mlir"
  done
  # The reference: f32 on the CPU.
  "$amp_run" "$f32" --entry=$entry --seed=1 --save-inputs="$work/$entry-in" \
    --output="$work/$entry-ref.npy"
  inputs=$(ls "$work/$entry-in"/arg*.npy | sort -V | paste -sd, -)
  read -r rtol32 atol32 rtol16 atol16 rtolbf16 atolbf16 <<< "${tolerance[$entry]}"
  declare -A min=() err=()
  for precision in f32 f16 bf16; do
    file="$work/$entry-$precision.mlir"; [ $precision = f32 ] && file="$f32"
    case $precision in
      f32) rtol=$rtol32; atol=$atol32 ;;
      f16) rtol=$rtol16; atol=$atol16 ;;
      bf16) rtol=$rtolbf16; atol=$atolbf16 ;;
    esac
    if ! "$amp_run" "$file" --entry=$entry --backend=cuda --chip="$chip" \
        --gpu-format="$format" --input="$inputs" --repeat="$repeat" \
        --compare="$work/$entry-ref.npy" --rtol="$rtol" --atol="$atol" \
        > "$work/out.txt" 2>&1; then
      status=1
    fi
    line=$(grep -E "^time:" "$work/out.txt" || echo "time: failed")
    check=$(grep -E "^compare" "$work/out.txt" | sed 's/.*max_abs_err=\([^ ]*\).* \([A-Z]*\)$/max_abs_err=\1 \2/' || true)
    printf '%-8s %-5s %s %s\n' "$entry" "$precision" "$line" "$check"
    grep -E "^amp-run:" "$work/out.txt" >&2 || true
    min[$precision]=$(sed -n 's/^time: min \([0-9.]*\) ms.*/\1/p' "$work/out.txt")
    err[$precision]=$(sed -n 's/.*max_abs_err=\([^ ]*\) .*/\1/p' "$work/out.txt")
  done
  table+=$'\n'$(awk -v n="$entry" -v a="${min[f32]:-nan}" -v b="${min[f16]:-nan}" \
    -v c="${min[bf16]:-nan}" -v e="${err[f16]:-nan}" -v f="${err[bf16]:-nan}" \
    'BEGIN { printf "| %s | %.3f | %.3f | %.3f | %.2fx | %.2fx | %s | %s |", n, a, b, c, (b > 0 ? a / b : 0), (c > 0 ? a / c : 0), e, f }')
done

echo
echo "GPU: $(grep -o 'chip.*' "$work/probe.txt" || true)chip $chip, kernels as $format; min of $repeat calls (ms)"
echo "$table"
exit $status

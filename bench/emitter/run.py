#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""amp's CPU contraction kernels (amp-vectorize-contractions) against
MLIR 22's own path for the same matmul: a transform-dialect schedule
(upstream-schedule.mlir: tile 8x32, k steps of 1, vectorize to
vector.contract, hoist the accumulator into registers, lower the contraction
to outer products of FMAs), the rest lowered by the same amp-run pipeline.
Both run through `amp-run --repeat --threads=1` on the same inputs, side by
side, and must give the same results.

    bench/emitter/run.py [--size 512] [--repeat 30] [--markdown FILE]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from machine import describe  # noqa: E402

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"


def module(n, elt):
    t_in = "tensor<%dx%dx%s>" % (n, n, elt)
    t_out = "tensor<%dx%dxf32>" % (n, n)
    return ("func.func @mm(%%a: %s, %%b: %s, %%c0: %s) -> %s {\n"
            "  %%c = linalg.matmul ins(%%a, %%b : %s, %s) outs(%%c0 : %s) -> %s\n"
            "  return %%c : %s\n}\n" % (t_in, t_in, t_out, t_out, t_in, t_in, t_out, t_out,
                                       t_out))


def run(amp_run, path, repeat):
    out = subprocess.run([amp_run, path, "--entry=mm", "--repeat=%d" % repeat, "--threads=1"],
                         capture_output=True, text=True, check=True).stdout
    ms = float(re.search(r"time: min ([0-9.]+) ms", out).group(1))
    total = re.search(r"abs_sum=([0-9.e+-]+)", out).group(1)
    return ms, float(total)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--amp-run", default=os.path.join(ROOT, "build", "bin", "amp-run"))
    p.add_argument("--size", type=int, default=512)
    p.add_argument("--repeat", type=int, default=30)
    args = p.parse_args()
    n = args.size
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for elt in ("f32", "bf16"):
            src = os.path.join(tmp, "mm_%s.mlir" % elt)
            with open(src, "w") as f:
                f.write(module(n, elt))
            up = os.path.join(tmp, "mm_%s_upstream.mlir" % elt)
            subprocess.run([MLIR_OPT, src, "--transform-preload-library=transform-library-paths="
                            + os.path.join(HERE, "upstream-schedule.mlir"),
                            "--transform-interpreter", "-o", up], check=True)
            amp_ms, amp_sum = run(args.amp_run, src, args.repeat)
            up_ms, up_sum = run(args.amp_run, up, args.repeat)
            gflops = 2 * n ** 3 / 1e6
            same = abs(amp_sum - up_sum) <= 1e-4 * abs(up_sum)
            rows.append((elt, amp_ms, gflops / amp_ms, up_ms, gflops / up_ms, up_ms / amp_ms, same))
    print("%s; %dx%dx%d matmul (%s inputs, f32 sums), one thread, min of %d calls\n" % (
        describe(), n, n, n, "/".join(r[0] for r in rows), args.repeat))
    print("| inputs | amp (ms) | amp GFLOP/s | MLIR schedule (ms) | MLIR GFLOP/s "
          "| MLIR / amp | same results |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for elt, a, ag, u, ug, ratio, same in rows:
        print("| %s | %.2f | %.0f | %.2f | %.0f | %.2fx | %s |" % (
            elt, a, ag, u, ug, ratio, "yes" if same else "no"))


if __name__ == "__main__":
    main()

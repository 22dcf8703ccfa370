#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""How fast this CPU multiplies and adds in f32, bf16 and f16.

amp's CPU target model (lib/Backend/CPU/CPUTarget.cpp) lets bf16
contractions compute low only on chips whose AVX512-BF16 dot product
(`vdpbf16ps`, two bf16 products per f32 lane) adds products faster than f32
fused multiply-adds. This measures it: rates.c runs 24 independent copies
of each instruction on registers, and this script reports nanoseconds per
instruction and products per nanosecond, each against the f32 FMA's, with
the conversions the kernels pay around them.

    /usr/bin/python3 bench/cpu-rates/run.py [--markdown docs/Performance.md]

Needs a C compiler (cc) whose assembler knows AVX512-BF16 and AVX512-FP16
(binutils 2.38 or later) and an x86 CPU with AVX-512; instructions the CPU
lacks are skipped. With --markdown the table replaces the block between the
`cpu-rates-benchmark` markers of that file (appended when absent).
"""

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "runtime"))
from run import machine, write_block  # noqa: E402
sys.path.insert(0, os.path.dirname(HERE))
from machine import cpu_flags  # noqa: E402

BEGIN = "<!-- cpu-rates-benchmark:begin -->"
END = "<!-- cpu-rates-benchmark:end -->"

# name in rates.c, what it is, products per instruction (0: a conversion of
# 16 values), the /proc/cpuinfo flag it needs.
ROWS = [
    ("fma_f32", "f32 FMA (`vfmadd231ps`, 16 lanes)", 16, "avx512f"),
    ("dot_bf16", "bf16 dot product (`vdpbf16ps`, 16 lanes x 2)", 32, "avx512_bf16"),
    ("fma_f16", "f16 FMA (`vfmadd231ph`, 32 lanes)", 32, "avx512_fp16"),
    ("widen_bf16", "16 bf16 to f32 (`vpmovzxwd` + `vpslld`)", 0, "avx512f"),
    ("round_bf16", "16 f32 to bf16 (`vcvtneps2bf16`)", 0, "avx512_bf16"),
    ("widen_f16", "16 f16 to f32 (`vcvtph2ps`)", 0, "avx512f"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", help="write the table into this file")
    args = parser.parse_args()

    flags = cpu_flags()
    if "avx512f" not in flags:
        print("bench/cpu-rates: this CPU has no AVX-512; nothing to measure",
              file=sys.stderr)
        return 0
    rows = [r for r in ROWS if r[3] in flags]
    for r in ROWS:
        if r[3] not in flags:
            print("bench/cpu-rates: skipped %s (no %s)" % (r[0], r[3]), file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="amp-rates-") as tmp:
        exe = os.path.join(tmp, "rates")
        subprocess.run(["cc", "-O2", os.path.join(HERE, "rates.c"), "-o", exe],
                       check=True)
        out = subprocess.run([exe] + [r[0] for r in rows], check=True,
                             capture_output=True, text=True).stdout
    ns = {}
    for line in out.splitlines():
        name, value = line.split()
        ns[name] = float(value)

    fma = ns["fma_f32"]
    table = ("Measured on: %s. Each instruction 24 times per loop iteration on "
             "independent registers, 10M iterations, best of 5.\n\n"
             "| instruction | ns each | products each | products per ns "
             "| against f32 FMA |\n|---|---:|---:|---:|---:|\n" % machine())
    for name, what, products, _ in rows:
        t = ns[name]
        if products:
            rate = products / t
            table += "| %s | %.3f | %d | %.1f | %.2fx |\n" % (
                what, t, products, rate, rate / (16 / fma))
        else:
            table += "| %s | %.3f | – | – | %.2f FMAs' time |\n" % (what, t, t / fma)
    print(table, end="")
    if args.markdown:
        write_block(args.markdown, BEGIN, END, table)
    return 0


if __name__ == "__main__":
    sys.exit(main())

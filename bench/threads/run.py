#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""amp's CPU code on 1 thread against N threads, side by side.

For each program of bench/runtime/programs.py (bandwidth-bound elementwise
kernels and a softmax on 16M and 4M elements, a 512^3 matmul), in f32 and converted to f16 and
bf16 (`mixed-precision{precision=P}`), this runs `amp-run --repeat R` with
`--threads=1` and `--threads=N` on the same seeded inputs, checks that the
results are bit-identical (amp never splits a reduction across threads) and
reports the min time of a call and the speedup. The two thread counts run
in turn `--rounds` times (default 3), each keeping its fastest round.

    /usr/bin/python3 bench/threads/run.py [--threads 2] [--repeat 5]
        [--rounds 3] [--markdown docs/Performance.md]

With --markdown, the table replaces the block between the
`threads-benchmark` markers of that file (appended when absent). Needs a
build (build/bin/amp-run, amp-opt) and libomp (scripts/setup.sh installs
it); Python's standard library only.
"""

import argparse
import filecmp
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "runtime"))
import programs  # noqa: E402
from run import TIME, machine, run, write_block  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
BEGIN = "<!-- threads-benchmark:begin -->"
END = "<!-- threads-benchmark:end -->"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bin-dir", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--markdown")
    args = parser.parse_args()
    if args.rounds < 1 or args.repeat < 1 or args.threads < 2:
        parser.error("--rounds and --repeat must be at least 1, --threads at least 2")
    amp_run = os.path.join(args.bin_dir, "amp-run")
    amp_opt = os.path.join(args.bin_dir, "amp-opt")

    rows = []
    with tempfile.TemporaryDirectory() as work:
        for name, entry, _, text in programs.default_programs():
            source = os.path.join(work, entry + ".mlir")
            with open(source, "w") as f:
                f.write(text)
            inputs = os.path.join(work, entry + "-inputs")
            run([amp_run, source, "--entry=" + entry, "--seed=1",
                 "--save-inputs=" + inputs, "--output=" + os.devnull])
            files = sorted(os.listdir(inputs), key=lambda f: int(f[3:-4]))
            arguments = ",".join(os.path.join(inputs, f) for f in files)
            for precision in ("f32", "f16", "bf16"):
                path = source
                if precision != "f32":
                    path = os.path.join(work, "%s-%s.mlir" % (entry, precision))
                    run([amp_opt, source, "-p", "builtin.module(mixed-precision"
                         "{precision=%s})" % precision, "-o", path])
                # The two thread counts in turn, --rounds times, each
                # keeping its fastest round: a slow spell of this shared
                # VM can last a whole process of a few calls.
                times, outputs = [float("inf")] * 2, []
                for _ in range(args.rounds):
                    outputs = []
                    for i, threads in enumerate((1, args.threads)):
                        output = os.path.join(work, "%s-%s-%d.npy" % (entry, precision, threads))
                        text_out = run([amp_run, path, "--entry=" + entry,
                                        "--input=" + arguments, "--cast-inputs",
                                        "--threads=%d" % threads,
                                        "--repeat=%d" % args.repeat,
                                        "--output=" + output])
                        times[i] = min(times[i], float(TIME.search(text_out).group(1)))
                        outputs.append(output)
                identical = filecmp.cmp(outputs[0], outputs[1], shallow=False)
                if not identical:
                    sys.exit("%s %s: %d threads changed the result" %
                             (name, precision, args.threads))
                speedup = times[0] / times[1]
                print("%-18s %-5s 1 thread %9.3f ms  %d threads %9.3f ms  %.2fx"
                      % (name, precision, times[0], args.threads, times[1], speedup),
                      flush=True)
                rows.append((name, precision, times[0], times[1], speedup))

    if args.markdown:
        table = ("Measured on: %s. Min of `amp-run --repeat %d` per call, the "
                 "best of %d rounds that run 1 and %d threads in turn; the results "
                 "of 1 and %d threads are bit-identical (checked).\n\n"
                 % (machine(), args.repeat, args.rounds, args.threads, args.threads))
        table += ("| program | precision | 1 thread (ms) | %d threads (ms) | speedup |\n"
                  "|---|---|---:|---:|---:|\n" % args.threads)
        for name, precision, one, many, speedup in rows:
            table += "| %s | %s | %.2f | %.2f | %.2fx |\n" % (
                name, precision, one, many, speedup)
        write_block(args.markdown, BEGIN, END, table)


if __name__ == "__main__":
    main()

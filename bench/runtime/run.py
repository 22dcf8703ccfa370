#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""f32 vs f16 vs bf16 run time of the same programs, side by side.

For each program of programs.py (bandwidth-bound: an elementwise chain and a
softmax on 4M elements; compute-bound: a 512^3 matmul) this converts the f32
function with `amp-opt -p 'builtin.module(mixed-precision{precision=P})'`
for P in f16 and bf16, once keeping the f32 signature (the default) and
once with `keep-io-types=false` (f16/bf16 arguments and results), runs all
five with `amp-run --repeat N` on each
backend (cpu, and vulkan when a Vulkan device is present) on the same seeded
inputs, and reports the min and median time of a call (the whole function,
allocating its result and temporaries included) and the largest error of
the converted results against the f32 CPU ones.

    /usr/bin/python3 bench/runtime/run.py [--backends cpu,vulkan]
        [--repeat 5] [--markdown docs/Performance.md]

With --markdown, the table replaces the block between the
`runtime-benchmark` markers of that file (appended when absent). Needs a
build (build/bin/amp-run, amp-opt); Python's standard library only.
"""

import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import programs  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BEGIN = "<!-- runtime-benchmark:begin -->"
END = "<!-- runtime-benchmark:end -->"
TIME = re.compile(r"time: min ([0-9.]+) ms, median ([0-9.]+) ms")
ERROR = re.compile(r"max_abs_err=([0-9.e+-]+) max_rel_err=([0-9.e+-]+)")


def run(command):
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (" ".join(command), result.stdout))
    return result.stdout


def vulkan_available(bin_dir):
    probe = os.path.join(bin_dir, "amp-vulkan-probe")
    return os.path.exists(probe) and subprocess.run(
        [probe], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL).returncode == 0


def write_block(path, begin, end, table):
    """Puts `table` between the `begin` and `end` markers of the Markdown
    file `path` (appended with them when absent). Shared by the benchmarks
    that write docs/Performance.md."""
    text = open(path).read() if os.path.exists(path) else ""
    block = begin + "\n" + table + end
    if begin in text and end in text:
        text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(path, "w") as f:
        f.write(text)


def machine():
    model, cores = platform.processor() or "unknown CPU", os.cpu_count()
    try:
        for line in run(["lscpu"]).splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "Model name":
                model = value.strip()
            elif key.strip() == "CPU(s)":
                cores = value.strip()
    except (OSError, RuntimeError):
        pass
    chip = host_chip()
    if chip:
        model += " (%s)" % chip
    return "%s, %s cores, Linux %s" % (model, cores, platform.release())


def host_chip():
    """LLVM's name for the host CPU (what `target=cpu` decides by), or None."""
    try:
        for line in run(["/usr/lib/llvm-22/bin/llc", "--version"]).splitlines():
            if line.strip().startswith("Host CPU:"):
                return line.split(":", 1)[1].strip()
    except (OSError, RuntimeError):
        pass
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--backends", default=None,
                        help="comma-separated (default: cpu, plus vulkan "
                        "when a device is present)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--markdown", help="write the table into this file")
    args = parser.parse_args()

    bin_dir = os.path.join(args.build, "bin")
    amp_run = os.path.join(bin_dir, "amp-run")
    amp_opt = os.path.join(bin_dir, "amp-opt")
    backends = (args.backends.split(",") if args.backends else
                ["cpu"] + (["vulkan"] if vulkan_available(bin_dir) else []))

    rows = []
    with tempfile.TemporaryDirectory() as work:
        for name, entry, kind, text in programs.default_programs():
            source = os.path.join(work, entry + ".mlir")
            with open(source, "w") as f:
                f.write(text)
            inputs = os.path.join(work, entry + "-inputs")
            reference = os.path.join(work, entry + "-f32.npy")
            # The f32 CPU result is the reference of every run.
            run([amp_run, source, "--entry=" + entry, "--seed=1",
                 "--save-inputs=" + inputs, "--output=" + reference])
            f32_inputs = [os.path.join(inputs, f) for f in sorted(
                os.listdir(inputs), key=lambda f: int(f[3:-4]))]
            # (precision, signature, program): f32; f16/bf16 inside an f32
            # signature (mixed-precision's default); f16/bf16 in the
            # signature too (keep-io-types=false), which amp-run's
            # --cast-inputs gives the same inputs rounded.
            variants = [("f32", "f32", source)]
            for io in ("f32", "low"):
                for low in ("f16", "bf16"):
                    path = os.path.join(work, "%s-%s-%s.mlir" % (entry, low, io))
                    options = "precision=%s" % low
                    if io == "low":
                        options += " keep-io-types=false"
                    run([amp_opt, source, "-p",
                         "builtin.module(mixed-precision{%s})" % options,
                         "-o", path])
                    variants.append((low, low if io == "low" else "f32", path))
            for backend in backends:
                base = None
                for precision, signature, path in variants:
                    try:
                        output = run([amp_run, path, "--entry=" + entry,
                                      "--backend=" + backend,
                                      "--input=" + ",".join(f32_inputs),
                                      "--cast-inputs",
                                      # Precisions compared on one thread
                                      # (bench/threads compares threads).
                                      "--threads=1",
                                      "--repeat=%d" % args.repeat,
                                      "--compare=" + reference,
                                      "--rtol=0", "--atol=1e30"])
                        low, median = map(float, TIME.search(output).groups())
                        error = float(ERROR.search(output).group(1))
                        result = (low, median, error)
                        print("%-18s %-7s %-5s %-5s min %9.3f ms  median %9.3f "
                              "ms  max_abs_err %.2e" % (name, backend, precision,
                                                        signature, low, median,
                                                        error), flush=True)
                    except RuntimeError as failure:
                        # Reported in the table, with amp-run's message.
                        reason = [l for l in str(failure).splitlines()
                                  if l.startswith("amp-run:")] or ["failed"]
                        print("%-18s %-7s %-5s %-5s %s" % (
                            name, backend, precision, signature, reason[-1]),
                            flush=True)
                        result = None
                    if precision == "f32":
                        base = result
                    rows.append((name, kind, backend, precision, signature,
                                 result, base))

    header = ("| program | bound | backend | precision | signature | time (ms) "
              "| speed-up | max abs err |\n"
              "|---|---|---|---|---|---:|---:|---:|\n")
    lines = []
    for name, kind, backend, precision, signature, result, base in rows:
        time = "%.1f / %.1f" % result[:2] if result else "fails"
        speedup = "%.2fx" % (base[0] / result[0]) if base and result else "-"
        error = "%.1e" % result[2] if result else "-"
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, kind, backend, precision, signature, time, speedup, error))
    table = ("Measured on: %s. Times are min / median of `amp-run --repeat %d` "
             "calls (the whole function: allocation of its buffers included); "
             "speed-ups compare the mins with f32 on the same backend; inputs "
             "seeded, and rounded to the signature's type where it is f16 or "
             "bf16; errors are against f32 on the CPU; \"fails\": amp-run "
             "could not lower or run the program on that backend.\n\n" % (
                 machine(), args.repeat)) + header + "\n".join(lines) + "\n"
    print()
    print(table)
    if args.markdown:
        write_block(args.markdown, BEGIN, END, table)


if __name__ == "__main__":
    main()

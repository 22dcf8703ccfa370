#!/usr/bin/env python3
"""f32 vs f16 vs bf16 run time of the same programs, side by side.

For each program of programs.py (bandwidth-bound: an elementwise chain and a
softmax on 4M elements; compute-bound: a 512^3 matmul) this converts the f32
function with `amp-opt -p 'builtin.module(mixed-precision{precision=P})'`
for P in f16 and bf16, runs all three with `amp-run --repeat N` on each
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
    return "%s, %s cores, Linux %s" % (model, cores, platform.release())


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
            variants = {"f32": source}
            for low in ("f16", "bf16"):
                variants[low] = os.path.join(work, "%s-%s.mlir" % (entry, low))
                run([amp_opt, source, "-p",
                     "builtin.module(mixed-precision{precision=%s})" % low,
                     "-o", variants[low]])
            inputs = os.path.join(work, entry + "-inputs")
            reference = os.path.join(work, entry + "-f32.npy")
            # The f32 CPU result is the reference of every run.
            run([amp_run, source, "--entry=" + entry, "--seed=1",
                 "--save-inputs=" + inputs, "--output=" + reference])
            input_files = ",".join(
                os.path.join(inputs, f) for f in sorted(
                    os.listdir(inputs), key=lambda f: int(f[3:-4])))
            for backend in backends:
                row = [name, kind, backend]
                for precision, path in variants.items():
                    try:
                        output = run([amp_run, path, "--entry=" + entry,
                                      "--backend=" + backend,
                                      "--input=" + input_files,
                                      "--repeat=%d" % args.repeat,
                                      "--compare=" + reference,
                                      "--rtol=0", "--atol=1e30"])
                    except RuntimeError as failure:
                        # Reported in the table, with amp-run's message.
                        reason = [l for l in str(failure).splitlines()
                                  if l.startswith("amp-run:")] or ["failed"]
                        print("%-18s %-7s %-5s %s" % (name, backend, precision,
                                                      reason[-1]), flush=True)
                        row.append(None)
                        continue
                    low, median = map(float, TIME.search(output).groups())
                    error = float(ERROR.search(output).group(1))
                    row.append((low, median, error))
                    print("%-18s %-7s %-5s min %9.3f ms  median %9.3f ms  "
                          "max_abs_err %.2e" % (name, backend, precision, low,
                                                median, error), flush=True)
                rows.append(row)

    header = ("| program | bound | backend | f32 (ms) | f16 (ms) | bf16 (ms) "
              "| f16 speed-up | bf16 speed-up | f16 max abs err "
              "| bf16 max abs err |\n"
              "|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
    lines = []
    def speedup(base, other):
        return "%.2fx" % (base[0] / other[0]) if base and other else "-"

    def error(value):
        return "%.1e" % value[2] if value else "-"

    for name, kind, backend, f32, f16, bf16 in rows:
        cells = ["%.1f / %.1f" % (v[0], v[1]) if v else "fails"
                 for v in (f32, f16, bf16)]
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, kind, backend, *cells, speedup(f32, f16), speedup(f32, bf16),
            error(f16), error(bf16)))
    table = ("Measured on: %s. Times are min / median of `amp-run --repeat %d` "
             "calls (the whole function: allocation of its buffers included); "
             "speed-ups compare the mins; inputs seeded; errors are against "
             "f32 on the CPU; \"fails\": amp-run could not lower or run the "
             "program on that backend.\n\n" % (machine(), args.repeat)) + header + \
        "\n".join(lines) + "\n"
    print()
    print(table)
    if args.markdown:
        with open(args.markdown) as f:
            text = f.read()
        block = BEGIN + "\n" + table + END
        if BEGIN in text and END in text:
            text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
        else:
            text = text.rstrip("\n") + "\n\n" + block + "\n"
        with open(args.markdown, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()

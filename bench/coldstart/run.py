#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Time to the first result: amp-run cold, warm (compile cache) and the run
time of what it compiled, on real models, before and after the compile-time
work of issue 43, side by side in one run.

    /usr/bin/python3 bench/coldstart/run.py             # writes docs/ColdStart.md
    /usr/bin/python3 bench/coldstart/run.py --models cls --rounds 2 --no-docs

(after ./scripts/setup.sh; the PaddleOCR models need npm, see
bench/models/README.md). Models: PaddleOCR's classifier (batch 24, as the
issue measured it), detector (1x3x256x320) and recogniser (8x3x48x320),
imported by amp.onnx in f32, and the digits transformer.

Configurations, each an amp-run of the same file on the CPU, one thread
unless said:

  serial     the lowering as it was: no kernel outlining, LLVM free to
             unroll every loop (--pipeline-options="outline-kernels=false
             bound-llvm-unrolling=false"), compiled on one thread
             (--compile-threads=1), cache off
  cold       today's defaults, cache off (--no-cache): what a first run costs
  warm       today's defaults, the second run with a compile cache of its own
  cold, all cores
             as cold, with amp-run's default --threads (one per core): the
             threaded lowering (OpenMP regions merged across kernels)

Per configuration: the wall time of the whole amp-run (to the first result,
with --time-phases' split: parse, lower, LLVM) and, for serial and cold, the
run time of the compiled program (--repeat, the minimum over the rounds:
this VM's neighbours make medians swing by 30%). Warm results are checked
bit for bit against cold ones.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from machine import cpu_name, llvm_chip  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "bench", "models", "ocr"))
sys.path.insert(0, os.path.join(ROOT, "bench", "models", "digits"))
AMP_RUN = os.path.join(ROOT, "build", "bin", "amp-run")
SERIAL_CODE = ["--pipeline-options=outline-kernels=false bound-llvm-unrolling=false"]
SERIAL = SERIAL_CODE + ["--compile-threads=1", "--no-cache"]


def models(selected, folder):
    """(name, mlir path) of the models asked for, imported into `folder`."""
    import amp.onnx
    out = []
    ocr_dir = os.path.join(ROOT, "bench", "models", ".cache", "ocr-models")
    ocr = {"cls": ("ch_ppocr_mobile_v2.0_cls_infer.onnx", [24, 3, 48, 192]),
           "det": ("ch_PP-OCRv4_det_infer.onnx", [1, 3, 256, 320]),
           "rec": ("ch_PP-OCRv4_rec_infer.onnx", [8, 3, 48, 320])}
    if any(m in selected for m in ocr):
        subprocess.run([os.path.join(ROOT, "bench", "models", "ocr", "fetch.sh")], check=True)
    for name, (file, shape) in ocr.items():
        if name not in selected:
            continue
        path = os.path.join(folder, name + ".mlir")
        with open(path, "w") as f:
            f.write(amp.onnx.import_model(os.path.join(ocr_dir, file), shapes={"x": shape}))
        out.append((f"PaddleOCR {name} {'x'.join(map(str, shape))}", path))
    if "transformer" in selected:
        path = os.path.join(folder, "transformer.mlir")
        onnx_path = os.path.join(ROOT, "bench", "models", "digits", "transformer.onnx")
        with open(path, "w") as f:
            f.write(amp.onnx.import_model(onnx_path))
        out.append(("digits transformer 450x8x8", path))
    return out


def amp_run(path, extra, env=None, threads=1):
    """(wall seconds, phases dict, stdout) of one amp-run on `threads`
    threads (0: amp-run's default, one per core)."""
    args = [AMP_RUN, path, "--entry=main", f"--threads={threads}", "--seed=1",
            "--time-phases"] + extra
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"coldstart: {' '.join(args)} failed:\n{done.stderr}")
    phases = {}
    for line in done.stderr.splitlines():
        if line.startswith("amp-run: time:"):
            for name, seconds in re.findall(r"(\w+) ([0-9.]+) s", line):
                phases.setdefault(name, float(seconds))
    return wall, phases, done.stdout


def run_time(path, extra, repeat, env):
    _, _, out = amp_run(path, extra + [f"--repeat={repeat}"], env)
    m = re.search(r"time: min ([0-9.]+) ms", out)
    return float(m.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default="cls,det,rec,transformer")
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternating rounds of each configuration")
    parser.add_argument("--repeat", type=int, default=20, help="calls per run-time measurement")
    parser.add_argument("--run-rounds", type=int, default=8,
                        help="alternating rounds of each run-time measurement")
    parser.add_argument("--no-docs", action="store_true")
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory(prefix="amp-coldstart-") as tmp:
        for label, path in models(args.models.split(","), tmp):
            cache = os.path.join(tmp, "cache-" + os.path.basename(path))
            warm_env = dict(os.environ, AMP_CACHE_DIR=cache)
            warm_env.pop("AMP_NO_CACHE", None)
            r = {"model": label, "serial": [], "cold": [], "cold_all": [], "warm": [],
                 "run_serial": [], "run_cold": []}
            first_out = os.path.join(tmp, "first.npy")
            warm_out = os.path.join(tmp, "warm.npy")
            r["identical"] = True
            for _ in range(args.rounds):
                r["serial"].append(amp_run(path, SERIAL))
                r["cold"].append(amp_run(path, ["--no-cache"]))
                r["cold_all"].append(amp_run(path, ["--no-cache"], threads=0))
                # A fresh cache, filled by one run; the next one is warm.
                subprocess.run(["rm", "-rf", cache], check=True)
                amp_run(path, [f"--output={first_out}"], warm_env)
                warm = amp_run(path, [f"--output={warm_out}"], warm_env)
                r["identical"] &= open(first_out, "rb").read() == open(warm_out, "rb").read()
                r["warm"].append(warm)
            # Run times: both programs loaded from the cache, measured in
            # alternation, many times (this VM's speed drifts for seconds).
            for _ in range(args.run_rounds):
                r["run_serial"].append(run_time(path, SERIAL_CODE, args.repeat, warm_env))
                r["run_cold"].append(run_time(path, [], args.repeat, warm_env))
            rows.append(r)
            best = lambda runs: min(runs, key=lambda x: x[0])
            print(f"{label}: serial {best(r['serial'])[0]:.2f} s, cold {best(r['cold'])[0]:.2f} s, "
                  f"warm {best(r['warm'])[0]:.2f} s (identical: {r['identical']}); run "
                  f"{min(r['run_serial']):.2f} -> {min(r['run_cold']):.2f} ms; cold on all cores "
                  f"{best(r['cold_all'])[0]:.2f} s", flush=True)

    chip = f"{cpu_name()} (LLVM: {llvm_chip()}), {os.cpu_count()} cores"
    lines = [
        "# Cold start: time to the first result",
        "",
        "Generated by `bench/coldstart/run.py` (do not edit). Machine: " + chip + ".",
        "amp-run on the CPU, one thread unless said, seeded inputs; each wall time is the",
        f"fastest of {args.rounds} alternating rounds; run times are the fastest",
        f"call of {args.repeat} in each of {args.run_rounds} alternating rounds",
        "(both programs then loaded from a cache), fastest round: this VM's",
        "speed drifts by a third for seconds at a time, which the medians show.",
        "",
        "- **serial**: no kernel outlining, LLVM free to unroll every loop, one",
        "  compile thread, no cache (the lowering before issue 43's work; the",
        "  JIT of that time also compiled the entry twice, so it was slower still);",
        "- **cold**: today's defaults without the cache (`--no-cache`);",
        "- **warm**: today's defaults, the compile cache holding the program;",
        f"- **cold, {os.cpu_count()} threads**: as cold, the program run on every core",
        "  (amp-run's default `--threads`: OpenMP regions, which the lowering",
        "  merges across kernels; the split is parse + lower + compile).",
        "",
        "| model | serial | cold (parse + lower + compile) | warm | warm = cold bit for bit "
        f"| run time serial | run time cold | ratio | cold, {os.cpu_count()} threads |",
        "|---|---:|---:|---:|:---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        serial = min(r["serial"], key=lambda x: x[0])
        cold = min(r["cold"], key=lambda x: x[0])
        warm = min(r["warm"], key=lambda x: x[0])
        cold_all = min(r["cold_all"], key=lambda x: x[0])
        split = lambda p: (f"{p.get('parse', 0):.2f} + {p.get('lower', 0):.2f} + "
                           f"{p.get('compile', 0):.2f}")
        rs, rc = min(r["run_serial"]), min(r["run_cold"])
        lines.append(f"| {r['model']} | {serial[0]:.2f} s | {cold[0]:.2f} s ({split(cold[1])}) | "
                     f"{warm[0]:.2f} s | {'yes' if r['identical'] else 'NO'} | "
                     f"{rs:.2f} ms | {rc:.2f} ms | {rc / rs:.3f} | "
                     f"{cold_all[0]:.2f} s ({split(cold_all[1])}) |")
    lines += [
        "",
        "The split is amp-run's `--time-phases`, wall time: the lowering (amp's",
        "MLIR passes, the kernels' on all cores) and compile (LLVM on all cores,",
        "and linking);",
        "see docs/Performance.md, \"Cold start\", for where the time went.",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if not args.no_docs:
        with open(os.path.join(ROOT, "docs", "ColdStart.md"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""amp's CPU code against ONNX Runtime on real models, side by side.

For each model of the accuracy benchmark (bench/accuracy/run.py: the four
digits models, and the three PaddleOCR models with `--models all`), on the
same input batch: imports the ONNX file with amp.onnx (f32), converts it to
f16 and bf16 for the host (`mixed-precision{precision=P target=cpu}`;
`--target` changes the target), and times in one run, for
each thread count, `amp-run --repeat R --threads T` of the three programs
(four on a host other than `--bf16-chip`, default znver4: bf16 converted
for that chip too, its `llvm.target` on the module, and run with
`amp-run --bf16-dot` where the host has the instruction, which shows what
that chip's rule would give on this one) and ONNX Runtime's CPU provider (onnxruntime-node, intra-op threads T) on
the same input, min of R calls after a warm-up. The four are timed in turn,
`--rounds` times (default 3), and each keeps its fastest round: noise on
a shared machine comes in bursts of seconds, which one process of R calls
can sit in entirely. ONNX Runtime is optional:
without it (scripts/setup-reference.sh installs it) its column is empty.

`--models large` (and `all`) adds a large convolutional model:
bench/models/unet/gen.py's U^2-Net-shaped segmentation network (31.4M
parameters, 138 GFLOP per call on a 512x512 image, random weights, one
input image), timed with fewer calls (`--large-repeat`).

On a host with AVX-512, the f32 program is also timed as the code amp
builds for an AVX2 chip (`amp-run --cpu=haswell`, `--avx2-cpu`): AVX2
instructions, 16 vector registers of 8 lanes, the register tiles chosen
for them, run on this chip. It shows what amp's AVX2 kernels do next to
ONNX Runtime's here; a real AVX2 chip's times come from running the
benchmark there, where the f32 column is AVX2 code.

    /usr/bin/python3 bench/speed/run.py [--models digits|all|large|NAME,...]
        [--threads 1,2] [--repeat 5] [--rounds 3] [--markdown docs/Performance.md]
        [--plot docs/speed.png] [--keep DIR]

With --markdown, the table replaces the block between the `speed-benchmark`
markers of that file (appended when absent); with --plot, a bar chart of
each program's time against ONNX Runtime's (against amp f32 without ONNX
Runtime) goes to that PNG file.
"""

import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "accuracy"))
import run as accuracy  # noqa: E402  (the models, their inputs, amp.onnx)
# bench/runtime/run.py names the machine; loaded under its own name (the
# accuracy benchmark's module is `run` too).
_spec = importlib.util.spec_from_file_location(
    "runtime_run", os.path.join(ROOT, "bench", "runtime", "run.py"))
_runtime = importlib.util.module_from_spec(_spec)
sys.path.insert(0, os.path.join(ROOT, "bench", "runtime"))
_spec.loader.exec_module(_runtime)
machine = _runtime.machine
host_chip = _runtime.host_chip
sys.path.insert(0, os.path.join(ROOT, "bench"))
from machine import cpu_flags as machine_flags  # noqa: E402

TIME = re.compile(r"time: min ([0-9.]+) ms")
ORT_DIR = os.path.join(ROOT, "tools", "onnx", "ort", "node_modules")
BEGIN = "<!-- speed-benchmark:begin -->"
END = "<!-- speed-benchmark:end -->"


def check(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s failed:\n%s%s" % (" ".join(cmd[:3]), r.stdout, r.stderr))
    return r.stdout


def min_ms(output):
    return float(TIME.search(output).group(1))


def ort_available():
    return os.path.isdir(os.path.join(ORT_DIR, "onnxruntime-node"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="digits")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--min-seconds", type=float, default=0.3,
                    help="after the first round, call each program at least this "
                    "long per round (at most --max-repeat calls)")
    ap.add_argument("--max-repeat", type=int, default=2000)
    ap.add_argument("--markdown")
    ap.add_argument("--plot", metavar="PNG",
                    help="write a bar chart of the times to this PNG file")
    ap.add_argument("--target", default="cpu",
                    help="mixed-precision's target= for the f16/bf16 programs "
                         "(default: cpu, the host; empty: none)")
    ap.add_argument("--bf16-chip", default="znver4",
                    help="on another host, also time bf16 converted for this "
                         "x86 chip (empty: skip)")
    ap.add_argument("--avx2-cpu", default="haswell",
                    help="on a host with AVX-512, also time f32 compiled for this "
                         "AVX2 chip (amp-run --cpu; empty: skip)")
    ap.add_argument("--large-repeat", type=int, default=2,
                    help="calls per round of the large model")
    ap.add_argument("--keep", metavar="DIR",
                    help="write the programs and inputs to DIR and keep them")
    args = ap.parse_args()
    if args.bf16_chip and not re.fullmatch(r"[A-Za-z0-9_.-]+", args.bf16_chip):
        ap.error("--bf16-chip: '%s' is not an LLVM CPU name (letters, digits, "
                 "'_', '.', '-')" % args.bf16_chip)
    if args.avx2_cpu and not re.fullmatch(r"[A-Za-z0-9_.-]+", args.avx2_cpu):
        ap.error("--avx2-cpu: '%s' is not an LLVM CPU name" % args.avx2_cpu)
    models = accuracy.all_models() + [UNet()]
    if args.models == "digits":
        models = [m for m in models if m.name.startswith("digits-")]
    elif args.models == "large":
        models = [m for m in models if isinstance(m, UNet)]
    elif args.models != "all":
        wanted = args.models.split(",")
        models = [m for m in models if m.name in wanted]
        unknown = set(wanted) - {m.name for m in models}
        if unknown:
            ap.error("--models: no model %s" % ", ".join(sorted(unknown)))
    threads = [int(t) for t in args.threads.split(",")]
    amp_opt = os.path.join(ROOT, "build", "bin", "amp-opt")
    amp_run = os.path.join(ROOT, "build", "bin", "amp-run")
    have_ort = ort_available()
    if not have_ort:
        print("bench/speed: onnxruntime-node is not installed "
              "(scripts/setup-reference.sh); ONNX Runtime is skipped", file=sys.stderr)
    import amp.onnx
    # bf16 as converted for --bf16-chip, where the host is another chip.
    chip_column = args.bf16_chip and host_chip() != args.bf16_chip
    # f32 as AVX2 code, where the host has wider vectors.
    avx2_column = bool(args.avx2_cpu) and host_has("avx512f")

    rows = []
    with tempfile.TemporaryDirectory(prefix="amp-speed-") as scratch:
        work = scratch
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            work = args.keep
        for model in models:
            onnx_path = model.onnx()
            f32 = os.path.join(work, model.name + ".f32.mlir")
            with open(f32, "w") as f:
                f.write(amp.onnx.import_model(onnx_path, shapes=model.shapes))
            programs = {"f32": f32}
            for low in ("f16", "bf16"):
                programs[low] = os.path.join(work, "%s.%s.mlir" % (model.name, low))
                check([amp_opt, f32, "-p",
                       "builtin.module(mixed-precision{precision=%s%s})"
                       % (low, " target=" + args.target if args.target else ""),
                       "-o", programs[low]])
            if chip_column:
                programs["bf16-chip"] = os.path.join(work, model.name + ".bf16-chip.mlir")
                check([amp_opt, "-", "-p",
                       "builtin.module(mixed-precision{precision=bf16})",
                       "-o", programs["bf16-chip"]],
                      input=for_chip(open(f32).read(), args.bf16_chip))
            if avx2_column:
                programs["f32-avx2"] = f32
            repeat = args.large_repeat if isinstance(model, UNet) else args.repeat
            (x,) = model.inputs()
            x = np.ascontiguousarray(x, dtype=np.float32)
            npy = os.path.join(work, model.name + ".npy")
            np.save(npy, x)
            raw = os.path.join(work, model.name + ".bin")
            x.tofile(raw)
            for t in threads:
                row = {"model": model.name, "batch": x.shape[0], "threads": t}
                calls = {}
                for _ in range(args.rounds):
                    times = {}
                    if have_ort:
                        times["ort"] = min_ms(check(
                            ["node", os.path.join(HERE, "time_ort.js"), onnx_path,
                             raw, "float32", ",".join(map(str, x.shape)), str(t),
                             str(calls.get("ort", repeat))],
                            env=dict(os.environ, NODE_PATH=ORT_DIR)))
                    for precision, path in programs.items():
                        times[precision] = min_ms(check(
                            [amp_run, path, "--entry=main", "--input=" + npy,
                             "--cast-inputs", "--threads=%d" % t,
                             "--repeat=%d" % calls.get(precision, repeat),
                             "--output=" + os.devnull]
                            + (["--bf16-dot"] if precision == "bf16-chip" and
                               host_has_bf16_dot() else [])
                            + (["--cpu=" + args.avx2_cpu] if precision == "f32-avx2"
                               else [])))
                    # Later rounds call each program for --min-seconds at
                    # least: a process of a few calls of a fast program
                    # can sit in one of this VM's slow spells entirely.
                    for key, ms in times.items():
                        calls[key] = max(repeat, min(
                            args.max_repeat, int(args.min_seconds * 1000 / ms)))
                    for key, ms in times.items():
                        row[key] = min(row.get(key, ms), ms)
                print("%-18s batch %4d  %d thread(s)  ORT %s  amp f32 %.2f  f16 %.2f  "
                      "bf16 %.2f ms%s" % (model.name, row["batch"], t,
                                          "%.2f" % row["ort"] if "ort" in row else "-",
                                          row["f32"], row["f16"], row["bf16"],
                                          "  bf16 for %s %.2f ms" % (args.bf16_chip,
                                                                    row["bf16-chip"])
                                          if chip_column else "")
                      + ("  f32 as %s code %.2f ms" % (args.avx2_cpu, row["f32-avx2"])
                         if avx2_column else ""), flush=True)
                rows.append(row)

    if args.markdown:
        table = ("Measured on: %s. Min of %d calls after a warm-up (in the rounds "
                 "after the first, as many calls as take %g s, up to %d), the best of %d "
                 "rounds that time the programs and ONNX Runtime in turn; same input batch "
                 "and thread count for both; f16/bf16 converted with %s; "
                 "ONNX Runtime %s.\n\n"
                 % (machine(), args.repeat, args.min_seconds, args.max_repeat, args.rounds,
                    "target=" + args.target if args.target else "no target",
                    "1.x CPU provider (onnxruntime-node), graph optimisations on"
                    if have_ort else "not installed (column empty)"))
        if avx2_column:
            table += ("The AVX2 columns time the f32 program compiled for %s "
                      "(`amp-run --cpu=%s`: AVX2, 16 vector registers of 8 lanes) on "
                      "this chip, not on an AVX2 chip.\n\n" % (args.avx2_cpu, args.avx2_cpu))
        chip = (" | bf16 for %s / f32" % args.bf16_chip) if chip_column else ""
        avx2 = (" | amp f32 as AVX2 code (ms) | AVX2 code / ORT") if avx2_column else ""
        table += ("| model | batch | threads | ONNX Runtime (ms) | amp f32 (ms) | amp f16 (ms) "
                  "| amp bf16 (ms) | amp f32 / ORT | f16 / f32 | bf16 / f32%s%s "
                  "| f32 speed-up over 1 thread |\n"
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|%s%s\n"
                  % (chip, avx2, "---:|" if chip_column else "",
                     "---:|---:|" if avx2_column else ""))
        for r in rows:
            ort = r.get("ort")
            one = one_thread(rows, r)
            table += "| %s | %d | %d | %s | %.2f | %.2f | %.2f | %s | %.2f | %.2f |%s%s %s |\n" % (
                r["model"], r["batch"], r["threads"], "%.2f" % ort if ort else "–",
                r["f32"], r["f16"], r["bf16"], "%.2fx" % (r["f32"] / ort) if ort else "–",
                r["f16"] / r["f32"], r["bf16"] / r["f32"],
                " %.2f |" % (r["bf16-chip"] / r["f32"]) if chip_column else "",
                " %.2f | %s |" % (r["f32-avx2"], "%.2fx" % (r["f32-avx2"] / ort) if ort
                                  else "–") if avx2_column else "",
                "%.2fx" % (one["f32"] / r["f32"]) if one and r["threads"] != 1 else "–")
        _runtime.write_block(args.markdown, BEGIN, END, table)
    if args.plot:
        plot(rows, args.plot, have_ort)


def host_has(flag):
    """Whether /proc/cpuinfo lists `flag` for this CPU."""
    return flag in machine_flags()


class UNet:
    """bench/models/unet/gen.py's network on a 512x512 image (random, seeded)."""

    name = "unet"
    size = 512
    shapes = {"x": [1, 3, size, size]}

    def onnx(self):
        sys.path.insert(0, os.path.join(ROOT, "bench", "models", "unet"))
        import gen
        return gen.path(self.size)

    def inputs(self):
        rng = np.random.default_rng(0)
        return [rng.random((1, 3, self.size, self.size), dtype=np.float32)]


def host_has_bf16_dot():
    """Whether the host has the AVX512-BF16 dot product: amp-run uses it
    by default on chips where it pays only, and the 'bf16 for chip' column
    times the code as that chip would run it (amp-run --bf16-dot)."""
    return host_has("avx512_bf16") and host_has("avx512vl")


def for_chip(text, chip):
    """The module `text` with an x86 `llvm.target` for `chip` (with
    AVX512-BF16): mixed-precision decides by it instead of by the host."""
    target = ('llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", '
              'chip = "%s", features = #llvm.target_features<["+avx512bf16", '
              '"+avx512f", "+f16c"]>>' % chip)
    if "\nmodule {" not in text:
        raise RuntimeError("bench/speed: the imported model has no plain module")
    return text.replace("\nmodule {", "\nmodule attributes {%s} {" % target, 1)


def one_thread(rows, row):
    """The row of `row`'s model on one thread, if measured."""
    for r in rows:
        if r["model"] == row["model"] and r["threads"] == 1:
            return r
    return None


def plot(rows, path, have_ort):
    """One panel per thread count: each model's f32, f16 and bf16 times over
    ONNX Runtime's (over amp f32's without it)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    base = "ort" if have_ort else "f32"
    shown = [("f32", "amp f32", "#1f77b4"), ("f16", "amp f16", "#9ecae1"),
             ("bf16", "amp bf16", "#d62728")]
    threads = sorted({r["threads"] for r in rows})
    fig, axes = plt.subplots(len(threads), 1, figsize=(10, 3.4 * len(threads)),
                             squeeze=False)
    width = 0.8 / len(shown)
    for ax, t in zip(axes[:, 0], threads):
        these = [r for r in rows if r["threads"] == t]
        for k, (key, label, color) in enumerate(shown):
            xs = [i + (k - len(shown) / 2 + 0.5) * width for i in range(len(these))]
            ax.bar(xs, [r[key] / r[base] for r in these], width, color=color,
                   edgecolor="black", linewidth=0.3, label=label)
        ax.axhline(1.0, color="black", linewidth=0.8)
        if have_ort:
            ax.axhline(1.5, color="gray", linestyle="--", linewidth=0.8,
                       label="1.5x ONNX Runtime")
        ax.set_ylim(0, max(1.6, max(r[k] / r[base] for r in these
                                    for k, _, _ in shown) * 1.1))
        ax.set_ylabel("time / %s" % ("ONNX Runtime" if have_ort else "amp f32"))
        ax.set_title("%d thread%s (lower is faster)" % (t, "" if t == 1 else "s"))
        ax.set_xticks(range(len(these)))
        ax.set_xticklabels(["%s\n(batch %d)" % (r["model"], r["batch"]) for r in these],
                           fontsize=8)
        ax.grid(axis="y", alpha=0.3)
    axes[0, 0].legend(fontsize=8, ncol=4, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    main()

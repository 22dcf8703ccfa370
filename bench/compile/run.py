#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Times the mixed-precision pass against parsing and printing the same file.

For each model size it generates N transformer-like blocks (gen_model.py,
`--style generic`: layer norms and attention written as generics; `--style
named`: blocks of named linalg ops; `--style importer`: transformer blocks
built with onnx's helper and imported by amp.onnx, as any user's model
reaches amp: an empty and a fill per op, dense weights per block, TOSA;
gen_onnx.py), and with `--weights MB` a chain of Gemm layers holding MB
megabytes of f32 weights instead,
runs `amp-opt FILE --mixed-precision --mlir-timing` several times, and takes
the median of the parser, pass and printer times of each run, so the pass and
its baseline are measured side by side in one process. The verifier run after
the pass is switched off (--verify-each=false): it is the same for any pass.

  bench/compile/run.py [--amp-opt build/bin/amp-opt] [--blocks 50 200 ...]
                       [--style generic|named|importer] [--weights MB ...]
                       [--placement optimal|greedy]
                       [--repeat 3] [--markdown docs/Performance.md]
"""
import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from machine import describe  # noqa: E402


def timing(amp_opt, path, extra):
    out = subprocess.run([amp_opt, path, *extra, "--mlir-timing",
                          "--verify-each=false", "-o", os.devnull],
                         capture_output=True, text=True, check=True).stderr
    times = {}
    for name in ("Parser", "MixedPrecision", "Output"):
        m = re.search(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+" + name + r"$", out, re.M)
        times[name] = float(m.group(1)) if m else 0.0
    return times


def count_ops(amp_opt, path):
    out = subprocess.run([amp_opt, path, "--amp-test-print-policy", "-o", os.devnull],
                         capture_output=True, text=True, check=True).stdout
    return out.count("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--amp-opt", default=os.path.join(ROOT, "build", "bin", "amp-opt"))
    ap.add_argument("--blocks", type=int, nargs="+", default=[50, 200, 800, 1600, 3200])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--placement", default="optimal",
                    choices=["optimal", "greedy", "naive"])
    ap.add_argument("--style", default="generic", choices=["generic", "named", "importer"])
    ap.add_argument("--weights", type=float, nargs="+", default=None, metavar="MB",
                    help="time Gemm chains of this many megabytes of weights instead")
    ap.add_argument("--markdown", help="write the results table to this file")
    args = ap.parse_args()

    rows = []
    sizes = args.weights or args.blocks
    env = dict(os.environ)
    env.setdefault("AMP_CAPI_LIBRARY", os.path.join(ROOT, "build", "lib", "libAmpCAPI.so"))
    with tempfile.TemporaryDirectory() as tmp:
        for blocks in sizes:
            path = os.path.join(tmp, f"model{blocks}.mlir")
            if args.weights:
                command = [os.path.join(HERE, "gen_onnx.py"), "weights", str(blocks)]
            elif args.style == "importer":
                command = [os.path.join(HERE, "gen_onnx.py"), "transformer", str(blocks)]
            else:
                command = [os.path.join(HERE, "gen_model.py"), str(blocks), "--style",
                           args.style]
            with open(path, "w") as f:
                subprocess.run([sys.executable, *command], stdout=f, check=True, env=env)
            megabytes = os.path.getsize(path) / 1e6
            ops = count_ops(args.amp_opt, path)
            runs = [timing(args.amp_opt, path,
                           [f"--mixed-precision=placement={args.placement}"])
                    for _ in range(args.repeat)]
            med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
            base = med["Parser"] + med["Output"]
            rows.append({
                "blocks": blocks, "ops": ops, "megabytes": megabytes,
                "parse": med["Parser"], "print": med["Output"],
                "pass": med["MixedPrecision"],
                "ratio": med["MixedPrecision"] / base if base else float("nan"),
                "us_per_op": 1e6 * med["MixedPrecision"] / ops,
            })
            r = rows[-1]
            print(f"{blocks:5g} {'MB' if args.weights else 'blocks'} {ops:7d} ops "
                  f"({megabytes:.0f} MB of text)  parse {r['parse']:.3f}s  "
                  f"print {r['print']:.3f}s  pass {r['pass']:.3f}s  "
                  f"pass/(parse+print) {r['ratio']:.2f}  {r['us_per_op']:.2f} us/op",
                  flush=True)

    if args.markdown:
        size = "weights (MB)" if args.weights else "blocks"
        lines = [
            f"| {size} | ops | file (MB) | parse (s) | print (s) | mixed-precision (s) "
            "| pass / (parse+print) | µs per op |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in rows:
            lines.append(f"| {r['blocks']:g} | {r['ops']} | {r['megabytes']:.1f} "
                         f"| {r['parse']:.3f} | {r['print']:.3f} "
                         f"| {r['pass']:.3f} | {r['ratio']:.2f} | {r['us_per_op']:.2f} |")
        machine = f"{describe()}, {platform.system()} {platform.release()}"
        text = open(args.markdown).read() if os.path.exists(args.markdown) else ""
        style = "weights" if args.weights else args.style
        tag = (f"compile-benchmark-{args.placement}" if style == "generic"
               else f"compile-benchmark-{style}-{args.placement}")
        what = "`--weights`" if args.weights else f"`--style {args.style}`"
        section = (f"<!-- {tag}:begin -->\n"
                   f"{what}, `placement={args.placement}`. "
                   f"Measured on: {machine}; "
                   f"median of {args.repeat} runs per size.\n\n"
                   + "\n".join(lines) + f"\n<!-- {tag}:end -->")
        if f"<!-- {tag}:begin -->" in text:
            text = re.sub(f"<!-- {tag}:begin -->.*<!-- {tag}:end -->",
                          lambda _: section, text, flags=re.S)
        else:
            text += "\n" + section + "\n"
        with open(args.markdown, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()

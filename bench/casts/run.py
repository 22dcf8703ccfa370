#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Casts placed by mixed-precision on the benchmark models, per placement.

For each model and each placement (naive: casts at every boundary of an
allow op; greedy: TVM's forward rule; optimal: minimum cut), runs
`amp-opt --mixed-precision=placement=P report=-` and reads the cast count and
the bytes the casts read and write from the JSON summary.

  bench/casts/run.py [--amp-opt build/bin/amp-opt] [--markdown docs/Performance.md]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PLACEMENTS = ["naive", "greedy", "optimal"]


def models(tmp):
    blocks = os.path.join(tmp, "transformer4.mlir")
    with open(blocks, "w") as f:
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "compile", "gen_model.py"),
                        "4", "--seq", "64", "--hidden", "128"], stdout=f, check=True)
    return [
        ("transformer blocks (4 x seq 64, hidden 128)", blocks),
        ("transformer block with decomposed softmax", os.path.join(ROOT, "test", "Integration", "mp-transformer.mlir")),
        ("CNN (conv, bn, relu, pools, dense)", os.path.join(ROOT, "test", "Integration", "mp-cnn.mlir")),
        ("LSTM (8 steps in scf.for)", os.path.join(ROOT, "test", "Integration", "mp-lstm.mlir")),
        ("MLP with softmax head", os.path.join(ROOT, "examples", "mlp.mlir")),
    ]


def summary(amp_opt, path, placement, precision):
    out = subprocess.run([amp_opt, path,
                          f"--mixed-precision=placement={placement} precision={precision} report=-",
                          "-o", os.devnull], capture_output=True, text=True, check=True).stdout
    result = json.loads(out)["summary"]
    # Kernels whose only work is a cast, after amp's kernel fusion.
    pipeline = (f"builtin.module(mixed-precision{{placement={placement} precision={precision}}},"
                "amp-fuse-kernels,amp-test-count-cast-kernels)")
    out = subprocess.run([amp_opt, path, "-p", pipeline, "-o", os.devnull],
                         capture_output=True, text=True, check=True).stdout
    m = re.search(r"cast-only kernels: (\d+) of (\d+)", out)
    result["cast-only-kernels"] = int(m.group(1))
    result["kernels"] = int(m.group(2))
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--amp-opt", default=os.path.join(ROOT, "build", "bin", "amp-opt"))
    ap.add_argument("--precision", default="f16")
    ap.add_argument("--markdown")
    args = ap.parse_args()
    rows = []
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in models(tmp):
            s = {p: summary(args.amp_opt, path, p, args.precision) for p in PLACEMENTS}
            b = {p: s[p]["cast-bytes"] for p in PLACEMENTS}
            ordered = b["optimal"] <= b["greedy"] <= b["naive"]
            failures += not ordered
            rows.append((name, s, ordered))
            print(f"{name:48s} " + "  ".join(
                f"{p}: {s[p]['casts-inserted']} casts / {s[p]['cast-bytes']} B / "
                f"{s[p]['cast-only-kernels']} cast kernels" for p in PLACEMENTS)
                + ("" if ordered else "  ORDER VIOLATED"))
    if args.markdown:
        lines = ["| model | naive: casts / bytes / cast-only kernels | greedy | optimal | optimal vs greedy (bytes) |",
                 "|---|---:|---:|---:|---:|"]
        for name, s, ordered in rows:
            g, o = s["greedy"]["cast-bytes"], s["optimal"]["cast-bytes"]
            gain = f"{100.0 * (g - o) / g:.0f}% fewer" if g else "—"
            lines.append(f"| {name} | " + " | ".join(
                f"{s[p]['casts-inserted']} / {s[p]['cast-bytes']} / {s[p]['cast-only-kernels']}"
                for p in PLACEMENTS) + f" | {gain} |")
        text = open(args.markdown).read() if os.path.exists(args.markdown) else ""
        section = ("<!-- casts-benchmark:begin -->\n"
                   f"`precision={args.precision}`; bytes are what the casts read and write; "
                   "cast-only kernels are counted after `amp-fuse-kernels` "
                   "(out of all linalg kernels).\n\n"
                   + "\n".join(lines) + "\n<!-- casts-benchmark:end -->")
        if "<!-- casts-benchmark:begin -->" in text:
            text = re.sub(r"<!-- casts-benchmark:begin -->.*<!-- casts-benchmark:end -->",
                          lambda _: section, text, flags=re.S)
        else:
            text += "\n## Casts placed (bench/casts)\n\n" \
                "Casts and the bytes they move, for the three placements of\n" \
                "`mixed-precision` on the benchmark models:\n\n" \
                "```sh\npython3 bench/casts/run.py --markdown docs/Performance.md\n```\n\n" + section + "\n"
        with open(args.markdown, "w") as f:
            f.write(text)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

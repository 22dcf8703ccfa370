#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""amp's CPU kernels for single convolutions, pools and resizes against
ONNX Runtime, side by side, with each convolution's share of the FMA peak.

Each case is one ONNX node as an exporter writes it (NCHW, weights and bias
as initializers, random values, seed 0), imported with amp.onnx (so its
time includes the layout changes around the kernel, as a lone op pays
them) and timed with `amp-run --repeat R --threads T` and ONNX Runtime's
CPU provider (onnxruntime-node, intra-op threads T) on the same input, min
of R calls after a warm-up, best of `--rounds` rounds that time the two in
turn. Every amp result is checked against ONNX Runtime's output (max
absolute error, reported; a case fails above 1e-3 relative to the output's
scale). On a host with AVX-512 the f32 program is also timed as the code
amp builds for an AVX2 chip (`amp-run --cpu=haswell`), run on this chip.

The FMA peak is one core's: bench/cpu-rates/rates.c times independent f32
FMAs of the host's widest vectors (2 flops per lane each); a
convolution's rate is 2 x its multiply-adds over its time.

    /usr/bin/python3 bench/cpu-ops/run.py [--cases NAME,...] [--threads 1]
        [--repeat 10] [--rounds 3] [--markdown docs/Performance.md]

Needs ONNX Runtime (scripts/setup-reference.sh): it is the reference for
both time and values.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "tools", "onnx"))
sys.path.insert(0, os.path.join(ROOT, "bench", "runtime"))
from run import machine, write_block  # noqa: E402
sys.path.insert(0, os.path.dirname(HERE))
from machine import cpu_flags  # noqa: E402

BEGIN = "<!-- cpu-ops-benchmark:begin -->"
END = "<!-- cpu-ops-benchmark:end -->"
ORT_DIR = os.path.join(ROOT, "tools", "onnx", "ort", "node_modules")
TIME = re.compile(r"time: min ([0-9.]+) ms")


def conv(cin, cout, hw, k=3, dilation=1, stride=1, group=1):
    pad = dilation * (k // 2)
    return ("Conv", [1, cin, hw, hw],
            dict(kernel_shape=[k, k], pads=[pad] * 4, dilations=[dilation] * 2,
                 strides=[stride] * 2, group=group),
            (cout, cin // group, k, k))


# name: (op, input shape, attributes, weight shape or None, what it is)
CASES = {
    "conv3x3": conv(64, 64, 256) + ("Conv 3x3, 64->64 channels, 256x256",),
    "conv3x3-d2": conv(64, 64, 256, dilation=2) + ("same, dilation 2",),
    "conv3x3-d8": conv(64, 64, 256, dilation=8) + ("same, dilation 8",),
    "conv3x3-s2": conv(64, 128, 256, stride=2) + ("Conv 3x3 stride 2, 64->128, 256x256",),
    "conv3x3-16": conv(16, 16, 512) + ("Conv 3x3, 16->16, 512x512",),
    "conv1x1": conv(64, 128, 256, k=1) + ("Conv 1x1, 64->128, 256x256",),
    "conv3x3-deep": conv(1536, 512, 32) + ("Conv 3x3, 1536->512, 32x32 (28 MB of filter)",),
    "conv3x3-deep-d4": conv(1024, 1024, 16, dilation=4) + ("Conv 3x3 dilation 4, 1024->1024, 16x16",),
    "grouped": conv(64, 64, 256, group=4) + ("Conv 3x3, 64->64 in 4 groups, 256x256",),
    "depthwise": conv(64, 64, 256, group=64) + ("depthwise Conv 3x3, 64 channels, 256x256",),
    "maxpool": ("MaxPool", [1, 64, 512, 512], dict(kernel_shape=[2, 2], strides=[2, 2]),
                None, "MaxPool 2x2, 64x512x512"),
    "maxpool-ceil": ("MaxPool", [1, 64, 511, 511],
                     dict(kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1), None,
                     "MaxPool 2x2 ceil mode, 64x511x511"),
    "avgpool": ("AveragePool", [1, 64, 512, 512], dict(kernel_shape=[2, 2], strides=[2, 2]),
                None, "AveragePool 2x2, 64x512x512"),
    "resize-linear": ("Resize", [1, 64, 256, 256], dict(mode="linear"), None,
                      "Resize (linear, x2), 64x256x256"),
    "resize-nearest": ("Resize", [1, 64, 256, 256], dict(mode="nearest"), None,
                       "Resize (nearest, x2), 64x256x256"),
}


def build(name, path):
    """Writes case `name`'s model to `path`; returns (input shape, GFLOP or
    None)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    op, shape, attrs, weight, _ = CASES[name]
    rng = np.random.default_rng(0)
    inputs, inits = ["x"], []
    flops = None
    if op == "Conv":
        w = (rng.standard_normal(weight) * np.sqrt(2.0 / np.prod(weight[1:]))).astype(np.float32)
        b = (rng.standard_normal(weight[0]) * 0.1).astype(np.float32)
        inits += [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")]
        inputs += ["w", "b"]
        k, stride, dil = weight[2], attrs["strides"][0], attrs["dilations"][0]
        out = (shape[2] + 2 * attrs["pads"][0] - dil * (k - 1) - 1) // stride + 1
        flops = 2.0 * w.size * out * out / 1e9
    elif op == "Resize":
        inits.append(numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales"))
        inputs += ["", "scales"]
    node = helper.make_node(op, inputs, ["y"], **attrs)
    graph = helper.make_graph([node], name,
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)
    return shape, flops


def check(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s failed:\n%s%s" % (" ".join(cmd[:3]), r.stdout, r.stderr))
    return r.stdout + r.stderr


def fma_peak(flags, scratch):
    """One core's f32 FMA rate in GFLOP/s, with the host's widest vectors."""
    exe = os.path.join(scratch, "rates")
    subprocess.run(["cc", "-O2", os.path.join(ROOT, "bench", "cpu-rates", "rates.c"),
                    "-o", exe], check=True)
    loop, lanes = ("fma_f32", 16) if "avx512f" in flags else ("fma_f32_ymm", 8)
    ns = float(check([exe, loop]).split()[1])
    return 2 * lanes / ns


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--avx2-cpu", default="haswell",
                    help="on a host with AVX-512, also time the program compiled for "
                         "this AVX2 chip (empty: skip)")
    ap.add_argument("--markdown")
    args = ap.parse_args()
    names = args.cases.split(",")
    unknown = [n for n in names if n not in CASES]
    if unknown:
        ap.error("--cases: no case %s (cases: %s)" % (", ".join(unknown), ", ".join(CASES)))
    if not os.path.isdir(os.path.join(ORT_DIR, "onnxruntime-node")):
        print("bench/cpu-ops: needs ONNX Runtime (scripts/setup-reference.sh)",
              file=sys.stderr)
        return 1
    import amp.onnx
    import reference
    amp_run = os.path.join(ROOT, "build", "bin", "amp-run")
    flags = cpu_flags()
    avx2 = args.avx2_cpu if args.avx2_cpu and "avx512f" in flags else ""
    rows, failed = [], []
    with tempfile.TemporaryDirectory(prefix="amp-cpu-ops-") as scratch:
        peak = fma_peak(flags, scratch)
        print("one core's f32 FMA peak: %.1f GFLOP/s" % peak, flush=True)
        for name in names:
            model = os.path.join(scratch, name + ".onnx")
            shape, gflop = build(name, model)
            x = (np.random.default_rng(1).standard_normal(shape) * 3).astype(np.float32)
            npy, raw, out = (os.path.join(scratch, name + e) for e in (".npy", ".bin", ".out.npy"))
            np.save(npy, x)
            x.tofile(raw)
            program = os.path.join(scratch, name + ".mlir")
            with open(program, "w") as f:
                f.write(amp.onnx.import_model(model))
            want = next(iter(reference.run_reference(model, {"x": x}).values()))
            # amp's programs: the host's code, and the AVX2 code.
            runs = {"amp": []}
            if avx2:
                runs["avx2"] = ["--cpu=" + avx2]
            best, err = {}, 0.0
            for _ in range(args.rounds):
                best["ort"] = min(best.get("ort", 1e30), float(TIME.search(check(
                    ["node", os.path.join(ROOT, "bench", "speed", "time_ort.js"), model, raw,
                     "float32", ",".join(map(str, shape)), str(args.threads),
                     str(args.repeat)], env=dict(os.environ, NODE_PATH=ORT_DIR))).group(1)))
                for key, extra in runs.items():
                    best[key] = min(best.get(key, 1e30), float(TIME.search(check(
                        [amp_run, program, "--entry=main", "--input=" + npy,
                         "--threads=%d" % args.threads, "--repeat=%d" % args.repeat,
                         "--output=" + out] + extra)).group(1)))
                    got = np.load(out)
                    if got.shape != want.shape:
                        failed.append("%s (%s): shape %s, ONNX Runtime's %s"
                                      % (name, key, got.shape, want.shape))
                        continue
                    err = max(err, float(np.abs(got - want).max()))
                    if not err <= 1e-3 * max(1.0, float(np.abs(want).max())):
                        failed.append("%s (%s): max error %g" % (name, key, err))
            row = dict(best, name=name, what=CASES[name][4], gflop=gflop, err=err)
            rows.append(row)
            print("%-15s ORT %8.2f ms  amp %8.2f ms  amp/ORT %.2f%s%s  max error %.1e" % (
                name, row["ort"], row["amp"], row["amp"] / row["ort"],
                "  %.0f GFLOP/s (%.0f%% of peak)" % (gflop / row["amp"] * 1e3,
                                                    100 * gflop / row["amp"] * 1e3 / peak)
                if gflop else "",
                "  AVX2 code %.2f ms (%.2f)" % (row["avx2"], row["avx2"] / row["ort"])
                if avx2 else "", err), flush=True)

    table = ("Measured on: %s; %d thread%s. One core's f32 FMA peak: %.1f GFLOP/s "
             "(bench/cpu-rates/rates.c). Min of %d calls after a warm-up, best of %d "
             "rounds that time amp and ONNX Runtime (1.x CPU provider, onnxruntime-node, "
             "graph optimisations on) in turn, same input. amp's time includes the "
             "layout changes around the lone op.%s\n\n"
             % (machine(), args.threads, "" if args.threads == 1 else "s", peak,
                args.repeat, args.rounds,
                " The AVX2 columns time the program compiled for %s (`amp-run --cpu=%s`) "
                "on this chip, not on an AVX2 chip." % (avx2, avx2) if avx2 else ""))
    table += ("| op | ONNX Runtime (ms) | amp f32 (ms) | amp / ORT | GFLOP/s | of FMA peak%s "
              "| max error vs ORT |\n|---|---:|---:|---:|---:|---:|%s---:|\n"
              % (" | AVX2 code (ms) | AVX2 code / ORT" if avx2 else "",
                 "---:|---:|" if avx2 else ""))
    for r in rows:
        rate = r["gflop"] / r["amp"] * 1e3 if r["gflop"] else None
        table += "| %s | %.2f | %.2f | %.2fx | %s | %s |%s %.1e |\n" % (
            r["what"], r["ort"], r["amp"], r["amp"] / r["ort"],
            "%.0f" % rate if rate else "–", "%.0f%%" % (100 * rate / peak) if rate else "–",
            " %.2f | %.2fx |" % (r["avx2"], r["avx2"] / r["ort"]) if avx2 else "", r["err"])
    print(table, end="")
    if args.markdown:
        write_block(args.markdown, BEGIN, END, table)
    if failed:
        print("bench/cpu-ops: results differ from ONNX Runtime's:\n  " + "\n  ".join(failed),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

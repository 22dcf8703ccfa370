# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The digits models of bench/models/digits on an NVIDIA GPU.

Two steps, so that the second can run on a machine that has a GPU but
neither the ONNX importer's dependencies nor time to spare:

  bench/gpu/models.py prepare DIR   # imports the models, writes the 450
                                    # held-out images, the f32, f16 and bf16
                                    # programs and their CPU results
  bench/gpu/models.py run DIR [--chip sm_90] [--format isa|bin]
                                    # runs every program on the GPU

`run` calls each program with `amp-run --backend=cuda` on the same images
and compares the logits with two CPU results: the f32 program's (what
mixed precision costs on the GPU) and the same converted program's (what
the GPU itself changes: summation order, its exp/tanh/erf; this should be
far smaller). It prints a line per run and a markdown table, and exits 1
when a GPU result differs from the CPU result of the same program by more
than the bound below, or when top-1 classes differ from that CPU run's on
more than one image in a hundred.

`--bin DIR` names the folder of amp-opt and amp-run (default build/bin).

Without an NVIDIA GPU, `run DIR --emulate-tensor-cores` runs the f16 and
bf16 programs on Vulkan with the CUDA backend's tensor-core kernels, their
warp-level ops emulated (amp-run --vulkan-emulate-tensor-cores): the same
comparisons check those kernels on whole models (slow: minutes for the
CNN; `--only NAME` picks models).
"""
import argparse
import os
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
MODELS = ("mlp", "cnn", "lstm", "transformer")
PRECISIONS = ("f32", "f16", "bf16")
# GPU against CPU, same program: max |difference| of the logits (of order
# 10) allowed, per precision. f32 differs by summation order and the
# device's transcendental functions (1e-5 relative on Vulkan); a converted
# program also rounds those differences to its own type, a few ulps of the
# largest logit.
SAME_PROGRAM_ATOL = {"f32": 1e-3, "f16": 5e-2, "bf16": 4e-1}


def tool(args, name):
    return os.path.join(args.bin, name)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw)


def prepare(args):
    os.makedirs(args.dir, exist_ok=True)
    sys.path.insert(0, os.path.join(ROOT, "bench", "models", "digits"))
    import data
    _, x_test, _, _ = data.load_split()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + env.get(
        "PYTHONPATH", "")
    for name in MODELS:
        f32 = os.path.join(args.dir, name + "-f32.mlir")
        run([sys.executable, "-m", "amp.onnx",
             os.path.join(ROOT, "bench", "models", "digits", name + ".onnx"),
             "-o", f32], env=env)
        x = os.path.join(args.dir, name + "-x.npy")
        np.save(x, data.as_input(name, x_test))
        for p in PRECISIONS:
            mlir = os.path.join(args.dir, "%s-%s.mlir" % (name, p))
            if p != "f32":
                run([tool(args, "amp-opt"), f32,
                     "--mixed-precision=precision=" + p, "-o", mlir])
            run([tool(args, "amp-run"), mlir, "--entry=main", "--input=" + x,
                 "--output=" + os.path.join(args.dir,
                                            "%s-%s-cpu.npy" % (name, p))])
        print("prepared", name)


def gpu(args):
    status = 0
    rows = []
    precisions = PRECISIONS
    device = ["--backend=cuda", "--chip=" + args.chip,
              "--gpu-format=" + args.format, "--repeat=%d" % args.repeat]
    if args.emulate_tensor_cores:
        precisions = ("f16", "bf16")
        device = ["--backend=vulkan", "--vulkan-emulate-tensor-cores"]
    for name in MODELS:
        if args.only and name not in args.only.split(","):
            continue
        x = os.path.join(args.dir, name + "-x.npy")
        ref = np.load(os.path.join(args.dir, name + "-f32-cpu.npy"))
        row = [name]
        for p in precisions:
            mlir = os.path.join(args.dir, "%s-%s.mlir" % (name, p))
            out = os.path.join(args.dir, "%s-%s-gpu.npy" % (name, p))
            proc = subprocess.run(
                [tool(args, "amp-run"), mlir, "--entry=main"] + device +
                ["--input=" + x, "--output=" + out],
                text=True, capture_output=True)
            if proc.returncode != 0 and "no CUDA" in proc.stderr:
                sys.stderr.write(proc.stderr)
                sys.stderr.write("bench/gpu/models.py: no usable NVIDIA GPU "
                                 "here; nothing was measured\n")
                return 1
            if proc.returncode != 0:
                print("%-12s %-5s FAILED (exit %d)\n%s" %
                      (name, p, proc.returncode, proc.stderr.strip()))
                status = 1
                row += ["failed"] * 3
                continue
            t = re.search(r"time: min ([0-9.]+) ms", proc.stdout)
            ms = float(t.group(1)) if t else float("nan")
            got = np.load(out)
            same = np.load(os.path.join(args.dir, "%s-%s-cpu.npy" % (name, p)))
            err_same = float(np.abs(got - same).max())
            err_f32 = float(np.abs(got - ref).max())
            top1_same = int((got.argmax(-1) == same.argmax(-1)).sum())
            top1_f32 = int((got.argmax(-1) == ref.argmax(-1)).sum())
            n = got.shape[0]
            ok = err_same <= SAME_PROGRAM_ATOL[p] and top1_same * 100 >= 99 * n
            status |= 0 if ok else 1
            print("%-12s %-5s min %.3f ms  |gpu-cpu same program| %.2e  "
                  "|gpu-cpu f32| %.2e  top-1 same %d/%d  top-1 f32 %d/%d  %s" %
                  (name, p, ms, err_same, err_f32, top1_same, n, top1_f32, n,
                   "OK" if ok else "FAIL"))
            sys.stdout.flush()
            row += ["%.3f" % ms, "%.1e" % err_same,
                    "%.1e / %d" % (err_f32, top1_f32)]
        rows.append(row)
    print()
    if args.emulate_tensor_cores:
        print("Vulkan with the tensor-core kernels emulated, batch of 450 "
              "images (times mean nothing); errors are max |difference| of "
              "the logits against the CPU")
    else:
        print("GPU %s, kernels as %s, batch of 450 images, min of %d calls "
              "(ms); errors are max |difference| of the logits against the "
              "CPU" % (args.chip, args.format, args.repeat))
    head = "| model |" + "".join(
        " %s ms | %s vs CPU same | %s vs CPU f32 / top-1 of 450 |" % (p, p, p)
        for p in precisions)
    print(head)
    print("|---|" + "---:|" * (3 * len(precisions)))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return status


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("prepare", "run"))
    parser.add_argument("dir")
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--format", default="isa",
                        choices=("isa", "bin", "fatbin"))
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--emulate-tensor-cores", action="store_true",
                        help="f16/bf16 on Vulkan with the tensor-core "
                        "kernels emulated, instead of CUDA")
    parser.add_argument("--only", default="",
                        help="comma-separated models to run")
    args = parser.parse_args()
    if args.step == "prepare":
        prepare(args)
        return 0
    return gpu(args)


if __name__ == "__main__":
    sys.exit(main())

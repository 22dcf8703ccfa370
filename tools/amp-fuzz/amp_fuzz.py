#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""amp-fuzz: amp's differential fuzzer.

Generates seeded f32 programs (linalg named and generic ops, arith/math,
tensor, scf.if), inputs of one magnitude class each (+-1, +-100, +-1e4,
tiny values around 1e-6, exact zeros), converts every program with
`mixed-precision` in f16 and bf16 under each placement, and checks:

- verifier: the converted program parses and verifies;
- idempotence: converting the output again prints the same text;
- numerics: amp-run on the CPU of the converted program against the f32
  program on the same inputs, within a bound derived from the program's op
  mix (first-order error propagation with the unit roundoff of the low type
  over interval bounds of every value, plus the subnormal spacing of f16);
- finiteness: no inf or NaN where f32 is finite.

amp is told each program's input magnitudes (`input-range=`), so an
overflow in the low type is a wrong decision, not bad luck.

    amp_fuzz.py [--seed S] [--count N] [--precisions f16,bf16]
                [--placements optimal,greedy,naive] [--failures DIR]
                [--reduce] [--keep DIR]

Prints one line per failure and a summary
`N programs, M conversions: crash=C verifier=V idempotence=I numeric=U nonfinite=F`;
exits 1 when anything failed. With --failures, each failing program is
written there (with the inputs and the command that fails); with --reduce,
also reduced by mlir-reduce to the smallest program that still fails.
"""

import argparse
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, "build", "bin")
LLVM_BIN = "/usr/lib/llvm-22/bin"

# Unit roundoff and smallest subnormal of each low type.
UNIT = {"f16": 2.0 ** -11, "bf16": 2.0 ** -8}
SUBNORMAL = {"f16": 2.0 ** -24, "bf16": 0.0}
MAGNITUDES = {"one": 1.0, "hundred": 100.0, "ten-thousand": 1e4, "tiny": 1e-6,
              "zeros": 0.0}
F32_SAFE = 1e30  # the generator keeps every f32 value below this


class Value:
    """An SSA tensor value: its name, shape, magnitude bound and error bound
    (absolute, first order, in units of the low type's unit roundoff u, plus
    a term in the subnormal spacing s: err <= eu * u + es * s)."""

    def __init__(self, name, shape, bound, eu, es):
        self.name, self.shape, self.bound, self.eu, self.es = name, shape, bound, eu, es

    @property
    def type(self):
        return "tensor<%sxf32>" % "x".join(map(str, self.shape))


class Program:
    def __init__(self, rng, magnitude):
        self.rng = rng
        self.lines = []
        self.counter = 0
        rows, cols = rng.choice([1, 3, 8, 16, 17]), rng.choice([1, 4, 16, 31])
        self.shape = [rows, cols]
        self.args = []
        for i in range(rng.choice([1, 2, 3])):
            # Inputs are rounded to the low type by the conversion: one u.
            self.args.append(Value("%%arg%d" % i, self.shape, magnitude,
                                   magnitude, 1.0))
        self.magnitude = magnitude

    def fresh(self):
        self.counter += 1
        return "%%v%d" % self.counter

    def emit(self, text):
        self.lines.append("    " + text)

    def empty(self, shape):
        name = self.fresh()
        self.emit("%s = tensor.empty() : tensor<%sxf32>" % (name, "x".join(map(str, shape))))
        return name

    # Each op returns a Value or None when its bounds would leave f32's safe
    # range (then another op is tried).
    def unary(self, x):
        op = self.rng.choice(["negf", "absf", "tanh", "exp", "relu", "sqrt_abs",
                              "logistic", "square"])
        name = self.fresh()
        t = x.type
        if op == "negf" or op == "absf":
            self.emit("%s = %s %s : %s" % (name, "arith." + op if op == "negf" else "math.absf", x.name, t))
            return Value(name, x.shape, x.bound, x.eu + x.bound, x.es + 1)
        if op == "tanh":
            self.emit("%s = math.tanh %s : %s" % (name, x.name, t))
            return Value(name, x.shape, min(1.0, x.bound), x.eu + 1, x.es + 1)
        if op == "exp":
            if x.bound > 60:
                return None
            b = math.exp(x.bound)
            self.emit("%s = math.exp %s : %s" % (name, x.name, t))
            return Value(name, x.shape, b, b * x.eu + b, b * x.es + 1)
        if op == "relu":
            zero = self.fresh()
            self.emit("%s = arith.constant dense<0.0> : %s" % (zero, t))
            self.emit("%s = arith.maximumf %s, %s : %s" % (name, x.name, zero, t))
            return Value(name, x.shape, x.bound, x.eu, x.es)
        if op == "sqrt_abs":
            a = self.fresh()
            self.emit("%s = math.absf %s : %s" % (a, x.name, t))
            self.emit("%s = math.sqrt %s : %s" % (name, a, t))
            # sqrt is not Lipschitz at 0: |sqrt(a) - sqrt(b)| <= sqrt(|a - b|).
            b = math.sqrt(x.bound)
            return Value(name, x.shape, b, b + math.sqrt(x.eu) * 4 + 1,
                         math.sqrt(x.es + 1) * 64)
        if op == "logistic":
            if x.bound > 60:
                return None
            e, one, d, out = self.fresh(), self.fresh(), self.fresh(), self.fresh()
            self.emit("%s = arith.negf %s : %s" % (name, x.name, t))
            self.emit("%s = math.exp %s : %s" % (e, name, t))
            self.emit("%s = arith.constant dense<1.0> : %s" % (one, t))
            self.emit("%s = arith.addf %s, %s : %s" % (d, one, e, t))
            self.emit("%s = arith.divf %s, %s : %s" % (out, one, d, t))
            # The derivative is at most 1/4; a few roundings of values <= 1
            # (the exponential's relative error is divided by 1 + e).
            return Value(out, x.shape, 1.0, x.eu / 4 + 4, x.es + 4)
        if op == "square":
            b = x.bound * x.bound
            if b > F32_SAFE:
                return None
            self.emit("%s = arith.mulf %s, %s : %s" % (name, x.name, x.name, t))
            return Value(name, x.shape, b, 2 * x.bound * x.eu + b, 2 * x.bound * x.es + 1)

    def binary(self, x, y):
        op = self.rng.choice(["addf", "subf", "mulf", "maximumf", "minimumf"])
        name = self.fresh()
        self.emit("%s = arith.%s %s, %s : %s" % (name, op, x.name, y.name, x.type))
        if op in ("addf", "subf"):
            b = x.bound + y.bound
            return Value(name, x.shape, b, x.eu + y.eu + b, x.es + y.es + 1)
        if op == "mulf":
            b = x.bound * y.bound
            if b > F32_SAFE:
                return None
            return Value(name, x.shape, b, x.bound * y.eu + y.bound * x.eu + b,
                         x.bound * y.es + y.bound * x.es + 1)
        return Value(name, x.shape, max(x.bound, y.bound), max(x.eu, y.eu),
                     max(x.es, y.es))

    def matmul(self, x, y):
        # x (r, c) by y^T (c, r): a square-free product with K = c.
        r, c = x.shape
        t = self.fresh()
        e = self.empty([c, r])
        self.emit("%s = linalg.transpose ins(%s : %s) outs(%s : tensor<%dx%dxf32>) permutation = [1, 0]"
                  % (t, y.name, y.type, e, c, r))
        out = self.empty([r, r])
        z, acc, name = self.fresh(), self.fresh(), self.fresh()
        self.emit("%s = arith.constant 0.0 : f32" % z)
        self.emit("%s = linalg.fill ins(%s : f32) outs(%s : tensor<%dx%dxf32>) -> tensor<%dx%dxf32>"
                  % (acc, z, out, r, r, r, r))
        self.emit("%s = linalg.matmul ins(%s, %s : %s, tensor<%dx%dxf32>) outs(%s : tensor<%dx%dxf32>) -> tensor<%dx%dxf32>"
                  % (name, x.name, t, x.type, c, r, acc, r, r, r, r))
        b = c * x.bound * y.bound
        if b > F32_SAFE:
            return None
        # Long sums accumulate in f32 (amp's policy), short ones may not: the
        # sum's rounding is bounded by c u b either way.
        return Value(name, [r, r], b, c * (x.bound * y.eu + y.bound * x.eu) + c * b + b,
                     c * (x.bound * y.es + y.bound * x.es) + c)

    def row_sum(self, x):
        r, c = x.shape
        out = self.empty([r])
        z, acc, s = self.fresh(), self.fresh(), self.fresh()
        self.emit("%s = arith.constant 0.0 : f32" % z)
        self.emit("%s = linalg.fill ins(%s : f32) outs(%s : tensor<%dxf32>) -> tensor<%dxf32>"
                  % (acc, z, out, r, r))
        self.emit("%s = linalg.reduce ins(%s : %s) outs(%s : tensor<%dxf32>) dimensions = [1]" % (s, x.name, x.type, acc, r))
        self.emit("  (%in: f32, %init: f32) { %a = arith.addf %in, %init : f32\n      linalg.yield %a : f32 }")
        e = self.empty([r, c])
        name = self.fresh()
        self.emit("%s = linalg.broadcast ins(%s : tensor<%dxf32>) outs(%s : %s) dimensions = [1]"
                  % (name, s, r, e, x.type))
        b = c * x.bound
        return Value(name, x.shape, b, c * x.eu + c * b + b, c * x.es + c)

    def softmax(self, x):
        e = self.empty(x.shape)
        name = self.fresh()
        self.emit("%s = linalg.softmax dimension(1) ins(%s : %s) outs(%s : %s) -> %s"
                  % (name, x.name, x.type, e, x.type, x.type))
        # Bounded in [0, 1]; the error of its input enters through the
        # exponentials relative to their sum: at most 2 err_x.
        return Value(name, x.shape, 1.0, 2 * x.eu + 8, 2 * x.es + 8)

    def select(self, x, y):
        # scf.if on a scalar of x: both branches are values of this program.
        zero_i, elem, cond, name = self.fresh(), self.fresh(), self.fresh(), self.fresh()
        self.emit("%s = arith.constant 0 : index" % zero_i)
        self.emit("%s = tensor.extract %s[%s, %s] : %s" % (elem, x.name, zero_i, zero_i, x.type))
        zf = self.fresh()
        self.emit("%s = arith.constant 0.0 : f32" % zf)
        self.emit("%s = arith.cmpf ogt, %s, %s : f32" % (cond, elem, zf))
        self.emit("%s = scf.if %s -> (%s) {\n      scf.yield %s : %s\n    } else {\n      scf.yield %s : %s\n    }"
                  % (name, cond, x.type, x.name, x.type, y.name, x.type))
        # Rounding may flip the branch when x[0, 0] is within its error of 0:
        # the generator only uses it on exact zeros or on inputs, see below.
        return Value(name, x.shape, max(x.bound, y.bound), max(x.eu, y.eu), max(x.es, y.es))

    def generate(self, length):
        pool = list(self.args)
        steps = 0
        tries = 0
        while steps < length and tries < length * 10:
            tries += 1
            kind = self.rng.choice(["unary", "unary", "binary", "binary", "matmul",
                                    "row_sum", "softmax", "select"])
            x = self.rng.choice(pool)
            same = [v for v in pool if v.shape == x.shape]
            y = self.rng.choice(same)
            if kind == "unary":
                v = self.unary(x)
            elif kind == "binary":
                v = self.binary(x, y)
            elif kind == "matmul" and len(x.shape) == 2:
                v = self.matmul(x, y)
            elif kind == "row_sum":
                v = self.row_sum(x)
            elif kind == "softmax":
                v = self.softmax(x)
            elif kind == "select" and x in self.args and x.shape == y.shape:
                # Branch on an input: rounded to the low type it keeps its
                # sign (rounding never crosses zero).
                v = self.select(x, y)
            else:
                v = None
            if v is None:
                continue
            pool.append(v)
            steps += 1
        results = [v for v in pool[len(self.args):]][-2:] or [self.args[0]]
        return results

    def text(self, results):
        params = ", ".join("%s: %s" % (a.name, a.type) for a in self.args)
        rtypes = ", ".join(r.type for r in results)
        body = "\n".join(self.lines)
        return ("func.func @main(%s) -> (%s) {\n%s\n    return %s : %s\n}\n"
                % (params, rtypes, body, ", ".join(r.name for r in results), rtypes))


def run(cmd, **kw):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)
    except (OSError, subprocess.TimeoutExpired) as e:
        return subprocess.CompletedProcess(cmd, -1, "", "%s: %s" % (cmd[0], e))


def tolerance(value, low):
    return value.eu * UNIT[low] + value.es * SUBNORMAL[low]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--length", type=int, default=6)
    ap.add_argument("--precisions", default="f16,bf16")
    ap.add_argument("--placements", default="optimal,greedy,naive")
    ap.add_argument("--failures", help="write failing programs to this folder")
    ap.add_argument("--reduce", action="store_true",
                    help="reduce failing programs with mlir-reduce")
    ap.add_argument("--keep", help="keep every program and result here")
    ap.add_argument("--bin", default=BIN,
                    help="folder of amp-opt and amp-run (default: build/bin)")
    args = ap.parse_args()
    amp_opt = os.path.join(args.bin, "amp-opt")
    amp_run = os.path.join(args.bin, "amp-run")
    precisions = args.precisions.split(",")
    placements = args.placements.split(",")
    counts = {"crash": 0, "verifier": 0, "idempotence": 0, "numeric": 0, "nonfinite": 0}
    conversions = 0
    failures = []
    with tempfile.TemporaryDirectory(prefix="amp-fuzz-") as scratch:
        work = args.keep or scratch
        os.makedirs(work, exist_ok=True)
        for index in range(args.count):
            seed = args.seed * 1000003 + index
            rng = random.Random(seed)
            magnitude_class = rng.choice(list(MAGNITUDES))
            magnitude = MAGNITUDES[magnitude_class]
            program = Program(rng, magnitude)
            results = program.generate(rng.randint(1, args.length))
            stem = os.path.join(work, "p%d" % seed)
            src = stem + ".mlir"
            with open(src, "w") as f:
                f.write(program.text(results))
            # Inputs of the class: uniform in [-m, m] with a few exact zeros
            # and extremes.
            nprng = np.random.default_rng(seed)
            inputs = stem + ".in"
            os.makedirs(inputs, exist_ok=True)
            for i, a in enumerate(program.args):
                x = nprng.uniform(-1, 1, a.shape).astype(np.float32) * np.float32(magnitude)
                x.flat[0] = np.float32(magnitude) if x.size > 1 else x.flat[0]
                if x.size > 2:
                    x.flat[1] = 0.0
                np.save(os.path.join(inputs, "arg%d.npy" % i), x)
            ins = ",".join(os.path.join(inputs, "arg%d.npy" % i) for i in range(len(program.args)))
            ref = run([amp_run, src, "--entry=main", "--input=" + ins, "--threads=1",
                       "--output=" + ",".join("%s.f32.%d.npy" % (stem, k) for k in range(len(results)))])
            if ref.returncode != 0:
                counts["crash"] += 1
                failures.append((src, "f32", "-", "amp-run of the f32 program failed", ref.stderr))
                continue
            expected = [np.load("%s.f32.%d.npy" % (stem, k)).astype(np.float64)
                        for k in range(len(results))]
            bound = max(magnitude, 1e-30)
            for low in precisions:
                for placement in placements:
                    conversions += 1
                    opts = "precision=%s placement=%s input-range=%g:%g" % (
                        low, placement, -bound, bound)
                    out = "%s.%s.%s.mlir" % (stem, low, placement)
                    conv = run([amp_opt, src, "--mixed-precision=" + opts, "-o", out])
                    what = "%s %s" % (low, placement)
                    if conv.returncode != 0 or "Stack dump" in conv.stderr:
                        kind = "crash" if conv.returncode < 0 or "Stack dump" in conv.stderr else "verifier"
                        counts[kind] += 1
                        failures.append((src, what, opts, kind, conv.stderr[-2000:]))
                        continue
                    verify = run([amp_opt, out, "-o", os.devnull])
                    if verify.returncode != 0:
                        counts["verifier"] += 1
                        failures.append((src, what, opts, "verifier", verify.stderr[-2000:]))
                        continue
                    again = run([amp_opt, out, "--mixed-precision=" + opts])
                    if again.returncode != 0 or again.stdout != open(out).read():
                        counts["idempotence"] += 1
                        failures.append((src, what, opts, "idempotence",
                                         again.stderr[-2000:]))
                        continue
                    got = run([amp_run, out, "--entry=main", "--input=" + ins, "--threads=1",
                               "--output=" + ",".join("%s.%s.%s.%d.npy" % (stem, low, placement, k)
                                                      for k in range(len(results)))])
                    if got.returncode != 0:
                        counts["crash"] += 1
                        failures.append((src, what, opts, "amp-run of the converted program failed",
                                         got.stderr[-2000:]))
                        continue
                    for k, value in enumerate(results):
                        actual = np.load("%s.%s.%s.%d.npy" % (stem, low, placement, k)).astype(np.float64)
                        finite = np.isfinite(expected[k])
                        if np.any(finite & ~np.isfinite(actual)):
                            counts["nonfinite"] += 1
                            failures.append((src, what, opts, "nonfinite",
                                             "result %d is inf/NaN where f32 is finite" % k))
                            break
                        tol = tolerance(value, low) * 1.0 + 1e-30
                        err = np.max(np.abs(actual - expected[k])[finite], initial=0.0)
                        if err > tol:
                            counts["numeric"] += 1
                            failures.append((src, what, opts, "numeric",
                                             "result %d: max abs error %.3g > bound %.3g"
                                             % (k, err, tol)))
                            break
        for src, what, opts, kind, detail in failures:
            print("FAIL %s [%s] %s: %s" % (os.path.basename(src), what, kind,
                                           detail.strip().splitlines()[-1] if detail.strip() else ""))
            if args.failures:
                os.makedirs(args.failures, exist_ok=True)
                base = os.path.join(args.failures, os.path.basename(src))
                shutil.copy(src, base)
                inputs = src[:-len(".mlir")] + ".in"
                if os.path.isdir(inputs):
                    shutil.copytree(inputs, base[:-len(".mlir")] + ".in", dirs_exist_ok=True)
                with open(base + ".txt", "w") as f:
                    f.write("%s: %s\noptions: %s\n%s\n" % (what, kind, opts, detail))
                if args.reduce and kind in ("crash", "verifier", "idempotence"):
                    reduce_failure(base, opts, kind, amp_opt)
    total = sum(counts.values())
    print("%d programs, %d conversions: crash=%d verifier=%d idempotence=%d numeric=%d nonfinite=%d"
          % (args.count, conversions, counts["crash"], counts["verifier"],
             counts["idempotence"], counts["numeric"], counts["nonfinite"]))
    return 1 if total else 0


def reduce_failure(path, opts, kind, amp_opt):
    """mlir-reduce `path` to the smallest program on which amp-opt still
    fails the same way. mlir-reduce calls a test interesting when it exits
    with 1; the candidate must itself be a valid program."""
    script = path + ".interesting.sh"
    convert = "%s \"$1\" --mixed-precision='%s'" % (amp_opt, opts)
    with open(script, "w") as f:
        f.write("#!/bin/sh\n%s \"$1\" -o /dev/null 2>/dev/null || exit 0\n" % amp_opt)
        if kind == "idempotence":
            f.write("%s -o \"$1.once\" 2>/dev/null || exit 0\n" % convert)
            f.write("%s \"$1.once\" --mixed-precision='%s' 2>/dev/null | cmp -s - \"$1.once\" || exit 1\n"
                    % (amp_opt, opts))
        elif kind == "crash":
            f.write("%s -o /dev/null 2>&1 | grep -q 'Stack dump' && exit 1\n" % convert)
        else:
            f.write("%s -o /dev/null 2>/dev/null || exit 1\n" % convert)
        f.write("exit 0\n")
    os.chmod(script, 0o755)
    run([os.path.join(LLVM_BIN, "mlir-reduce"), path,
         "--reduction-tree=traversal-mode=0 test=" + script,
         "-o", path[:-len(".mlir")] + ".reduced.mlir"])


if __name__ == "__main__":
    sys.exit(main())

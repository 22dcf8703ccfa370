#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Check an imported model against ONNX Runtime on the same inputs.

    python3 tools/onnx/check.py MODEL.onnx --shape x=1,3,48,192 \
        [--input x=x.npy] [--precision f16|bf16] [--rtol R --atol A]

Imports the model (amp.onnx), runs it on the CPU with amp-run (optionally
after --mixed-precision), runs ONNX Runtime (f32, tools/onnx/reference.py)
on the same inputs and prints, per output, the max abs/rel error. Inputs
not given are random (seeded normal floats). Exits non-zero when an output
differs by more than atol + rtol * |reference|.
"""

import argparse
import os
import sys

import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(1, os.path.join(HERE, "..", "..", "python"))

from amp.onnx import OnnxImportError, import_model, signature  # noqa: E402
from amp.onnx.__main__ import _shape  # noqa: E402
from reference import ReferenceError, run_reference  # noqa: E402
from runner import RunError, parse_type, run_mlir  # noqa: E402


def compare(result, reference, rtol, atol):
    result = np.asarray(result, dtype=np.float64)
    reference = np.asarray(reference, dtype=np.float64)
    if result.shape != reference.shape:
        return False, "shape %s, reference %s" % (list(result.shape), list(reference.shape))
    if result.size == 0:
        return True, "empty"
    err = np.abs(result - reference)
    bad = err > atol + rtol * np.abs(reference)
    nan_mismatch = np.isnan(result) != np.isnan(reference)
    scale = np.abs(reference).max()
    rel = (err / np.maximum(np.abs(reference), 1e-3 * max(scale, 1e-30))).max()
    msg = "max_abs_err=%.3g max_rel_err=%.3g max|ref|=%.3g" % (np.nanmax(err), rel, scale)
    ok = not bad.any() and not nan_mismatch.any()
    if not ok:
        msg += " (%d of %d elements out of tolerance)" % (int(bad.sum() + nan_mismatch.sum()),
                                                          result.size)
    return ok, msg


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 tools/onnx/check.py",
                                description=__doc__.splitlines()[1])
    p.add_argument("model")
    p.add_argument("--shape", action="append", type=_shape, default=[], metavar="NAME=D0,...")
    p.add_argument("--input", action="append", default=[], metavar="NAME=FILE.npy")
    p.add_argument("--precision", choices=["f32", "f16", "bf16"], default="f32")
    p.add_argument("--options", default="", help="extra mixed-precision options")
    p.add_argument("--rtol", type=float, default=None)
    p.add_argument("--atol", type=float, default=None)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    tol = {"f32": (1e-4, 1e-4), "f16": (2e-2, 2e-2), "bf16": (1e-1, 1e-1)}[args.precision]
    rtol = args.rtol if args.rtol is not None else tol[0]
    atol = args.atol if args.atol is not None else tol[1]
    model = onnx.load(args.model)
    try:
        text = import_model(model, dict(args.shape))
    except OnnxImportError as e:
        print(e, file=sys.stderr)
        return 1
    given = {}
    for spec in args.input:
        name, _, path = spec.rpartition("=")
        given[name] = np.load(path)
    names, _ = signature(text)
    rng = np.random.default_rng(args.seed)
    inputs = {}
    for name, ty in names:
        dims, et, dtype = parse_type(ty)
        if name in given:
            inputs[name] = np.asarray(given[name]).astype(dtype)
        elif np.issubdtype(dtype, np.floating):
            inputs[name] = rng.standard_normal(dims).astype(dtype)
        else:
            print("check: give integer input %s with --input" % name, file=sys.stderr)
            return 1
    try:
        outs = run_mlir(text, list(inputs.values()),
                        precision=None if args.precision == "f32" else args.precision,
                        options=args.options)
        ref = run_reference(args.model, inputs)
    except (RunError, ReferenceError) as e:
        print("check: %s" % e, file=sys.stderr)
        return 1
    ok_all = True
    for (name, r), o in zip(ref.items(), outs):
        ok, msg = compare(o, r, rtol, atol)
        ok_all &= ok
        print("%s %s: %s %s" % (args.precision, name, msg, "OK" if ok else "FAIL"))
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ONNX's own operator test cases, run through the importer.

    python3 tools/onnx/conformance.py [OP ...] [--precision f16|bf16] [-v]

python3-onnx ships the generators of ONNX's backend node tests (a model per
case with inputs and expected outputs computed in numpy). For every
supported operator (or those named), each case is imported (amp.onnx), run
on the CPU with amp-run (tools/onnx/runner.py: exact .npy inputs and
results) and compared with ONNX's expected outputs. A case
the importer refuses (an attribute or type it does not support) is counted
as refused, with the reason; a case that imports but computes something
else is a failure — the importer must never produce a wrong model. Exits
non-zero on any failure.
"""

import argparse
import os
import sys
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(1, os.path.join(HERE, "..", "..", "python"))

from amp.onnx import OnnxImportError, import_model, supported_ops  # noqa: E402
from runner import run_each  # noqa: E402


def _numpy_compat():
    # The generators in Debian's python3-onnx 1.12 use aliases newer numpy
    # removed (np.float, ...).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, t in (("float", float), ("int", int), ("bool", bool), ("object", object),
                        ("complex", complex), ("str", str)):
            try:
                getattr(np, name)
            except AttributeError:
                setattr(np, name, t)


def collect(ops):
    _numpy_compat()
    warnings.filterwarnings("ignore")
    from onnx.backend.test.case.node import collect_testcases
    wanted = set(ops)
    cases = []
    # An empty op type collects every case (the generators run once).
    for c in collect_testcases(""):
        nodes = [n.op_type for n in c.model.graph.node]
        if nodes and nodes[-1] in wanted:
            cases.append((nodes[-1], c))
    return cases


def _compare(out, exp, rtol, atol):
    out = np.asarray(out)
    exp = np.asarray(exp)
    if out.shape != exp.shape:
        return "shape %s, expected %s" % (list(out.shape), list(exp.shape))
    if exp.dtype == np.bool_:
        exp = exp.astype(np.int32)
    o, e = out.astype(np.float64), exp.astype(np.float64)
    bad = ~np.isclose(o, e, rtol=rtol, atol=atol, equal_nan=True)
    if bad.any():
        return "max_abs_err=%.3g at %d of %d elements" % (np.nanmax(np.abs(o - e)), bad.sum(),
                                                          o.size)
    return None


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 tools/onnx/conformance.py",
                                description=__doc__.splitlines()[1])
    p.add_argument("ops", nargs="*", help="operators (default: all supported)")
    p.add_argument("--precision", choices=["f32", "f16", "bf16"], default="f32")
    p.add_argument("-v", "--verbose", action="store_true", help="print every case")
    args = p.parse_args(argv)
    ops = args.ops or [op for op, _ in supported_ops()]
    prec = None if args.precision == "f32" else args.precision
    rtol_floor, atol_floor = {"f32": (1e-4, 1e-5), "f16": (2e-2, 2e-2),
                              "bf16": (1e-1, 1e-1)}[args.precision]
    runnable, refused, failed, passed = [], [], [], []
    for op, c in collect(ops):
        inputs, expected = c.data_sets[0]
        graph_inputs = [i.name for i in c.model.graph.input
                        if i.name not in {t.name for t in c.model.graph.initializer}]
        if any(isinstance(x, (list, tuple, dict)) or x is None
               for x in list(inputs) + list(expected)):
            refused.append((c.name, "sequence or optional values"))
            continue
        shapes = {n: np.asarray(x).shape for n, x in zip(graph_inputs, inputs)}
        try:
            text = import_model(c.model, shapes=shapes, func_name=c.name)
        except OnnxImportError as e:
            refused.append((c.name, str(e).split(": ", 2)[-1]))
            continue
        if any(np.asarray(x).dtype.kind in "OSU" for x in list(inputs) + list(expected)):
            refused.append((c.name, "string tensors"))
            continue
        runnable.append((c, text, inputs, expected))

    results = run_each([(t, [np.asarray(x) for x in i], c.name)
                        for c, t, i, _ in runnable], prec)
    for (c, text, inputs, expected), outs in zip(runnable, results):
        if isinstance(outs, Exception):
            lines = [l for l in str(outs).strip().splitlines() if "error" in l] or \
                str(outs).strip().splitlines()
            failed.append((c.name, "does not compile or run: %s" % lines[0][:300]))
            continue
        rtol, atol = max(c.rtol, rtol_floor), max(c.atol, atol_floor)
        why = None
        if len(outs) < len(expected):
            why = "%d results, expected %d" % (len(outs), len(expected))
        for o, e in zip(outs, expected):
            why = why or _compare(o, e, rtol, atol)
        (failed if why else passed).append((c.name, why))
    for name, why in sorted(refused):
        if args.verbose:
            print("refused %s: %s" % (name, why))
    for name, _ in sorted(passed):
        if args.verbose:
            print("passed  %s" % name)
    for name, why in sorted(failed):
        print("FAILED  %s: %s" % (name, why))
    print("conformance (%s): %d passed, %d refused, %d failed"
          % (args.precision, len(passed), len(refused), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Shared helpers for the ONNX import tests (not a test itself).

A test builds small ONNX graphs with onnx.helper, imports each with
amp.onnx, prints the ops of the imported function (for FileCheck), then
runs all of them on the CPU in one go with amp-run (tools/onnx/runner.py:
$AMP_RUN, $AMP_OPT, else build/bin) and compares each result with a numpy
reference of the ONNX op:

    suite = Suite()
    suite.case("relu", model, {"x": x}, [np.maximum(x, 0)], show=["tosa.clamp"])
    suite.run()             # prints "<name>: OK ..." or "<name>: FAIL ..."

With precisions=("f16", "bf16") the cases are also converted by
--mixed-precision and compared with the looser tolerances given.
"""

import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "tools", "onnx"))

import amp.onnx  # noqa: E402
import runner  # noqa: E402

_NP_TO_ONNX = {np.dtype(np.float32): onnx.TensorProto.FLOAT,
               np.dtype(np.int64): onnx.TensorProto.INT64,
               np.dtype(np.int32): onnx.TensorProto.INT32,
               np.dtype(np.bool_): onnx.TensorProto.BOOL}


def rand(*shape, seed=0, lo=None, hi=None):
    rng = np.random.default_rng(seed)
    if lo is not None:
        return rng.uniform(lo, hi, shape).astype(np.float32)
    return rng.standard_normal(shape).astype(np.float32)


def model(nodes, inputs, outputs, initializers=None, opset=13, dynamic=None):
    """inputs: {name: array or (dtype, shape)}; outputs: names;
    dynamic: {input name: [dims to make symbolic]}."""
    ins = []
    for name, v in inputs.items():
        dtype, shape = (v.dtype, list(v.shape)) if isinstance(v, np.ndarray) else v
        shape = list(shape)
        for d in (dynamic or {}).get(name, []):
            shape[d] = "N%d" % d
        ins.append(helper.make_tensor_value_info(name, _NP_TO_ONNX[np.dtype(dtype)], shape))
    # Output types are not needed by the importer; ONNX Runtime wants them.
    outs = [helper.make_tensor_value_info(o, onnx.TensorProto.FLOAT, None) for o in outputs]
    inits = [numpy_helper.from_array(np.asarray(a), n) for n, a in (initializers or {}).items()]
    graph = helper.make_graph(nodes, "test", ins, outs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def node(op, inputs, outputs, **attrs):
    return helper.make_node(op, inputs, outputs, name=outputs[0] if outputs else op, **attrs)


def compare(result, expected, rtol, atol):
    result = np.asarray(result, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    if result.shape != expected.shape:
        return False, "shape %s, expected %s" % (list(result.shape), list(expected.shape))
    err = np.abs(result - expected)
    ok = bool(np.all(err <= atol + rtol * np.abs(expected)))
    return ok, "max_abs_err=%.2g" % (err.max() if err.size else 0.0)


class Suite:
    def __init__(self, precisions=(), tolerances=None):
        self.cases = []
        self.precisions = precisions
        self.tolerances = tolerances or {"f16": (2e-2, 2e-2), "bf16": (8e-2, 8e-2)}

    def case(self, name, m, feeds, expected, rtol=1e-5, atol=1e-5, shapes=None, show=()):
        """Import now (printing the ops named in show); run later."""
        text = amp.onnx.import_model(m, shapes=shapes, func_name=name)
        print("// CASE %s" % name)
        for line in text.splitlines():
            s = line.strip()
            if any(s.split(" = ", 1)[-1].startswith(op) for op in show):
                print(s[:400])
        self.cases.append((name, text, list(feeds.values()), expected, rtol, atol))
        return text

    def run(self):
        runs = failed = 0
        for prec in [None] + list(self.precisions):
            results = runner.run_many([(t, f, n) for n, t, f, _, _, _ in self.cases], prec)
            for (name, _, _, expected, rtol, atol), outs in zip(self.cases, results):
                if prec:
                    rtol, atol = self.tolerances[prec]
                oks, msgs = [], []
                for o, e in zip(outs, expected):
                    ok, msg = compare(o, e, rtol, atol)
                    oks.append(ok)
                    msgs.append(msg)
                status = "OK" if all(oks) and len(outs) == len(expected) else "FAIL"
                runs += 1
                failed += status != "OK"
                print("%s: %s %s %s" % (name, prec or "f32", status, " ".join(msgs)))
        print("ONNX-SUITE %d runs, %d failed" % (runs, failed))

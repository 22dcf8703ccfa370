# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ONNX Runtime as the f32 reference for imported models.

    from reference import run_reference, available      # tools/onnx on sys.path
    outputs = run_reference("model.onnx", {"x": x})   # {name: ndarray}

or from the shell:

    python3 tools/onnx/reference.py model.onnx --input x=x.npy -o outdir/

ONNX Runtime comes from the npm registry (onnxruntime-node, CPU provider),
installed into tools/onnx/ort/node_modules by scripts/setup-reference.sh;
node runs ort/run_ort.js. It is a reference for f32 results only: its CPU
provider has no f16 compute kernels.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

# The Node.js project: run_ort.js, package.json and, once installed,
# node_modules/onnxruntime-node.
ORT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ort")

_DTYPES = {"float32": np.float32, "int64": np.int64, "int32": np.int32, "uint8": np.uint8,
           "int8": np.int8, "bool": np.bool_, "float64": np.float64}


class ReferenceError(Exception):
    pass


def available():
    """True when node and onnxruntime-node are installed."""
    return shutil.which("node") is not None and os.path.isdir(
        os.path.join(ORT_DIR, "node_modules", "onnxruntime-node"))


def run_reference(model, inputs):
    """Outputs of ONNX Runtime (CPU) for {input name: ndarray}, by output name."""
    if not available():
        raise ReferenceError("onnxruntime-node is not installed: run scripts/setup-reference.sh")
    with tempfile.TemporaryDirectory(prefix="amp-ort-") as tmp:
        if not isinstance(model, str):
            path = os.path.join(tmp, "model.onnx")
            with open(path, "wb") as f:
                f.write(model.SerializeToString())
            model = path
        spec = []
        for i, (name, x) in enumerate(inputs.items()):
            x = np.ascontiguousarray(x)
            dtype = {np.dtype(v): k for k, v in _DTYPES.items()}.get(x.dtype)
            if dtype is None:
                raise ReferenceError("input %s: dtype %s is not supported" % (name, x.dtype))
            f = os.path.join(tmp, "in%d.bin" % i)
            x.astype(x.dtype.newbyteorder("<")).tofile(f)
            spec.append({"name": name, "dtype": dtype, "shape": list(x.shape), "file": f})
        outdir = os.path.join(tmp, "out")
        os.mkdir(outdir)
        io = os.path.join(tmp, "io.json")
        with open(io, "w") as f:
            json.dump({"inputs": spec, "outdir": outdir}, f)
        p = subprocess.run(["node", os.path.join(ORT_DIR, "run_ort.js"), model, io],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            raise ReferenceError(p.stderr.strip() or "run_ort.js failed")
        with open(os.path.join(outdir, "outputs.json")) as f:
            listing = json.load(f)
        out = {}
        for o in listing:
            arr = np.fromfile(o["file"], dtype=_DTYPES[o["dtype"]]).reshape(o["shape"])
            out[o["name"]] = arr
        return out


_CLI_DOC = "Write OUTDIR/<output name>.npy for every model output (ONNX Runtime, CPU)."


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 tools/onnx/reference.py",
                                     description=_CLI_DOC)
    parser.add_argument("model")
    parser.add_argument("--input", action="append", default=[], metavar="NAME=FILE.npy")
    parser.add_argument("-o", "--outdir", required=True)
    args = parser.parse_args(argv)
    inputs = {}
    for spec in args.input:
        name, sep, path = spec.rpartition("=")
        if not sep:
            parser.error("--input wants NAME=FILE.npy, got %s" % spec)
        inputs[name] = np.load(path)
    try:
        outs = run_reference(args.model, inputs)
    except ReferenceError as e:
        print("reference: %s" % e, file=sys.stderr)
        return 1
    os.makedirs(args.outdir, exist_ok=True)
    for name, arr in outs.items():
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
        np.save(os.path.join(args.outdir, safe + ".npy"), arr)
        print("%s: %s %s -> %s.npy" % (name, arr.dtype, list(arr.shape), safe))
    return 0


if __name__ == "__main__":
    sys.exit(main())

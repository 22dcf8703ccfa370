"""python3 -m amp.onnx.reference MODEL.onnx --input NAME=FILE.npy ... -o OUTDIR

Writes OUTDIR/<output name>.npy for every model output (ONNX Runtime, CPU)."""

import argparse
import os
import re
import sys

import numpy as np

from . import ReferenceError, run_reference


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m amp.onnx.reference",
                                     description=__doc__.splitlines()[0])
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
        print("amp.onnx.reference: %s" % e, file=sys.stderr)
        return 1
    os.makedirs(args.outdir, exist_ok=True)
    for name, arr in outs.items():
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
        np.save(os.path.join(args.outdir, safe + ".npy"), arr)
        print("%s: %s %s -> %s.npy" % (name, arr.dtype, list(arr.shape), safe))
    return 0


if __name__ == "__main__":
    sys.exit(main())

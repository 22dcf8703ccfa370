# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Command line: python3 -m amp.onnx MODEL.onnx [--shape NAME=D0,D1,...]
[--const NAME=VALUE] [-o OUT.mlir]"""

import argparse
import sys

from . import OnnxImportError, import_model, supported_ops


def _shape(text):
    name, sep, dims = text.rpartition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError("expected NAME=D0,D1,... got '%s'" % text)
    try:
        return name, tuple(int(d) for d in dims.split(",") if d.strip() != "")
    except ValueError:
        raise argparse.ArgumentTypeError("dimensions must be integers in '%s'" % text)


def _const(text):
    name, sep, value = text.partition("=")
    if not sep or not name or not value.strip():
        raise argparse.ArgumentTypeError("expected NAME=VALUE (VALUE: a number, true/false, "
                                         "or a comma-separated list), got '%s'" % text)
    items = []
    for item in value.split(","):
        item = item.strip()
        if item.lower() in ("true", "false"):
            items.append(item.lower() == "true")
            continue
        try:
            items.append(int(item))
        except ValueError:
            try:
                items.append(float(item))
            except ValueError:
                raise argparse.ArgumentTypeError("'%s' in --const %s is not a number or "
                                                 "true/false" % (item, text))
    return name, items[0] if len(items) == 1 and "," not in value else items


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m amp.onnx",
        description="Import an ONNX model as MLIR (TOSA/linalg on tensors) for amp.")
    parser.add_argument("model", nargs="?", help="the .onnx file")
    parser.add_argument("--shape", action="append", type=_shape, default=[],
                        metavar="NAME=D0,D1,...",
                        help="static shape of a graph input (repeat for several inputs)")
    parser.add_argument("--const", action="append", type=_const, default=[],
                        metavar="NAME=VALUE",
                        help="bind a graph input to a value at import time (a number, "
                             "true/false or V0,V1,...; repeat for several inputs); Ifs on "
                             "it fold away")
    parser.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    parser.add_argument("--func-name", default="main", help="name of the emitted function")
    parser.add_argument("--list-ops", action="store_true", help="print the supported operators")
    args = parser.parse_args(argv)
    if args.list_ops:
        for op, note in supported_ops():
            print("%s%s" % (op, " (%s)" % note if note else ""))
        return 0
    if not args.model:
        parser.error("the model is required")
    try:
        text = import_model(args.model, dict(args.shape), func_name=args.func_name,
                            consts=dict(args.const))
    except OnnxImportError as e:
        print(str(e), file=sys.stderr)
        return 1
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

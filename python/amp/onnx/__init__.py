# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ONNX import for amp: an ONNX model as one MLIR function on tensors.

    import amp.onnx
    mlir = amp.onnx.import_model("model.onnx", shapes={"x": (1, 3, 48, 320)})

or from the shell (PYTHONPATH=python):

    /usr/bin/python3 -m amp.onnx model.onnx --shape x=1,3,48,320 -o model.mlir

The result is TOSA (plus linalg/tensor/arith/math where TOSA has no op) on
static shapes, weights as dense constants, ready for `amp-opt
--mixed-precision` and amp's lowering pipelines. See docs/ONNX.md.
This package needs only numpy and Debian's python3-onnx.

The stages, each importing only those before it: `_errors` (the error
types), `_ir` (types, constants, values), `_emitter` (spelling and SSA
names), `_builders` and `_registry` (shared op building blocks; the op
registry), the op modules (`_fold`, `_ops_elementwise`, `_ops_shape`,
`_ops_nn`, `_ops_recurrent`, `_resize`: each registers its converters),
`_importer` (the graph walk), then this package and `__main__` (the
command line). Checking imports against ONNX Runtime and ONNX's
conformance cases are tools outside the package: tools/onnx/.
"""

import re

import onnx

from ._errors import OnnxImportError
from ._importer import CONTROL_FLOW_OPS, import_graph
from ._registry import supported_ops as _supported_ops

__all__ = ["OnnxImportError", "import_model", "signature", "supported_ops"]


def import_model(model, shapes=None, func_name="main", consts=None):
    """MLIR text for an ONNX model (a path, bytes or an onnx.ModelProto).

    shapes maps graph input names to full static shapes; it is required for
    inputs with symbolic or unknown dimensions. consts maps graph input
    names to values (a number, bool or nested list) bound at import time:
    such an input is a constant, not an argument, so Ifs on it fold away. Raises OnnxImportError with
    the offending node's name and op for anything that cannot be imported
    faithfully.
    """
    if hasattr(model, "__fspath__"):
        model = model.__fspath__()
    try:
        if isinstance(model, str):
            model = onnx.load(model)
        elif isinstance(model, bytes):
            model = onnx.load_from_string(model)
    except Exception as e:
        raise OnnxImportError("amp.onnx: cannot read the model: %s" % e) from None
    if not isinstance(model, onnx.ModelProto):
        raise OnnxImportError("amp.onnx: expected a path, bytes or onnx.ModelProto")
    return import_graph(model, shapes, func_name, consts)


def supported_ops():
    """(op, note) for each ONNX operator the importer converts or folds."""
    return sorted(_supported_ops() + [(op, "") for op in CONTROL_FLOW_OPS])


def signature(text):
    """The ONNX names and MLIR types of an imported function's arguments and
    results, in order: ([(name, "tensor<...>")], [(name, "tensor<...>")]),
    read from the comment import_model writes at the top of its output."""
    ins = re.findall(r"^//   input  (\S+): (tensor<[^>]*>)$", text, re.M)
    outs = re.findall(r"^//   output (\S+): (tensor<[^>]*>)$", text, re.M)
    return ins, outs

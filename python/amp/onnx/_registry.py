# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The op registry: ONNX op type -> how to import it.

Op modules register what they handle when they are imported:

    @converter("Relu")
    def _relu(em, node, inputs): ...      # emits MLIR, returns output Values

    @folder("Shape", reads_data=False)
    def _shape(node, arrays): ...         # numpy, for constant inputs

`convert()` dispatches one node: folded in numpy when a folder exists and
every input is a constant (shape subgraphs, weight preprocessing), else
converted. The registry imports no op module; the importer imports them all
(`_importer.py`), so the registry is complete once `amp.onnx` is imported.
"""

import numpy as np
import onnx

from ._errors import NodeError
from ._ir import Value

CONVERTERS = {}
FOLDERS = {}
_SHAPE_ONLY = set()       # folders that read only their input's shape
_NO_NOTE = set()          # folded-only ops that need no "constant inputs" note


class Node:
    """What a converter sees of an ONNX node."""

    def __init__(self, proto, opset):
        self.proto = proto
        self.name = proto.name or (proto.output[0] if proto.output else proto.op_type)
        self.op_type = proto.op_type
        self.opset = opset
        self.attrs = {a.name: onnx.helper.get_attribute_value(a) for a in proto.attribute}
        self._used = set()

    def attr(self, name, default=None):
        self._used.add(name)
        value = self.attrs.get(name, default)
        if isinstance(value, bytes):
            value = value.decode("utf-8")
        return value

    def ignore(self, *names):
        """Attributes that do not change inference results."""
        self._used.update(names)

    def unused_attrs(self):
        return sorted(set(self.attrs) - self._used)


def converter(*names):
    """Registers fn(em, node, inputs) -> output Value or list of Values for
    these op types."""
    def register(fn):
        for n in names:
            if n in CONVERTERS:
                raise ValueError("amp.onnx: two converters for %s" % n)
            CONVERTERS[n] = fn
        return fn
    return register


def folder(*names, reads_data=True, noted=True):
    """Registers fn(node, arrays) -> list of arrays, which evaluates these op
    types in numpy when all their inputs are constants. reads_data=False:
    only the input's shape is read (Shape, Size), so the node folds whatever
    its input. noted=False: supported_ops() lists the op without "constant
    inputs only" even when no converter handles it (its inputs are shapes)."""
    def register(fn):
        for n in names:
            if n in FOLDERS:
                raise ValueError("amp.onnx: two folders for %s" % n)
            FOLDERS[n] = fn
            if not reads_data:
                _SHAPE_ONLY.add(n)
            if not noted:
                _NO_NOTE.add(n)
        return fn
    return register


def supported_ops():
    """(op, note) for every operator the importer handles."""
    folded_only = set(FOLDERS) - set(CONVERTERS) - _SHAPE_ONLY - _NO_NOTE
    ops = sorted(set(CONVERTERS) | set(FOLDERS))
    return [(op, "constant inputs only" if op in folded_only else "") for op in ops]


def convert(em, node, inputs):
    """The output Values of one node (inputs: Values, None where omitted)."""
    op = node.op_type
    present = [v for v in inputs if v is not None]
    if op in FOLDERS and (op in _SHAPE_ONLY or all(v.is_const for v in present)):
        if op in _SHAPE_ONLY:
            # Static shapes: these never need the data.
            arrays = [np.broadcast_to(np.int8(0), inputs[0].shape)]
        else:
            arrays = [v.const if v is not None else None for v in inputs]
        return [Value.constant(np.asarray(a)) for a in FOLDERS[op](node, arrays)]
    if op not in CONVERTERS:
        if op in FOLDERS:
            raise NodeError("%s is only supported on constant inputs (here an input is "
                            "computed at run time)" % op)
        raise NodeError("operator %s is not supported (supported: see docs/ONNX.md)" % op)
    outs = CONVERTERS[op](em, node, inputs)
    return outs if isinstance(outs, (list, tuple)) else [outs]

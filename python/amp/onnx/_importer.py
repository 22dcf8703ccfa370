# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ONNX graph -> one MLIR function on tensors.

The graph is walked in its (topological) node order. Every ONNX value
becomes a `Value`: a constant known at import time (initializers, Constant
nodes, and anything computed only from constants, e.g. shape subgraphs,
which are evaluated in numpy) or an SSA value of the emitted function.
Shapes are all static: graph inputs with symbolic dimensions take the
shapes the user gives. Each node goes to the op registry (`_registry.py`), where the op modules
(`_ops_*.py`, `_fold.py`) registered their converters: TOSA where TOSA has
the op and linalg/tensor/arith/math where it does not.

Stages, each importing only those before it (no cycles):
_errors <- _ir <- _emitter <- _builders, _registry <- _resize, _fold,
_ops_*, _control_flow <- _importer <- __init__ <- __main__.
"""

import numpy as np
import onnx
from onnx import numpy_helper

from ._emitter import Emitter
from ._errors import NodeError, OnnxImportError
from ._ir import Value, onnx_dtype
from ._registry import Node, convert
from ._control_flow import import_if, import_loop, import_scan

# The op modules register their converters and folders on import; this is
# the one place that imports them all.
from . import _fold, _ops_elementwise, _ops_nn, _ops_recurrent, _ops_shape  # noqa: F401,E402

# Element types of values computed at run time (TOSA's validation accepts
# these; int64 is narrowed to int32 on entry).
_RUNTIME_DTYPES = {np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.int32),
                   np.dtype(np.bool_)}


# TOSA's MAX_RANK (its validation in the lowering rejects higher ranks).
_MAX_RANK = 6


def _static_input_shape(vi, shapes):
    name = vi.name
    tt = vi.type.tensor_type
    if not vi.type.HasField("tensor_type"):
        raise OnnxImportError("amp.onnx: graph input '%s' is not a tensor" % name)
    dtype = onnx_dtype(tt.elem_type, "graph input '%s'" % name)
    dims = []
    symbolic = []
    if not tt.HasField("shape"):
        if name not in shapes:
            raise OnnxImportError(
                "amp.onnx: graph input '%s' has no shape; give it with --shape %s=D0,D1,..."
                % (name, name))
        return tuple(shapes[name]), dtype
    for d in tt.shape.dim:
        if d.HasField("dim_value") and d.dim_value > 0:
            dims.append(d.dim_value)
        else:
            dims.append(None)
            symbolic.append(d.dim_param or "?")
    if name in shapes:
        given = tuple(int(x) for x in shapes[name])
        if len(given) != len(dims):
            raise OnnxImportError("amp.onnx: --shape %s has rank %d, the model's input has rank %d"
                                  % (name, len(given), len(dims)))
        for i, (g, d) in enumerate(zip(given, dims)):
            if g <= 0:
                raise OnnxImportError("amp.onnx: --shape %s: dimension %d must be positive"
                                      % (name, i))
            if d is not None and g != d:
                raise OnnxImportError(
                    "amp.onnx: --shape %s: dimension %d is %d in the model, not %d"
                    % (name, i, d, g))
        return given, dtype
    if symbolic:
        raise OnnxImportError(
            "amp.onnx: graph input '%s' has dynamic dimension(s) %s; fix them with "
            "--shape %s=%s" % (name, ", ".join("'%s'" % s for s in symbolic), name,
                               ",".join(str(d) if d is not None else "N" for d in dims)))
    return tuple(dims), dtype


def _func_name_ok(name):
    return name and all(c.isalnum() or c in "_.$" for c in name) and not name[0].isdigit()


# Ops with subgraphs (_control_flow.py), which import them through _convert_nodes.
_CONTROL_FLOW = {"If": import_if, "Loop": import_loop, "Scan": import_scan}
CONTROL_FLOW_OPS = sorted(_CONTROL_FLOW)


def _convert_nodes(nodes, values, em, opset):
    """Converts nodes in order, adding their outputs to values."""
    for proto in nodes:
        node = Node(proto, opset)
        em.at(node.name)
        where = "amp.onnx: node '%s' (%s)" % (node.name, node.op_type)
        if proto.domain not in ("", "ai.onnx"):
            raise OnnxImportError("%s: operators of domain '%s' are not supported"
                                  % (where, proto.domain))
        inputs = []
        for name in proto.input:
            if name == "":
                inputs.append(None)
            elif name in values:
                inputs.append(values[name])
            else:
                raise OnnxImportError("%s: input '%s' is not defined before the node"
                                      % (where, name))
        try:
            if node.op_type in _CONTROL_FLOW:
                outputs = _CONTROL_FLOW[node.op_type](node, inputs, values, em, opset,
                                                      _convert_nodes)
            else:
                outputs = convert(em, node, inputs)
            extra = node.unused_attrs()
            if extra:
                raise NodeError("attribute%s %s %s not supported"
                                % ("s" if len(extra) > 1 else "", ", ".join(extra),
                                   "are" if len(extra) > 1 else "is"))
        except NodeError as e:
            raise OnnxImportError("%s: %s" % (where, e)) from None
        except OnnxImportError:
            raise  # from a node inside a branch: it names that node
        except Exception as e:  # a malformed node (missing inputs, odd attribute types)
            raise OnnxImportError("%s: cannot import this node (%s: %s)"
                                  % (where, type(e).__name__, e)) from None
        for v in outputs:
            if v is not None and not v.is_const and v.dtype not in _RUNTIME_DTYPES:
                raise OnnxImportError(
                    "%s: computes %s values at run time; amp runs float32/float16 with "
                    "int32/bool integers" % (where, v.dtype.name))
            if v is not None and not v.is_const and v.rank > _MAX_RANK:
                raise OnnxImportError("%s: computes a rank-%d tensor; TOSA's limit is %d"
                                      % (where, v.rank, _MAX_RANK))
        if len(outputs) < len([o for o in proto.output if o]):
            raise OnnxImportError("%s: produces %d outputs, the model uses %d"
                                  % (where, len(outputs), len(proto.output)))
        for name, v in zip(proto.output, outputs):
            if name:
                values[name] = v



def _bound_input(vi, value, shapes):
    """The constant a --const binding gives graph input vi: the input's
    element type (converted exactly) and shape (a scalar or list filling
    its static shape, or the value's own shape where the input's is not
    static)."""
    name = vi.name
    what = "--const %s" % name
    if not vi.type.HasField("tensor_type"):
        raise OnnxImportError("amp.onnx: %s: the input is not a tensor" % what)
    tt = vi.type.tensor_type
    try:
        dtype = onnx_dtype(tt.elem_type, "graph input '%s'" % name)
    except NodeError as e:
        raise OnnxImportError("amp.onnx: %s: %s" % (what, e)) from None
    try:
        given = np.asarray(value)
        if given.dtype.kind not in "biuf":
            raise ValueError
    except (ValueError, TypeError):
        raise OnnxImportError("amp.onnx: %s: expected a number, a bool or a list of them, "
                              "got %r" % (what, value)) from None
    array = given.astype(dtype)
    if not np.array_equal(array.astype(np.float64), given.astype(np.float64)) and not (
            dtype.kind == "f"):
        raise OnnxImportError("amp.onnx: %s: %r is not representable in %s"
                              % (what, value, dtype.name))
    if name in shapes:
        shape = tuple(int(d) for d in shapes[name])
    elif tt.HasField("shape") and all(d.HasField("dim_value") for d in tt.shape.dim):
        shape = tuple(d.dim_value for d in tt.shape.dim)
    else:
        shape = array.shape
    if int(np.prod(shape, dtype=np.int64)) != array.size:
        raise OnnxImportError("amp.onnx: %s: the input has shape %s, the value has %d "
                              "element(s)" % (what, list(shape), array.size))
    return Value.constant(array.reshape(shape))


def import_graph(model, shapes=None, func_name="main", consts=None):
    """MLIR text of one function for an onnx.ModelProto (see
    amp.onnx.import_model)."""
    shapes = dict(shapes or {})
    consts = dict(consts or {})
    if not _func_name_ok(func_name):
        raise OnnxImportError("amp.onnx: '%s' is not a valid function name" % func_name)
    opset = 1
    for imp in model.opset_import:
        if imp.domain in ("", "ai.onnx"):
            opset = imp.version
    graph = model.graph
    values = {}
    for init in graph.initializer:
        try:
            values[init.name] = Value.constant(numpy_helper.to_array(init))
        except Exception as e:  # external data missing, odd types
            raise OnnxImportError("amp.onnx: initializer '%s': %s" % (init.name, e))
    for sparse in graph.sparse_initializer:
        raise OnnxImportError("amp.onnx: sparse initializer '%s' is not supported"
                              % sparse.values.name)

    inputs = [vi.name for vi in graph.input]
    for name in consts:
        if name not in inputs:
            raise OnnxImportError("amp.onnx: --const names '%s', which is not a graph input "
                                  "(inputs: %s)" % (name, ", ".join(sorted(inputs))))
    for vi in graph.input:
        if vi.name in consts:
            # Bound at import time: a constant (an initializer's default too),
            # so Ifs on it fold and it is not an argument.
            values[vi.name] = _bound_input(vi, consts[vi.name], shapes)

    em = Emitter()
    args = []
    for vi in graph.input:
        if vi.name in values:
            continue  # an initializer listed as an input (old exporters): a constant
        try:
            shape, dtype = _static_input_shape(vi, shapes)
        except NodeError as e:
            raise OnnxImportError("amp.onnx: %s" % e) from None
        if dtype not in _RUNTIME_DTYPES and dtype != np.int64:
            raise OnnxImportError("amp.onnx: graph input '%s' is %s; amp runs float32/float16 "
                                  "with int64/int32/bool integers" % (vi.name, dtype.name))
        v = Value(shape, dtype, name="%%arg%d" % len(args))
        args.append((vi.name, v))
        if dtype == np.int64:
            # Runtime integers are i32, TOSA's widest (indices, masks).
            narrow = em.new(shape, np.int32)
            em.emit("%s = arith.trunci %s : %s to %s" % (narrow.name, v.name, v.type,
                                                          narrow.type), loc=False)
            v = narrow
        values[vi.name] = v
    input_names = {n for n, _ in args} | set(consts)
    for name in shapes:
        if name not in input_names:
            raise OnnxImportError("amp.onnx: --shape names '%s', which is not a graph input "
                                  "(inputs: %s)" % (name, ", ".join(sorted(input_names))))

    _convert_nodes(graph.node, values, em, opset)

    results = []
    em.at(None)
    for vo in graph.output:
        if vo.name not in values:
            raise OnnxImportError("amp.onnx: graph output '%s' is never computed" % vo.name)
        v = values[vo.name]
        em.use(v)  # constants become arith.constant
        declared = vo.type.tensor_type.elem_type if vo.type.HasField("tensor_type") else 0
        if v.dtype == np.int32 and not v.is_const and declared == onnx.TensorProto.INT64:
            wide = em.new(v.shape, np.int64)
            em.emit("%s = arith.extsi %s : %s to %s" % (wide.name, v.name, v.type, wide.type),
                    loc=False)
            v = wide
        results.append((vo.name, v))

    comments = ["Imported from ONNX by amp.onnx (opset %d%s)." %
                (opset, ", producer %s %s" % (model.producer_name, model.producer_version)
                 if model.producer_name else "")]
    comments += ["  input  %s: %s" % (name, v.type) for name, v in args]
    comments += ["  output %s: %s" % (name, v.type) for name, v in results]
    return em.function(func_name, [v for _, v in args], [v for _, v in results], comments)

"""ONNX graph -> one MLIR function on tensors.

The graph is walked in its (topological) node order. Every ONNX value
becomes a `Value`: a constant known at import time (initializers, Constant
nodes, and anything computed only from constants, e.g. shape subgraphs,
which are evaluated in numpy) or an SSA value of the emitted function.
Shapes are all static: graph inputs with symbolic dimensions take the
shapes the user gives. Each op's converter (see `_ops.py`) emits TOSA where
TOSA has the op and linalg/tensor/arith/math where it does not.
"""

import numpy as np
import onnx
from onnx import numpy_helper

from ._ir import Value, dense_attr_parts, location


class OnnxImportError(Exception):
    """The model cannot be imported faithfully; the message names the node."""


class NodeError(Exception):
    """Raised by converters; the importer adds the node's name and op."""


def unsupported(message):
    return NodeError(message)


# ONNX TensorProto data type -> numpy dtype (only those amp can carry).
_ONNX_DTYPES = {
    onnx.TensorProto.FLOAT: np.float32,
    onnx.TensorProto.FLOAT16: np.float16,
    onnx.TensorProto.DOUBLE: np.float64,
    onnx.TensorProto.INT64: np.int64,
    onnx.TensorProto.INT32: np.int32,
    onnx.TensorProto.INT16: np.int16,
    onnx.TensorProto.INT8: np.int8,
    onnx.TensorProto.UINT8: np.uint8,
    onnx.TensorProto.BOOL: np.bool_,
}


def onnx_dtype(code, what):
    if code not in _ONNX_DTYPES:
        raise NodeError("%s has element type %s, which is not supported"
                        % (what, onnx.TensorProto.DataType.Name(code)))
    return np.dtype(_ONNX_DTYPES[code])


# Element types of values computed at run time (TOSA's validation accepts
# these; int64 is narrowed to int32 on entry).
_RUNTIME_DTYPES = {np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.int32),
                   np.dtype(np.bool_)}


# TOSA's MAX_RANK (its validation in the lowering rejects higher ranks).
_MAX_RANK = 6


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


class Emitter:
    """The function body being written, and helpers every converter uses."""

    def __init__(self):
        self.lines = []
        self._next = 0
        self.loc = 'loc(unknown)'
        self._shift = None
        self._consts = {}

    # --- SSA plumbing ------------------------------------------------------

    def fresh(self):
        self._next += 1
        return "%%v%d" % self._next

    def emit(self, text, loc=True):
        self.lines.append("    " + text + ((" " + self.loc) if loc else ""))

    def emit_parts(self, parts):
        """A line given as pieces (a constant's large payload stays one piece)."""
        self.lines.append(["    "] + parts + [" " + self.loc])

    def new(self, shape, dtype):
        return Value(shape, dtype, name=self.fresh())

    def use(self, v):
        """The SSA name of a value; constants are materialized on first use."""
        if v.name is not None:
            return v.name
        if v._materialized is None:
            if v.const is None:
                raise NodeError("internal: value without a name or constant")
            name = self.fresh()
            if v.dtype in (np.float32, np.float16, np.int32, np.int8, np.bool_):
                # tosa.const: TOSA's own passes (e.g. tosa-reduce-transposes)
                # see through it; amp-fuse-kernels lowers it to arith.
                self.emit_parts(['%s = "tosa.const"() <{values = ' % name]
                                + dense_attr_parts(v.const) + ["}> : () -> %s" % v.type])
            else:
                self.emit_parts(["%s = arith.constant " % name] + dense_attr_parts(v.const))
            v._materialized = name
        return v._materialized

    def op(self, text, operands, results, attrs=None):
        """`results = text operands {attrs} : (types) -> types`."""
        names = [self.use(o) for o in operands]
        res = ", ".join(r.name for r in results)
        attr = (" {%s}" % attrs) if attrs else ""
        in_types = ", ".join(o.type for o in operands)
        out_types = ", ".join(r.type for r in results)
        if len(results) != 1:
            out_types = "(%s)" % out_types
        self.emit("%s = %s %s%s : (%s) -> %s" % (res, text, ", ".join(names), attr, in_types,
                                                 out_types))
        return results[0] if len(results) == 1 else results

    def const(self, array, dtype=None):
        array = np.asarray(array, dtype=dtype)
        return Value.constant(array)

    def shape_operand(self, values):
        name = self.fresh()
        values = [int(v) for v in values]
        attr = ("dense<[%s]> : tensor<%dxindex>" % (", ".join(map(str, values)), len(values))
                if values else "dense<> : tensor<0xindex>")
        self.emit("%s = tosa.const_shape {values = %s} : () -> !tosa.shape<%d>"
                  % (name, attr, len(values)))
        return name

    def zero_point(self, dtype):
        return Value.constant(np.zeros([1], dtype=dtype))

    def mul_shift(self):
        return Value.constant(np.zeros([1], dtype=np.int8))


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


def _convert_nodes(nodes, values, em, opset):
    """Converts nodes in order, adding their outputs to values."""
    from . import _ops

    for proto in nodes:
        node = Node(proto, opset)
        em.loc = location(node.name)
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
            if node.op_type == "If":
                outputs = _if(node, inputs, values, em, opset, where)
            else:
                outputs = _ops.convert(em, node, inputs)
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



def _if(node, inputs, values, em, opset, where):
    """If on a condition known at import time (static shapes make most of
    them so): the chosen branch's nodes, in the enclosing scope."""
    cond = inputs[0]
    if cond is None or not cond.is_const:
        raise NodeError("If on a condition computed at run time is not supported")
    branch = node.attr("then_branch" if bool(cond.const.reshape(-1)[0]) else "else_branch")
    node.ignore("then_branch", "else_branch")
    scope = dict(values)
    for init in branch.initializer:
        scope[init.name] = Value.constant(numpy_helper.to_array(init))
    _convert_nodes(branch.node, scope, em, opset)
    em.loc = location(node.name)
    missing = [o.name for o in branch.output if o.name not in scope]
    if missing:
        raise NodeError("branch output %s is never computed" % missing[0])
    return [scope[o.name] for o in branch.output]


def import_graph(model, shapes=None, func_name="main"):

    shapes = dict(shapes or {})
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
    input_names = {n for n, _ in args}
    for name in shapes:
        if name not in input_names:
            raise OnnxImportError("amp.onnx: --shape names '%s', which is not a graph input "
                                  "(inputs: %s)" % (name, ", ".join(sorted(input_names))))

    _convert_nodes(graph.node, values, em, opset)

    results = []
    em.loc = "loc(unknown)"
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

    sig_args = ", ".join("%s: %s" % (v.name, v.type) for _, v in args)
    res_types = ", ".join(v.type for _, v in results)
    if len(results) != 1:
        res_types = "(%s)" % res_types
    out = []
    out.append("// Imported from ONNX by amp.onnx (opset %d%s)." %
               (opset, ", producer %s %s" % (model.producer_name, model.producer_version)
                if model.producer_name else ""))
    for name, v in args:
        out.append("//   input  %s: %s" % (name, v.type))
    for name, v in results:
        out.append("//   output %s: %s" % (name, v.type))
    out.append("module {")
    out.append("  func.func @%s(%s) -> %s {" % (func_name, sig_args, res_types))
    ret = "    return %s : %s" % (", ".join(em.use(v) for _, v in results),
                                  ", ".join(v.type for _, v in results))
    pieces = ["\n".join(out), "\n"]
    for line in em.lines:
        if isinstance(line, list):
            pieces.extend(line)
        else:
            pieces.append(line)
        pieces.append("\n")
    pieces.append(ret + "\n  }\n}\n")
    return "".join(pieces)

"""ONNX op converters.

Each converter takes the emitter, the node and its input values and returns
its output values. A converter raises NodeError for anything it cannot
import faithfully; it never guesses. Layout: ONNX is NCHW; TOSA's
convolutions and pools are NHWC, so those ops are wrapped in transposes
(weights are transposed at import time).
"""

import numpy as np

from . import _fold
from ._importer import NodeError, onnx_dtype
from ._ir import Value, float_attr, i32_array, element_type

CONVERTERS = {}


def converter(*names):
    def register(fn):
        for n in names:
            CONVERTERS[n] = fn
        return fn
    return register


def supported_ops():
    """(op, note) for every operator the importer handles."""
    folded_only = set(_fold.FOLDERS) - set(CONVERTERS) - {"Shape", "Size", "ConstantOfShape",
                                                          "Range"}
    ops = sorted(set(CONVERTERS) | set(_fold.FOLDERS) | {"Constant"})
    return [(op, "constant inputs only" if op in folded_only else "") for op in ops]


def convert(em, node, inputs):
    op = node.op_type
    if op == "Constant":
        return [Value.constant(_fold.constant_value(node))]
    present = [v for v in inputs if v is not None]
    if op in _fold.FOLDERS and all(v.is_const for v in present):
        arrays = [v.const if v is not None else None for v in inputs]
        return [Value.constant(np.asarray(a)) for a in _fold.FOLDERS[op](node, arrays)]
    if op in ("Shape", "Size"):
        # Static shapes: these never need the data.
        arrays = [np.broadcast_to(np.int8(0), inputs[0].shape)]  # no data needed
        return [Value.constant(np.asarray(a)) for a in _fold.FOLDERS[op](node, arrays)]
    if op not in CONVERTERS:
        if op in _fold.FOLDERS:
            raise NodeError("%s is only supported on constant inputs (here an input is "
                            "computed at run time)" % op)
        raise NodeError("operator %s is not supported (supported: see docs/ONNX.md)" % op)
    outs = CONVERTERS[op](em, node, inputs)
    return outs if isinstance(outs, (list, tuple)) else [outs]


# --- small helpers ----------------------------------------------------------

def is_float(v):
    return np.issubdtype(v.dtype, np.floating)


def need_const(v, what):
    if v is None or not v.is_const:
        raise NodeError("%s must be a constant (an initializer or computable at import time)"
                        % what)
    return v.const


def opt_input(inputs, i):
    return inputs[i] if len(inputs) > i else None


def norm_axis(axis, rank):
    if not -rank <= axis < max(rank, 1):
        raise NodeError("axis %d is out of range for rank %d" % (axis, rank))
    return axis % rank if rank else 0


def reshape(em, v, shape):
    shape = tuple(int(s) for s in shape)
    if v.shape == shape:
        return v
    if v.is_const:
        return Value.constant(v.const.reshape(shape))
    s = em.shape_operand(shape)
    r = em.new(shape, v.dtype)
    em.emit("%s = tosa.reshape %s, %s : (%s, !tosa.shape<%d>) -> %s"
            % (r.name, em.use(v), s, v.type, len(shape), r.type))
    return r


def transpose(em, v, perm):
    perm = [int(p) for p in perm]
    if perm == list(range(v.rank)):
        return v
    if v.is_const:
        return Value.constant(np.ascontiguousarray(np.transpose(v.const, perm)))
    r = em.new([v.shape[p] for p in perm], v.dtype)
    return em.op("tosa.transpose", [v], [r], "perms = %s" % i32_array(perm))


def cast(em, v, dtype):
    dtype = np.dtype(dtype)
    if v.is_const:
        return v if v.dtype == dtype else Value.constant(v.const.astype(dtype))
    if dtype == np.int64:
        dtype = np.dtype(np.int32)  # runtime integers are i32 (see narrow_ints)
    if v.dtype == dtype:
        return v
    if dtype == np.bool_:
        zero = Value.constant(np.zeros([1] * v.rank, dtype=v.dtype))
        eq = em.op("tosa.equal", [v, zero], [em.new(v.shape, np.bool_)])
        return em.op("tosa.logical_not", [eq], [em.new(v.shape, np.bool_)])
    if v.dtype == np.bool_:
        v = em.op("tosa.cast", [v], [em.new(v.shape, np.int32)])
        if dtype == np.int32:
            return v
    if np.issubdtype(v.dtype, np.floating) and np.issubdtype(dtype, np.integer):
        # ONNX truncates toward zero; tosa.cast rounds to nearest.
        zero = Value.constant(np.zeros([1] * v.rank, dtype=v.dtype))
        pos = em.op("tosa.greater_equal", [v, zero], [em.new(v.shape, np.bool_)])
        down = em.op("tosa.floor", [v], [em.new(v.shape, v.dtype)])
        up = em.op("tosa.ceil", [v], [em.new(v.shape, v.dtype)])
        v = em.op("tosa.select", [pos, down, up], [em.new(v.shape, v.dtype)])
    return em.op("tosa.cast", [v], [em.new(v.shape, dtype)])


def to_rank(em, v, rank):
    """Leading unit dimensions, as numpy broadcasting implies."""
    if v.rank == rank:
        return v
    return reshape(em, v, (1,) * (rank - v.rank) + v.shape)


def broadcast_shape(*shapes):
    try:
        return tuple(np.broadcast_shapes(*[tuple(s) for s in shapes]))
    except ValueError:
        raise NodeError("shapes %s do not broadcast" % ", ".join(str(list(s)) for s in shapes))


def narrow_ints(operands):
    """Runtime integers are i32 (TOSA's widest integer; ONNX's int64
    indices are narrowed on entry): int64 constants next to them follow."""
    if not any(o.dtype == np.int32 and not o.is_const for o in operands):
        return operands
    out = []
    for o in operands:
        if o.is_const and o.dtype == np.int64:
            if o.const.size and (o.const.min() < -2**31 or o.const.max() >= 2**31):
                raise NodeError("int64 constant out of the 32-bit range of runtime integers")
            o = Value.constant(o.const.astype(np.int32))
        out.append(o)
    return out


def tosa_elementwise(em, opname, operands, out_dtype=None, extra=None):
    """A TOSA elementwise op on operands broadcast to a common rank."""
    operands = narrow_ints(operands)
    shape = broadcast_shape(*[o.shape for o in operands])
    ops = [to_rank(em, o, len(shape)) for o in operands]
    if extra:
        ops += extra
    r = em.new(shape, out_dtype or operands[-1].dtype)
    return em.op(opname, ops, [r])


def add(em, a, b):
    return tosa_elementwise(em, "tosa.add", [a, b])


def sub(em, a, b):
    return tosa_elementwise(em, "tosa.sub", [a, b])


def mul(em, a, b):
    return tosa_elementwise(em, "tosa.mul", [a, b], extra=[em.mul_shift()])


def scalar(v, dtype):
    return Value.constant(np.asarray(v, dtype=dtype))


def clamp(em, v, lo, hi):
    if np.issubdtype(v.dtype, np.floating):
        attrs = "min_val = %s, max_val = %s" % (float_attr(lo, v.dtype), float_attr(hi, v.dtype))
    else:
        info = np.iinfo(v.dtype)
        lo = info.min if lo == -np.inf else int(lo)
        hi = info.max if hi == np.inf else int(hi)
        et = element_type(v.dtype)
        attrs = "min_val = %d : %s, max_val = %d : %s" % (lo, et, hi, et)
    return em.op("tosa.clamp", [v], [em.new(v.shape, v.dtype)], attrs)


def generic(em, operands, out_dtype, body, shape=None):
    """A linalg.generic over the broadcast shape of `operands`.

    `body(args)` gets the scalar block-argument names and returns a list of
    (lines, result) where lines are the body ops; used where TOSA has no op
    (division, square root) so that the result is computed exactly as ONNX
    specifies, without reciprocal-then-multiply roundings.
    """
    shape = tuple(shape) if shape is not None else broadcast_shape(*[o.shape for o in operands])
    rank = len(shape)
    ops = [to_rank(em, o, rank) for o in operands]
    names = [em.use(o) for o in ops]
    dims = ", ".join("d%d" % i for i in range(rank))
    maps = []
    for o in ops:
        exprs = ", ".join("0" if (o.shape[i] == 1 and shape[i] != 1) else "d%d" % i
                          for i in range(rank))
        maps.append("affine_map<(%s) -> (%s)>" % (dims, exprs))
    maps.append("affine_map<(%s) -> (%s)>" % (dims, dims))
    out = em.new(shape, out_dtype)
    empty = em.fresh()
    em.emit("%s = tensor.empty() : %s" % (empty, out.type))
    args = [em.fresh() for _ in ops]
    outarg = em.fresh()
    lines, result = body(args)
    its = ", ".join(['"parallel"'] * rank)
    em.emit("%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} ins(%s : %s) "
            "outs(%s : %s) {" % (out.name, ", ".join(maps), its, ", ".join(names),
                                 ", ".join(o.type for o in ops), empty, out.type), loc=False)
    em.lines.append("    ^bb0(%s):" % ", ".join(
        ["%s: %s" % (a, element_type(o.dtype)) for a, o in zip(args, ops)]
        + ["%s: %s" % (outarg, element_type(out_dtype))]))
    for line in lines:
        em.lines.append("      " + line)
    em.lines.append("      linalg.yield %s : %s" % (result, element_type(out_dtype)))
    em.lines.append("    } -> %s %s" % (out.type, em.loc))
    return out


def divide(em, a, b):
    if is_float(a):
        et = element_type(a.dtype)
        r = em.fresh()
        return generic(em, [a, b], a.dtype,
                       lambda args: (["%s = arith.divf %s, %s : %s" % (r, args[0], args[1], et)],
                                     r))
    return tosa_elementwise(em, "tosa.intdiv", [a, b])


def sqrt(em, x):
    et = element_type(x.dtype)
    r = em.fresh()
    return generic(em, [x], x.dtype,
                   lambda args: (["%s = math.sqrt %s : %s" % (r, args[0], et)], r))


def extract_slice(em, v, offsets, sizes, strides=None):
    strides = strides or [1] * v.rank
    if list(offsets) == [0] * v.rank and tuple(sizes) == v.shape and set(strides) <= {1}:
        return v
    if v.is_const:
        idx = tuple(slice(o, o + (s - 1) * st + 1, st) for o, s, st in zip(offsets, sizes, strides))
        return Value.constant(np.ascontiguousarray(v.const[idx]))
    r = em.new(sizes, v.dtype)
    em.emit("%s = tensor.extract_slice %s[%s] [%s] [%s] : %s to %s"
            % (r.name, em.use(v), ", ".join(map(str, offsets)), ", ".join(map(str, sizes)),
               ", ".join(map(str, strides)), v.type, r.type))
    return r


def concat(em, vs, axis):
    vs = [v for v in vs if v.shape[axis] != 0]
    if len(vs) == 1:
        return vs[0]
    if all(v.is_const for v in vs):
        return Value.constant(np.concatenate([v.const for v in vs], axis=axis))
    shape = list(vs[0].shape)
    shape[axis] = sum(v.shape[axis] for v in vs)
    return em.op("tosa.concat", vs, [em.new(shape, vs[0].dtype)], "axis = %d : i32" % axis)


def pad(em, v, pads, value=0.0):
    """pads: [(before, after)] per axis, non-negative. tensor.pad: the TOSA
    pipeline's validation rejects tosa.pad of rank 4."""
    if all(b == 0 and a == 0 for b, a in pads):
        return v
    if v.is_const:
        return Value.constant(np.pad(v.const, pads, constant_values=value))
    shape = [d + b + a for d, (b, a) in zip(v.shape, pads)]
    et = element_type(v.dtype)
    cst = em.fresh()
    src = em.use(v)
    if np.issubdtype(v.dtype, np.floating):
        em.emit("%s = arith.constant %s" % (cst, float_attr(value, v.dtype)))
    else:
        em.emit("%s = arith.constant %d : %s" % (cst, int(value), et))
    r = em.new(shape, v.dtype)
    idx = ", ".join("%s: index" % em.fresh() for _ in pads)
    em.emit("%s = tensor.pad %s low[%s] high[%s] {" % (
        r.name, src, ", ".join(str(b) for b, _ in pads), ", ".join(str(a) for _, a in pads)),
        loc=False)
    em.lines.append("    ^bb0(%s):" % idx)
    em.lines.append("      tensor.yield %s : %s" % (cst, et))
    em.lines.append("    } : %s to %s %s" % (v.type, r.type, em.loc))
    return r


def tile(em, v, multiples):
    if all(m == 1 for m in multiples):
        return v
    if v.is_const:
        return Value.constant(np.tile(v.const, multiples))
    s = em.shape_operand(multiples)
    r = em.new([d * m for d, m in zip(v.shape, multiples)], v.dtype)
    em.emit("%s = tosa.tile %s, %s : (%s, !tosa.shape<%d>) -> %s"
            % (r.name, em.use(v), s, v.type, v.rank, r.type))
    return r


def broadcast_to(em, v, shape):
    v = to_rank(em, v, len(shape))
    if v.shape == tuple(shape):
        return v
    for d, s in zip(v.shape, shape):
        if d != s and d != 1:
            raise NodeError("cannot broadcast %s to %s" % (list(v.shape), list(shape)))
    return tile(em, v, [s if d == 1 else 1 for d, s in zip(v.shape, shape)])


def reduce(em, opname, v, axes):
    """tosa.reduce_* over several axes, keeping them as size 1."""
    for a in sorted(axes):
        if v.shape[a] == 1:
            continue
        shape = list(v.shape)
        shape[a] = 1
        v = em.op(opname, [v], [em.new(shape, v.dtype)], "axis = %d : i32" % a)
    return v


def mean(em, v, axes):
    n = int(np.prod([v.shape[a] for a in axes], dtype=np.int64))
    s = reduce(em, "tosa.reduce_sum", v, axes)
    if n == 1:
        return s
    return divide(em, s, scalar(n, v.dtype))


# --- elementwise ------------------------------------------------------------

_TOSA_BINARY = {"Add": "tosa.add", "Sub": "tosa.sub", "Max": "tosa.maximum",
                "Min": "tosa.minimum", "And": "tosa.logical_and", "Or": "tosa.logical_or",
                "Xor": "tosa.logical_xor", "Sum": "tosa.add"}


@converter("Add", "Sub", "And", "Or", "Xor")
def _binary(em, node, inputs):
    a, b = inputs
    return tosa_elementwise(em, _TOSA_BINARY[node.op_type], [a, b])


@converter("Max", "Min", "Sum")
def _variadic(em, node, inputs):
    out = inputs[0]
    for v in inputs[1:]:
        out = tosa_elementwise(em, _TOSA_BINARY[node.op_type], [out, v])
    return out


@converter("Mean")
def _mean(em, node, inputs):
    out = inputs[0]
    for v in inputs[1:]:
        out = add(em, out, v)
    return divide(em, out, scalar(len(inputs), out.dtype)) if len(inputs) > 1 else out


@converter("Mul")
def _mul(em, node, inputs):
    return mul(em, *inputs)


@converter("Div")
def _div(em, node, inputs):
    return divide(em, *inputs)


@converter("Pow")
def _pow(em, node, inputs):
    x, y = inputs
    if not is_float(x):
        raise NodeError("integer Pow is not supported")
    if y.is_const and y.size == 1:
        e = float(y.const.reshape(-1)[0])
        out_shape = broadcast_shape(x.shape, y.shape)
        if e == 1.0:
            return to_rank(em, x, len(out_shape))
        if e == 2.0:
            return to_rank(em, mul(em, x, x), len(out_shape))
        if e == 0.5:
            return to_rank(em, sqrt(em, x), len(out_shape))
    return tosa_elementwise(em, "tosa.pow", [x, cast(em, y, x.dtype)])


@converter("Sqrt")
def _sqrt(em, node, inputs):
    return sqrt(em, inputs[0])


_TOSA_UNARY = {"Sigmoid": "tosa.sigmoid", "Tanh": "tosa.tanh", "Erf": "tosa.erf",
               "Exp": "tosa.exp", "Log": "tosa.log", "Abs": "tosa.abs",
               "Reciprocal": "tosa.reciprocal", "Floor": "tosa.floor", "Ceil": "tosa.ceil",
               "Not": "tosa.logical_not", "Sin": "tosa.sin", "Cos": "tosa.cos"}


@converter(*_TOSA_UNARY)
def _unary(em, node, inputs):
    x = inputs[0]
    return em.op(_TOSA_UNARY[node.op_type], [x], [em.new(x.shape, x.dtype)])


@converter("Neg")
def _neg(em, node, inputs):
    x = inputs[0]
    if not is_float(x):
        return sub(em, Value.constant(np.zeros([1] * x.rank, x.dtype)), x)
    zp = em.zero_point(x.dtype)
    return em.op("tosa.negate", [x, zp, zp], [em.new(x.shape, x.dtype)])


@converter("Identity", "Dropout")
def _identity(em, node, inputs):
    node.ignore("ratio", "seed", "is_test")
    if node.op_type == "Dropout":
        if len(inputs) > 2 and inputs[2] is not None:
            mode = need_const(inputs[2], "training_mode")
            if bool(mode.reshape(-1)[0]):
                raise NodeError("training_mode=true is not supported (inference only)")
        x = inputs[0]
        if len(node.proto.output) > 1 and node.proto.output[1]:
            return [x, Value.constant(np.ones(x.shape, dtype=np.bool_))]
    return [inputs[0]]


@converter("Relu")
def _relu(em, node, inputs):
    return clamp(em, inputs[0], 0.0, np.inf)


@converter("Clip")
def _clip(em, node, inputs):
    x = inputs[0]
    if node.opset < 11:
        lo, hi = node.attr("min", -np.inf), node.attr("max", np.inf)
    else:
        lo_v, hi_v = opt_input(inputs, 1), opt_input(inputs, 2)
        if (lo_v is not None and not lo_v.is_const) or (hi_v is not None and not hi_v.is_const):
            # Bounds computed at run time: maximum and minimum.
            if lo_v is not None:
                x = tosa_elementwise(em, "tosa.maximum", [x, lo_v])
            if hi_v is not None:
                x = tosa_elementwise(em, "tosa.minimum", [x, hi_v])
            return x
        lo = float(lo_v.const.reshape(-1)[0]) if lo_v is not None else -np.inf
        hi = float(hi_v.const.reshape(-1)[0]) if hi_v is not None else np.inf
    return clamp(em, x, lo, hi)


def hard_sigmoid(em, x, alpha, beta):
    y = add(em, mul(em, x, Value.constant(np.full([1] * x.rank, alpha, x.dtype))),
            Value.constant(np.full([1] * x.rank, beta, x.dtype)))
    return clamp(em, y, 0.0, 1.0)


@converter("HardSigmoid")
def _hard_sigmoid(em, node, inputs):
    return hard_sigmoid(em, inputs[0], node.attr("alpha", 0.2), node.attr("beta", 0.5))


@converter("HardSwish")
def _hard_swish(em, node, inputs):
    x = inputs[0]
    return mul(em, x, hard_sigmoid(em, x, 1.0 / 6.0, 0.5))


@converter("LeakyRelu")
def _leaky_relu(em, node, inputs):
    x = inputs[0]
    alpha = node.attr("alpha", 0.01)
    scaled = mul(em, x, Value.constant(np.full([1] * x.rank, alpha, x.dtype)))
    zero = Value.constant(np.zeros([1] * x.rank, x.dtype))
    pos = tosa_elementwise(em, "tosa.greater_equal", [x, zero], np.bool_)
    return tosa_elementwise(em, "tosa.select", [pos, x, scaled])


@converter("PRelu")
def _prelu(em, node, inputs):
    x, slope = inputs
    scaled = mul(em, x, slope)
    zero = Value.constant(np.zeros([1] * x.rank, x.dtype))
    pos = tosa_elementwise(em, "tosa.greater_equal", [x, zero], np.bool_)
    return tosa_elementwise(em, "tosa.select", [pos, x, scaled])


@converter("Softplus")
def _softplus(em, node, inputs):
    # log(1 + exp(x)) written as max(x, 0) + log(1 + exp(-|x|)): no overflow.
    x = inputs[0]
    zp = em.zero_point(x.dtype)
    ax = em.op("tosa.abs", [x], [em.new(x.shape, x.dtype)])
    nax = em.op("tosa.negate", [ax, zp, zp], [em.new(x.shape, x.dtype)])
    e = em.op("tosa.exp", [nax], [em.new(x.shape, x.dtype)])
    one = Value.constant(np.ones([1] * x.rank, x.dtype))
    lg = em.op("tosa.log", [add(em, e, one)], [em.new(x.shape, x.dtype)])
    return add(em, clamp(em, x, 0.0, np.inf), lg)


def _full(x, value):
    return Value.constant(np.full([1] * x.rank, value, x.dtype))


@converter("Gelu")
def _gelu(em, node, inputs):
    """x/2 (1 + erf(x/sqrt 2)), or with approximate=tanh
    x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    x = inputs[0]
    approx = node.attr("approximate", "none")
    if approx == "none":
        inner = em.op("tosa.erf", [divide(em, x, _full(x, np.sqrt(2.0)))],
                      [em.new(x.shape, x.dtype)])
    elif approx == "tanh":
        cube = mul(em, mul(em, x, x), x)
        arg = mul(em, add(em, x, mul(em, cube, _full(x, 0.044715))),
                  _full(x, np.sqrt(2.0 / np.pi)))
        inner = em.op("tosa.tanh", [arg], [em.new(x.shape, x.dtype)])
    else:
        raise NodeError("approximate=%s is not supported" % approx)
    return mul(em, mul(em, x, _full(x, 0.5)), add(em, inner, _full(x, 1.0)))


@converter("Elu")
def _elu(em, node, inputs):
    x = inputs[0]
    alpha = node.attr("alpha", 1.0)
    e = em.op("tosa.exp", [x], [em.new(x.shape, x.dtype)])
    neg = mul(em, sub(em, e, _full(x, 1.0)), _full(x, alpha))
    pos = tosa_elementwise(em, "tosa.greater", [x, _full(x, 0.0)], np.bool_)
    return tosa_elementwise(em, "tosa.select", [pos, x, neg])


@converter("Mish")
def _mish(em, node, inputs):
    x = inputs[0]
    sp = _softplus(em, node, inputs)
    return mul(em, x, em.op("tosa.tanh", [sp], [em.new(x.shape, x.dtype)]))


@converter("Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual")
def _compare(em, node, inputs):
    a, b = inputs
    op = {"Equal": ("tosa.equal", False), "Greater": ("tosa.greater", False),
          "GreaterOrEqual": ("tosa.greater_equal", False), "Less": ("tosa.greater", True),
          "LessOrEqual": ("tosa.greater_equal", True)}[node.op_type]
    ops = [b, a] if op[1] else [a, b]
    return tosa_elementwise(em, op[0], ops, np.bool_)


@converter("Where")
def _where(em, node, inputs):
    c, a, b = inputs
    return tosa_elementwise(em, "tosa.select", [c, a, b], a.dtype)


@converter("Cast")
def _cast(em, node, inputs):
    to = onnx_dtype(node.attr("to"), "Cast target")
    node.ignore("saturate")
    return cast(em, inputs[0], to)


# The converters of the other families register themselves on import.
from . import _ops_shape, _ops_nn  # noqa: E402,F401

# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Elementwise converters: arithmetic with numpy broadcasting, activations,
comparisons, Where and Cast.

Each converter takes the emitter, the node and its input values and returns
its output values. A converter raises NodeError for anything it cannot
import faithfully; it never guesses.
"""

import numpy as np

from ._builders import (add, broadcast_shape, cast, clamp, divide, is_float, mul,
                        need_const, opt_input, scalar, sqrt, sub, to_rank, tosa_elementwise)
from ._errors import NodeError
from ._ir import Value, onnx_dtype
from ._registry import converter


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

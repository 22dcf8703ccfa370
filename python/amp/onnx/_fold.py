# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Import-time evaluation of ONNX nodes whose inputs are all constants.

Shape subgraphs (Shape -> Gather -> Concat -> Reshape, ConstantOfShape,
Range, ...) and weight preprocessing (a Transpose or Mul of an initializer)
are computed here in numpy, so the emitted function only holds the model's
real computation. Semantics follow the ONNX operator specification.
"""

import numpy as np
from onnx import numpy_helper

from ._errors import NodeError
from ._ir import Value, onnx_dtype
from ._registry import converter, folder


def _axes_arg(node, arrays, index, attr="axes"):
    """Axes from an attribute (older opsets) or an optional input."""
    if len(arrays) > index and arrays[index] is not None:
        return [int(a) for a in np.asarray(arrays[index]).reshape(-1)]
    v = node.attr(attr)
    return None if v is None else [int(a) for a in v]


def _norm(axes, rank):
    out = []
    for a in axes:
        if not -rank <= a < rank:
            raise NodeError("axis %d is out of range for rank %d" % (a, rank))
        out.append(a % rank)
    return out


def constant_value(node):
    for key in ("value", "value_float", "value_floats", "value_int", "value_ints"):
        if key in node.attrs:
            v = node.attr(key)
            if key == "value":
                return numpy_helper.to_array(v)
            if key.startswith("value_float"):
                return np.asarray(v, dtype=np.float32)
            return np.asarray(v, dtype=np.int64)
    for key in ("sparse_value", "value_string", "value_strings"):
        if key in node.attrs:
            raise NodeError("%s is not supported" % key)
    raise NodeError("has no value")


def _int_div(a, b):
    q = np.abs(a) // np.abs(b)
    return (q * np.sign(a) * np.sign(b)).astype(a.dtype)


def reshape_target(shape_in, target, allowzero=0):
    target = [int(t) for t in target]
    out = []
    for i, t in enumerate(target):
        if t == 0 and not allowzero:
            if i >= len(shape_in):
                raise NodeError("shape entry %d is 0 but the input has rank %d"
                                % (i, len(shape_in)))
            out.append(shape_in[i])
        else:
            out.append(t)
    total = int(np.prod(shape_in, dtype=np.int64))
    if out.count(-1) > 1:
        raise NodeError("more than one -1 in the target shape")
    if -1 in out:
        known = int(np.prod([d for d in out if d != -1], dtype=np.int64))
        if known == 0 or total % known:
            raise NodeError("cannot reshape %s to %s" % (list(shape_in), target))
        out[out.index(-1)] = total // known
    if int(np.prod(out, dtype=np.int64)) != total or any(d < 0 for d in out):
        raise NodeError("cannot reshape %s to %s" % (list(shape_in), target))
    return out


def slice_params(node, shape, arrays):
    """(axis, start, stop, step) per sliced axis, clamped like numpy."""
    if node.opset < 10:
        starts, ends = node.attr("starts"), node.attr("ends")
        axes = node.attr("axes")
        steps = None
    else:
        starts, ends = arrays[1], arrays[2]
        axes = arrays[3] if len(arrays) > 3 else None
        steps = arrays[4] if len(arrays) > 4 else None
        for what, a in (("starts", starts), ("ends", ends), ("axes", axes), ("steps", steps)):
            if a is not None and not isinstance(a, np.ndarray):
                raise NodeError("%s must be a constant" % what)
    starts = [int(s) for s in np.asarray(starts).reshape(-1)]
    ends = [int(s) for s in np.asarray(ends).reshape(-1)]
    rank = len(shape)
    axes = list(range(len(starts))) if axes is None else _norm(
        [int(a) for a in np.asarray(axes).reshape(-1)], rank)
    steps = [1] * len(starts) if steps is None else [int(s) for s in np.asarray(steps).reshape(-1)]
    out = []
    for a, s, e, st in zip(axes, starts, ends, steps):
        if st == 0:
            raise NodeError("slice step is 0")
        start, stop, step = slice(s, e, st).indices(shape[a])
        out.append((a, start, stop, step))
    return out


def _slice(node, arrays):
    x = arrays[0]
    index = [slice(None)] * x.ndim
    for a, start, stop, step in slice_params(node, x.shape, arrays):
        index[a] = slice(start, stop if stop >= 0 else None, step)
    return [x[tuple(index)]]


def _binary(fn):
    def fold(node, arrays):
        return [np.asarray(fn(arrays[0], arrays[1]))]
    return fold


def _div(node, arrays):
    a, b = arrays
    if np.issubdtype(a.dtype, np.integer):
        return [_int_div(a, b)]
    return [(a / b).astype(a.dtype)]


def _cast(node, arrays):
    to = onnx_dtype(node.attr("to"), "Cast target")
    return [arrays[0].astype(to)]


def _shape(node, arrays):
    shape = np.asarray(arrays[0].shape, dtype=np.int64)
    start = node.attr("start", 0)
    end = node.attr("end", None)
    return [shape[start:end]]


def _gather(node, arrays):
    axis = node.attr("axis", 0)
    data, idx = arrays
    axis = _norm([axis], data.ndim)[0]
    idx = np.where(idx < 0, idx + data.shape[axis], idx)
    return [np.take(data, idx, axis=axis)]


def _concat(node, arrays):
    axis = node.attr("axis")
    return [np.concatenate(arrays, axis=_norm([axis], arrays[0].ndim)[0])]


def _reshape(node, arrays):
    allowzero = node.attr("allowzero", 0)
    if node.opset < 5:
        target = node.attr("shape")
    else:
        target = arrays[1]
    return [arrays[0].reshape(reshape_target(arrays[0].shape, np.asarray(target).reshape(-1),
                                             allowzero))]


def _unsqueeze(node, arrays):
    x = arrays[0]
    axes = _axes_arg(node, arrays, 1)
    axes = sorted(_norm(axes, x.ndim + len(axes)))
    for a in axes:
        x = np.expand_dims(x, a)
    return [x]


def _squeeze(node, arrays):
    x = arrays[0]
    axes = _axes_arg(node, arrays, 1)
    if axes is None:
        return [np.squeeze(x)]
    return [np.squeeze(x, axis=tuple(_norm(axes, x.ndim)))]


def _flatten(node, arrays):
    x = arrays[0]
    axis = node.attr("axis", 1)
    axis = axis + x.ndim if axis < 0 else axis
    return [x.reshape(int(np.prod(x.shape[:axis], dtype=np.int64)), -1)]


def _transpose(node, arrays):
    perm = node.attr("perm")
    return [np.transpose(arrays[0], perm)]


def _constant_of_shape(node, arrays):
    value = node.attr("value")
    v = numpy_helper.to_array(value).reshape(-1) if value is not None else np.zeros(
        1, np.float32)
    shape = [int(s) for s in arrays[0].reshape(-1)]
    return [np.full(shape, v[0], dtype=v.dtype)]


def _range(node, arrays):
    start, limit, delta = (np.asarray(a).reshape(()) for a in arrays)
    return [np.arange(start, limit, delta, dtype=start.dtype)]


def _expand(node, arrays):
    x, shape = arrays
    out = np.broadcast_shapes(x.shape, tuple(int(s) for s in shape.reshape(-1)))
    return [np.broadcast_to(x, out).copy()]


def _tile(node, arrays):
    return [np.tile(arrays[0], [int(r) for r in arrays[1].reshape(-1)])]


def _where(node, arrays):
    c, a, b = arrays
    return [np.where(c, a, b)]


def _variadic(fn):
    def fold(node, arrays):
        out = arrays[0]
        for a in arrays[1:]:
            out = fn(out, a)
        return [np.asarray(out)]
    return fold


def _reduce(fn):
    def fold(node, arrays):
        x = arrays[0]
        axes = _axes_arg(node, arrays, 1)
        keep = node.attr("keepdims", 1)
        if axes is None or axes == []:
            if node.attr("noop_with_empty_axes", 0) and axes == []:
                return [x]
            axes = list(range(x.ndim))
        return [np.asarray(fn(x, axis=tuple(_norm(axes, x.ndim)), keepdims=bool(keep)),
                           dtype=x.dtype)]
    return fold


def _clip(node, arrays):
    x = arrays[0]
    lo = arrays[1] if len(arrays) > 1 and arrays[1] is not None else node.attr("min")
    hi = arrays[2] if len(arrays) > 2 and arrays[2] is not None else node.attr("max")
    if lo is not None:
        x = np.maximum(x, np.asarray(lo, x.dtype))
    if hi is not None:
        x = np.minimum(x, np.asarray(hi, x.dtype))
    return [x]


def _identity(node, arrays):
    return [arrays[0]]


def _split(node, arrays):
    x = arrays[0]
    axis = _norm([node.attr("axis", 0)], x.ndim)[0]
    sizes = split_sizes(node, x.shape[axis], arrays)
    cuts = np.cumsum(sizes)[:-1]
    return list(np.split(x, cuts, axis=axis))


def split_sizes(node, dim, arrays):
    split = None
    if len(arrays) > 1 and arrays[1] is not None:
        if not isinstance(arrays[1], np.ndarray):
            raise NodeError("split sizes must be a constant")
        split = [int(s) for s in arrays[1].reshape(-1)]
    elif node.attr("split") is not None:
        split = [int(s) for s in node.attr("split")]
    n = len(node.proto.output)
    num = node.attr("num_outputs", None)
    if split is None:
        parts = num or n
        step = -(-dim // parts)
        split = [min(step, dim - i * step) for i in range(parts)]
    if sum(split) != dim:
        raise NodeError("split sizes %s do not add up to %d" % (split, dim))
    return split


def trilu_mask(node, shape, arrays):
    """The boolean mask Trilu keeps, for the last two dimensions of shape."""
    k = int(np.asarray(arrays[1]).reshape(-1)[0]) if len(arrays) > 1 and arrays[1] is not None \
        else 0
    rows, cols = shape[-2], shape[-1]
    i, j = np.indices((rows, cols))
    return (j - i >= k) if node.attr("upper", 1) else (j - i <= k)


def _trilu(node, arrays):
    x = arrays[0]
    return [np.where(trilu_mask(node, x.shape, arrays), x, np.zeros((), x.dtype))]


_FOLDERS = {
    "Trilu": _trilu,
    "Identity": _identity,
    "Cast": _cast,
    "Shape": _shape,
    "Size": lambda n, a: [np.asarray(a[0].size, dtype=np.int64)],
    "Gather": _gather,
    "Concat": _concat,
    "Reshape": _reshape,
    "Unsqueeze": _unsqueeze,
    "Squeeze": _squeeze,
    "Flatten": _flatten,
    "Transpose": _transpose,
    "Slice": _slice,
    "Split": _split,
    "ConstantOfShape": _constant_of_shape,
    "Range": _range,
    "Expand": _expand,
    "Tile": _tile,
    "Where": _where,
    "Add": _binary(np.add),
    "Sub": _binary(np.subtract),
    "Mul": _binary(np.multiply),
    "Div": _div,
    "Mod": _binary(np.fmod),
    "Pow": _binary(lambda a, b: np.power(a, b.astype(a.dtype))),
    "Equal": _binary(np.equal),
    "Less": _binary(np.less),
    "LessOrEqual": _binary(np.less_equal),
    "Greater": _binary(np.greater),
    "GreaterOrEqual": _binary(np.greater_equal),
    "And": _binary(np.logical_and),
    "Or": _binary(np.logical_or),
    "Xor": _binary(np.logical_xor),
    "Not": lambda n, a: [np.logical_not(a[0])],
    "Neg": lambda n, a: [np.negative(a[0])],
    "Abs": lambda n, a: [np.abs(a[0])],
    "Floor": lambda n, a: [np.floor(a[0])],
    "Ceil": lambda n, a: [np.ceil(a[0])],
    "Sqrt": lambda n, a: [np.sqrt(a[0])],
    "Reciprocal": lambda n, a: [(1 / a[0]).astype(a[0].dtype)],
    "Sign": lambda n, a: [np.sign(a[0])],
    "Min": _variadic(np.minimum),
    "Max": _variadic(np.maximum),
    "Sum": _variadic(np.add),
    "Clip": _clip,
    "ReduceProd": _reduce(np.prod),
    "ReduceSum": _reduce(np.sum),
    "ReduceMin": _reduce(np.min),
    "ReduceMax": _reduce(np.max),
}


for _name, _fn in _FOLDERS.items():
    folder(_name, reads_data=_name not in ("Shape", "Size"),
           noted=_name not in ("ConstantOfShape", "Range"))(_fn)


@converter("Constant")
def _constant(em, node, inputs):
    return [Value.constant(constant_value(node))]

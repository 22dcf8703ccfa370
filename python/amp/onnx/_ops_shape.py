# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Data movement converters: Reshape, Transpose, Concat, Slice, Gather, ...

Index arguments (shapes, axes, starts, ...) must be constants; with static
input shapes that is what shape subgraphs fold to.
"""

import numpy as np

from . import _fold
from ._builders import (add, broadcast_to, cast, concat, extract_slice, narrow_ints,
                        need_const, norm_axis, opt_input, pad, reshape, tile, tosa_elementwise,
                        transpose)
from ._errors import NodeError
from ._ir import Value, element_type
from ._registry import converter


def _const_ints(v, what):
    return [int(x) for x in need_const(v, what).reshape(-1)]


@converter("Reshape")
def _reshape(em, node, inputs):
    x = inputs[0]
    allowzero = node.attr("allowzero", 0)
    target = node.attr("shape") if node.opset < 5 else _const_ints(inputs[1], "Reshape shape")
    return reshape(em, x, _fold.reshape_target(x.shape, target, allowzero))


@converter("Flatten")
def _flatten(em, node, inputs):
    x = inputs[0]
    axis = node.attr("axis", 1)
    if not -x.rank <= axis <= x.rank:
        raise NodeError("axis %d is out of range for rank %d" % (axis, x.rank))
    axis = axis + x.rank if axis < 0 else axis
    return reshape(em, x, (int(np.prod(x.shape[:axis], dtype=np.int64)),
                           int(np.prod(x.shape[axis:], dtype=np.int64))))


def _axes(node, inputs, rank):
    if len(inputs) > 1 and inputs[1] is not None:
        axes = _const_ints(inputs[1], "axes")
    else:
        axes = node.attr("axes")
    if axes is None:
        return None
    return sorted(norm_axis(a, rank) for a in axes)


@converter("Squeeze")
def _squeeze(em, node, inputs):
    x = inputs[0]
    axes = _axes(node, inputs, x.rank)
    if axes is None:
        axes = [i for i, d in enumerate(x.shape) if d == 1]
    for a in axes:
        if x.shape[a] != 1:
            raise NodeError("cannot squeeze axis %d of size %d" % (a, x.shape[a]))
    return reshape(em, x, [d for i, d in enumerate(x.shape) if i not in axes])


@converter("Unsqueeze")
def _unsqueeze(em, node, inputs):
    x = inputs[0]
    n = len(_const_ints(inputs[1], "axes")) if len(inputs) > 1 and inputs[1] is not None \
        else len(node.attr("axes"))
    axes = _axes(node, inputs, x.rank + n)
    shape = list(x.shape)
    for a in axes:
        shape.insert(a, 1)
    return reshape(em, x, shape)


@converter("Transpose")
def _transpose(em, node, inputs):
    x = inputs[0]
    perm = node.attr("perm")
    if perm is None:
        perm = list(reversed(range(x.rank)))
    return transpose(em, x, perm)


@converter("Concat")
def _concat(em, node, inputs):
    vs = narrow_ints([v for v in inputs if v is not None])
    axis = norm_axis(node.attr("axis"), vs[0].rank)
    dtype = vs[0].dtype
    return concat(em, [cast(em, v, dtype) for v in vs], axis)


def reverse(em, v, axis):
    if v.is_const:
        return Value.constant(np.ascontiguousarray(np.flip(v.const, axis)))
    return em.op("tosa.reverse", [v], [em.new(v.shape, v.dtype)], "axis = %d : i32" % axis)


@converter("Slice")
def _slice(em, node, inputs):
    x = inputs[0]
    arrays = [None] + [need_const(v, "Slice argument") if v is not None else None
                       for v in inputs[1:]]
    offsets, sizes, strides = [0] * x.rank, list(x.shape), [1] * x.rank
    for axis, start, stop, step in _fold.slice_params(node, x.shape, arrays):
        if step < 0:
            # Reverse the axis, then slice forwards.
            x = reverse(em, x, axis)
            n = x.shape[axis]
            start, stop, step = n - 1 - start, n - 1 - stop, -step
        size = max(0, -(-(stop - start) // step))
        if size == 0:
            raise NodeError("slice of axis %d is empty" % axis)
        offsets[axis], sizes[axis], strides[axis] = start, size, step
    return extract_slice(em, x, offsets, sizes, strides)


@converter("Split")
def _split(em, node, inputs):
    x = inputs[0]
    axis = norm_axis(node.attr("axis", 0), x.rank)
    arrays = [None] + [need_const(v, "split") if v is not None else None for v in inputs[1:]]
    sizes = _fold.split_sizes(node, x.shape[axis], arrays)
    outs, off = [], 0
    for s in sizes:
        offsets = [0] * x.rank
        offsets[axis] = off
        shape = list(x.shape)
        shape[axis] = s
        outs.append(extract_slice(em, x, offsets, shape))
        off += s
    return outs


@converter("Gather")
def _gather(em, node, inputs):
    data, idx = inputs
    axis = norm_axis(node.attr("axis", 0), data.rank)
    k = data.shape[axis]
    out_shape = data.shape[:axis] + idx.shape + data.shape[axis + 1:]
    if idx.is_const:
        ind = idx.const.astype(np.int64).reshape(-1)
        if np.any(ind < -k) or np.any(ind >= k):
            raise NodeError("index out of range for axis %d of size %d" % (axis, k))
        ind = np.where(ind < 0, ind + k, ind)
        if len(ind) and np.all(np.diff(ind) == 1):
            # A contiguous range: a slice.
            offsets = [0] * data.rank
            offsets[axis] = int(ind[0])
            sizes = list(data.shape)
            sizes[axis] = len(ind)
            return reshape(em, extract_slice(em, data, offsets, sizes), out_shape)
        ind_v = Value.constant(ind.astype(np.int32).reshape(1, -1))
    else:
        ind_v = cast(em, reshape(em, idx, (1, idx.size)), np.int32)
        zero = Value.constant(np.zeros([1, 1], np.int32))
        neg = tosa_elementwise(em, "tosa.greater", [zero, ind_v], np.bool_)
        wrapped = add(em, ind_v, Value.constant(np.full([1, 1], k, np.int32)))
        ind_v = tosa_elementwise(em, "tosa.select", [neg, wrapped, ind_v])
    n = int(np.prod(data.shape[:axis], dtype=np.int64))
    c = int(np.prod(data.shape[axis + 1:], dtype=np.int64))
    values = reshape(em, data, (n, k, c))
    ind_v = tile(em, ind_v, [n, 1])
    g = em.op("tosa.gather", [values, ind_v], [em.new((n, ind_v.shape[1], c), data.dtype)])
    return reshape(em, g, out_shape)


@converter("Expand")
def _expand(em, node, inputs):
    x = inputs[0]
    shape = _const_ints(inputs[1], "Expand shape")
    out = np.broadcast_shapes(x.shape, tuple(shape))
    return broadcast_to(em, x, out)


@converter("Tile")
def _tile(em, node, inputs):
    x = inputs[0]
    return tile(em, x, _const_ints(inputs[1], "Tile repeats"))


@converter("Pad")
def _pad(em, node, inputs):
    x = inputs[0]
    mode = node.attr("mode", "constant")
    if mode not in ("constant", "reflect", "edge"):
        raise NodeError("mode=%s is not supported" % mode)
    if node.opset < 11:
        pads = node.attr("pads")
        value = node.attr("value", 0.0)
        axes = list(range(x.rank))
    else:
        pads = _const_ints(inputs[1], "pads")
        cv = opt_input(inputs, 2)
        value = float(need_const(cv, "constant_value").reshape(-1)[0]) if cv is not None else 0.0
        av = opt_input(inputs, 3)
        axes = [norm_axis(a, x.rank) for a in _const_ints(av, "axes")] if av is not None \
            else list(range(x.rank))
    n = len(axes)
    per = [(0, 0)] * x.rank
    for i, a in enumerate(axes):
        per[a] = (pads[i], pads[i + n])
    if any(b < 0 or e < 0 for b, e in per):
        # Negative pads crop.
        offsets = [max(0, -b) for b, _ in per]
        sizes = [d - max(0, -b) - max(0, -e) for d, (b, e) in zip(x.shape, per)]
        x = extract_slice(em, x, offsets, sizes)
        per = [(max(0, b), max(0, e)) for b, e in per]
    if mode == "constant":
        return pad(em, x, per, value)
    # edge / reflect: each padded axis is a concatenation of slices of the
    # input (reversed for reflect).
    for axis, (b, e) in enumerate(per):
        if not b and not e:
            continue
        n = x.shape[axis]
        if mode == "reflect" and (b >= n or e >= n):
            raise NodeError("reflect pads of %d, %d need an axis longer than %d" % (b, e, n))

        def piece(start, size):
            offsets = [0] * x.rank
            offsets[axis] = start
            sizes = list(x.shape)
            sizes[axis] = size
            return extract_slice(em, x, offsets, sizes)

        parts = []
        if b:
            if mode == "edge":
                parts.append(tile(em, piece(0, 1), [b if i == axis else 1
                                                     for i in range(x.rank)]))
            else:
                parts.append(reverse(em, piece(1, b), axis))
        parts.append(x)
        if e:
            if mode == "edge":
                parts.append(tile(em, piece(n - 1, 1), [e if i == axis else 1
                                                         for i in range(x.rank)]))
            else:
                parts.append(reverse(em, piece(n - 1 - e, e), axis))
        x = concat(em, parts, axis)
    return x


@converter("Trilu")
def _trilu(em, node, inputs):
    x = inputs[0]
    kv = opt_input(inputs, 1)
    arrays = [None, need_const(kv, "Trilu k") if kv is not None else None]
    mask = Value.constant(_fold.trilu_mask(node, x.shape, arrays))
    zero = Value.constant(np.zeros([1] * x.rank, x.dtype))
    return tosa_elementwise(em, "tosa.select", [mask, x, zero], x.dtype)


@converter("GatherElements")
def _gather_elements(em, node, inputs):
    """out[..., j, ...] = data[..., idx[..., j, ...], ...] along axis: a
    linalg.generic over the indices that extracts from the data."""
    data, idx = inputs
    axis = norm_axis(node.attr("axis", 0), data.rank)
    if idx.rank != data.rank:
        raise NodeError("indices of rank %d for data of rank %d" % (idx.rank, data.rank))
    k = data.shape[axis]
    if idx.is_const:
        ind = idx.const.astype(np.int64)
        if np.any(ind < -k) or np.any(ind >= k):
            raise NodeError("index out of range for axis %d of size %d" % (axis, k))
        idx = Value.constant(np.where(ind < 0, ind + k, ind).astype(np.int32))
    else:
        idx = cast(em, idx, np.int32)
    rank = data.rank
    src = em.use(data)
    ind = em.use(idx)
    out = em.new(idx.shape, data.dtype)
    empty = em.fresh()
    em.emit("%s = tensor.empty() : %s" % (empty, out.type))
    dims = ", ".join("d%d" % i for i in range(rank))
    idmap = "affine_map<(%s) -> (%s)>" % (dims, dims)
    a_i, a_o = em.fresh(), em.fresh()
    em.emit("%s = linalg.generic {indexing_maps = [%s, %s], iterator_types = [%s]} "
            "ins(%s : %s) outs(%s : %s) {" % (out.name, idmap, idmap,
                                               ", ".join(['"parallel"'] * rank), ind, idx.type,
                                               empty, out.type), loc=False)
    em.block([(a_i, "i32"), (a_o, element_type(data.dtype))])
    coords = []
    for d in range(rank):
        c = em.fresh()
        if d == axis:
            # Negative indices count from the end.
            kk, neg, wrapped, sel = em.fresh(), em.fresh(), em.fresh(), em.fresh()
            zero = em.fresh()
            em.body("%s = arith.constant %d : i32" % (kk, k))
            em.body("%s = arith.constant 0 : i32" % zero)
            em.body("%s = arith.cmpi slt, %s, %s : i32" % (neg, a_i, zero))
            em.body("%s = arith.addi %s, %s : i32" % (wrapped, a_i, kk))
            em.body("%s = arith.select %s, %s, %s : i32" % (sel, neg, wrapped, a_i))
            em.body("%s = arith.index_cast %s : i32 to index" % (c, sel))
        else:
            em.body("%s = linalg.index %d : index" % (c, d))
        coords.append(c)
    v = em.fresh()
    em.body("%s = tensor.extract %s[%s] : %s" % (v, src, ", ".join(coords),
                                                              data.type))
    em.body("linalg.yield %s : %s" % (v, element_type(data.dtype)))
    em.end_region("-> %s" % out.type)
    return out

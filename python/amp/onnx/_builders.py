# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Building blocks the op converters share: reshapes, transposes, casts,
broadcasting elementwise ops, linalg.generic bodies, slices, pads,
reductions and numpy-semantics matmul, each emitted through the emitter
(constants are computed in numpy instead). No op is registered here.

Layout: ONNX is NCHW; TOSA's convolutions and pools are NHWC, so those ops
are wrapped in transposes (weights are transposed at import time).
"""

import numpy as np

from ._errors import NodeError
from ._ir import Value, element_type, float_attr, i32_array

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
    em.block([(a, element_type(o.dtype)) for a, o in zip(args, ops)]
             + [(outarg, element_type(out_dtype))])
    for line in lines:
        em.body(line)
    em.body("linalg.yield %s : %s" % (result, element_type(out_dtype)))
    em.end_region("-> %s" % out.type)
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
    em.emit("%s = tensor.pad %s low[%s] high[%s] {" % (
        r.name, src, ", ".join(str(b) for b, _ in pads), ", ".join(str(a) for _, a in pads)),
        loc=False)
    em.block([(em.fresh(), "index") for _ in pads])
    em.body("tensor.yield %s : %s" % (cst, et))
    em.end_region(": %s to %s" % (v.type, r.type))
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


# --- matrix products -------------------------------------------------------

def matmul(em, a, b):
    """numpy.matmul semantics with tosa.matmul (batched, 3-D)."""
    if a.rank == 0 or b.rank == 0:
        raise NodeError("MatMul of a scalar")
    a_vec, b_vec = a.rank == 1, b.rank == 1
    if a_vec:
        a = reshape(em, a, (1, a.shape[0]))
    if b_vec:
        b = reshape(em, b, (b.shape[0], 1))
    m, k = a.shape[-2:]
    k2, nn = b.shape[-2:]
    if k != k2:
        raise NodeError("MatMul shapes %s and %s do not match" % (list(a.shape), list(b.shape)))
    batch = broadcast_shape_nd(a.shape[:-2], b.shape[:-2])
    nb = int(np.prod(batch, dtype=np.int64))
    if b.rank == 2 or all(d == 1 for d in b.shape[:-2]):
        # Shared right-hand side: fold the batch into the rows.
        a3 = reshape(em, broadcast_to(em, a, batch + (m, k)), (1, nb * m, k))
        b3 = reshape(em, b, (1, k, nn))
        y = em.op("tosa.matmul", [a3, b3, em.zero_point(a.dtype), em.zero_point(b.dtype)],
                  [em.new((1, nb * m, nn), a.dtype)])
    else:
        a3 = reshape(em, broadcast_to(em, a, batch + (m, k)), (nb, m, k))
        b3 = reshape(em, broadcast_to(em, b, batch + (k, nn)), (nb, k, nn))
        y = em.op("tosa.matmul", [a3, b3, em.zero_point(a.dtype), em.zero_point(b.dtype)],
                  [em.new((nb, m, nn), a.dtype)])
    shape = list(batch) + ([] if a_vec else [m]) + ([] if b_vec else [nn])
    return reshape(em, y, shape)


def broadcast_shape_nd(a, b):
    try:
        return tuple(np.broadcast_shapes(tuple(a), tuple(b)))
    except ValueError:
        raise NodeError("batch dimensions %s and %s do not broadcast" % (list(a), list(b)))

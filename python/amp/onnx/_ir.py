# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""MLIR text for the ONNX importer: types, dense constants, values.

The importer writes MLIR as text (Debian ships no MLIR Python bindings).
Everything here is about spelling: ONNX element types as numpy dtypes,
numpy dtypes and arrays as MLIR types and attributes, and `Value`, an SSA
name with a static shape and a numpy dtype, or a constant known at import
time. (The SSA names themselves come from the emitter, `_emitter.py`.)
"""

import numpy as np
import onnx

from ._errors import NodeError

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
    """The numpy dtype of an ONNX element type code; NodeError naming `what`
    for one amp cannot carry."""
    if code not in _ONNX_DTYPES:
        raise NodeError("%s has element type %s, which is not supported"
                        % (what, onnx.TensorProto.DataType.Name(code)))
    return np.dtype(_ONNX_DTYPES[code])


# numpy dtype -> MLIR element type.
_ELEMENT_TYPES = {
    np.dtype(np.float32): "f32",
    np.dtype(np.float16): "f16",
    np.dtype(np.float64): "f64",
    np.dtype(np.int64): "i64",
    np.dtype(np.int32): "i32",
    np.dtype(np.int16): "i16",
    np.dtype(np.int8): "i8",
    np.dtype(np.uint8): "ui8",
    np.dtype(np.bool_): "i1",
}

# Constants at or below this many elements are written as readable lists;
# larger ones as raw little-endian bytes (dense<"0x...">), which MLIR parses
# fast and which keeps multi-megabyte weights exact.
_LIST_LIMIT = 16


def element_type(dtype):
    dtype = np.dtype(dtype)
    if dtype not in _ELEMENT_TYPES:
        raise TypeError("element type %s has no MLIR spelling here" % dtype)
    return _ELEMENT_TYPES[dtype]


def tensor_type(shape, dtype):
    dims = "".join("%dx" % d for d in shape)
    return "tensor<%s%s>" % (dims, element_type(dtype))


def _scalar(x, dtype):
    if dtype == np.bool_:
        return "true" if x else "false"
    if np.issubdtype(dtype, np.integer):
        return str(int(x))
    return repr(float(x))


def dense_attr(array):
    """`dense<...> : tensor<...>` for a numpy array."""
    return "".join(dense_attr_parts(array))


def dense_attr_parts(array):
    """dense_attr as a list of strings. A large payload is one hex string
    of its own, so callers can write it without copying it around."""
    array = np.asarray(array)
    small = _small_form(array)
    if small is not None:
        return [small]
    flat = np.ascontiguousarray(array.reshape(-1))
    data = flat.astype(array.dtype.newbyteorder("<"), copy=False)
    return ['dense<"0x', memoryview(data).cast("B").hex(), '"> : ', tensor_type(array.shape, array.dtype)]


def _small_form(array):
    """A splat or a readable list, or None when the hex form is needed."""
    ty = tensor_type(array.shape, array.dtype)
    flat = array.reshape(-1)
    if flat.size == 0:
        return "dense<> : %s" % ty
    floating = np.issubdtype(array.dtype, np.floating)
    finite = not floating or bool(np.all(np.isfinite(flat)))
    if flat.size > 1 and finite and np.all(flat == flat[0]) and (
            not floating or np.all(np.signbit(flat) == np.signbit(flat[0]))):
        return "dense<%s> : %s" % (_scalar(flat[0], array.dtype), ty)
    if (flat.size <= _LIST_LIMIT and finite) or array.dtype == np.bool_:
        # (MLIR's hex form for i1 packs bits; masks are written as lists.)
        items = [_scalar(x, array.dtype) for x in flat]
        if array.ndim == 0:
            return "dense<%s> : %s" % (items[0], ty)
        return "dense<%s> : %s" % (_nest(items, array.shape), ty)
    return None


def _nest(items, shape):
    if len(shape) == 1:
        return "[" + ", ".join(items) + "]"
    step = len(items) // shape[0]
    return "[" + ", ".join(_nest(items[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


def float_attr(x, dtype=np.float32):
    """A float attribute; infinities as bit patterns."""
    x = float(x)
    if np.isfinite(x):
        return "%s : %s" % (repr(x), element_type(dtype))
    bits = np.array([x], dtype=dtype).view({2: np.uint16, 4: np.uint32, 8: np.uint64}[
        np.dtype(dtype).itemsize])[0]
    width = np.dtype(dtype).itemsize * 2
    return "0x%0*X : %s" % (width, int(bits), element_type(dtype))


def i64_array(values):
    return "array<i64: %s>" % ", ".join(str(int(v)) for v in values)


def i32_array(values):
    return "array<i32: %s>" % ", ".join(str(int(v)) for v in values)


def location(name):
    return 'loc("%s")' % name.replace("\\", "\\\\").replace('"', '\\"')


class Value:
    """An ONNX tensor during import: a constant or an SSA value."""

    __slots__ = ("name", "shape", "dtype", "const", "_materialized")

    def __init__(self, shape, dtype, name=None, const=None):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.name = name
        self.const = const
        self._materialized = None

    @classmethod
    def constant(cls, array):
        array = np.asarray(array)
        return cls(array.shape, array.dtype, const=array)

    @property
    def is_const(self):
        return self.const is not None

    @property
    def rank(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def type(self):
        return tensor_type(self.shape, self.dtype)

    def __repr__(self):
        return "Value(%s, %s%s)" % (self.name, self.type, ", const" if self.is_const else "")

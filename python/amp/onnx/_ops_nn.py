# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Neural-network converters: convolutions, pools, normalizations, matmuls,
softmax, reductions, resize and Einsum. (The recurrent ones, LSTM, GRU and
RNN, are in _ops_recurrent.py.)"""

import numpy as np

from ._builders import (add, concat, divide, extract_slice, is_float,
                        matmul, mean, mul, need_const, norm_axis, opt_input, pad, reduce,
                        reshape, scalar, sqrt, sub, transpose)
from ._errors import NodeError
from ._ir import Value, element_type, i64_array
from ._registry import converter
from ._resize import resize_params

NCHW_TO_NHWC = [0, 2, 3, 1]
NHWC_TO_NCHW = [0, 3, 1, 2]


# --- convolution and pooling geometry ---------------------------------------

def _spatial_attrs(node, x, kernel):
    """(strides, dilations, [(pad_begin, pad_end)]) for the 2 spatial axes."""
    nsp = len(kernel)
    strides = list(node.attr("strides", [1] * nsp))
    dilations = list(node.attr("dilations", [1] * nsp))
    auto_pad = node.attr("auto_pad", "NOTSET")
    if auto_pad in ("NOTSET", ""):
        pads = list(node.attr("pads", [0] * (2 * nsp)))
        pairs = [(pads[i], pads[i + nsp]) for i in range(nsp)]
    elif auto_pad == "VALID":
        pairs = [(0, 0)] * nsp
    elif auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        pairs = []
        for i in range(nsp):
            size = x.shape[2 + i]
            out = -(-size // strides[i])
            eff = (kernel[i] - 1) * dilations[i] + 1
            total = max(0, (out - 1) * strides[i] + eff - size)
            small = total // 2
            pairs.append((small, total - small) if auto_pad == "SAME_UPPER"
                         else (total - small, small))
    else:
        raise NodeError("auto_pad=%s is not supported" % auto_pad)
    return strides, dilations, pairs


def _fit(size, eff, stride, begin, end, ceil_mode=False):
    """TOSA wants (size + pads - eff) divisible by the stride: trim the end
    padding (or, past it, input rows no window reads) by the remainder.
    Returns (begin, end, rows_to_cut, out_size)."""
    span = size + begin + end - eff
    if span < 0:
        raise NodeError("window of %d does not fit an input of %d with pads %d, %d"
                        % (eff, size, begin, end))
    if ceil_mode:
        out = -(-span // stride) + 1
        if (out - 1) * stride >= size + begin:
            out -= 1  # the last window would start in the end padding
        end = (out - 1) * stride + eff - size - begin
        if end < 0:
            return begin, 0, -end, out
        return begin, end, 0, out
    out = span // stride + 1
    r = span % stride
    cut = 0
    if r:
        d = min(r, end)
        end -= d
        cut = r - d
    return begin, end, cut, out


def _nhwc_input(em, x, cuts):
    if any(cuts):
        x = extract_slice(em, x, [0, 0, 0, 0],
                          [x.shape[0], x.shape[1], x.shape[2] - cuts[0], x.shape[3] - cuts[1]])
    return transpose(em, x, NCHW_TO_NHWC)


def _as_2d(x):
    """1-D spatial ops run as 2-D with a unit height."""
    return x.rank == 3


@converter("Conv")
def _conv(em, node, inputs):
    x, w = inputs[0], inputs[1]
    b = opt_input(inputs, 2)
    if not is_float(x):
        raise NodeError("only float convolutions are supported")
    if x.rank not in (3, 4):
        raise NodeError("%d-D convolution is not supported (1-D and 2-D are)" % (x.rank - 2))
    one_d = _as_2d(x)
    if one_d:
        x = reshape(em, x, (x.shape[0], x.shape[1], 1, x.shape[2]))
        w = reshape(em, w, (w.shape[0], w.shape[1], 1, w.shape[2]))
    kernel = node.attr("kernel_shape", list(w.shape[2:]))
    if one_d and len(kernel) == 1:
        kernel = [1] + list(kernel)
    if list(kernel) != list(w.shape[2:]):
        raise NodeError("kernel_shape %s does not match the weights %s"
                        % (list(kernel), list(w.shape)))
    if one_d:
        node.attrs = dict(node.attrs)
        for key, fill in (("strides", 1), ("dilations", 1)):
            if key in node.attrs:
                node.attrs[key] = [fill] + list(node.attrs[key])
        if "pads" in node.attrs:
            p = list(node.attrs["pads"])
            node.attrs["pads"] = [0, p[0], 0, p[1]]
    group = node.attr("group", 1)
    strides, dilations, pairs = _spatial_attrs(node, x, kernel)
    n, c, h, wd = x.shape
    oc = w.shape[0]
    if c % group or oc % group or w.shape[1] != c // group:
        raise NodeError("weights %s do not fit %d input channels in %d groups"
                        % (list(w.shape), c, group))
    fits = [_fit(x.shape[2 + i], (kernel[i] - 1) * dilations[i] + 1, strides[i], *pairs[i])
            for i in range(2)]
    pad_attr = [fits[0][0], fits[0][1], fits[1][0], fits[1][1]]
    xh = _nhwc_input(em, x, [fits[0][2], fits[1][2]])
    out_hw = [fits[0][3], fits[1][3]]
    bias = b if b is not None else Value.constant(np.zeros([oc], x.dtype))
    zp = em.zero_point(x.dtype)
    attrs = ("acc_type = f32, dilation = %s, pad = %s, stride = %s"
             % (i64_array(dilations), i64_array(pad_attr), i64_array(strides)))
    if x.dtype != np.float32:
        attrs = attrs.replace("acc_type = f32", "acc_type = %s" % element_type(x.dtype))
    if group == 1:
        wt = transpose(em, w, [0, 2, 3, 1])  # OIHW -> OHWI
        y = em.op("tosa.conv2d", [xh, wt, bias, zp, zp],
                  [em.new((n, out_hw[0], out_hw[1], oc), x.dtype)], attrs)
    elif group == c:
        m = oc // c
        wt = transpose(em, reshape(em, w, (c, m, kernel[0], kernel[1])), [2, 3, 0, 1])
        y = em.op("tosa.depthwise_conv2d", [xh, wt, bias, zp, zp],
                  [em.new((n, out_hw[0], out_hw[1], oc), x.dtype)], attrs)
    else:
        cg, og = c // group, oc // group
        parts = []
        for g in range(group):
            xg = extract_slice(em, xh, [0, 0, 0, g * cg], [n, xh.shape[1], xh.shape[2], cg])
            wg = extract_slice(em, w, [g * og, 0, 0, 0], [og, cg, kernel[0], kernel[1]])
            bg = extract_slice(em, bias, [g * og], [og])
            parts.append(em.op("tosa.conv2d", [xg, transpose(em, wg, [0, 2, 3, 1]), bg, zp, zp],
                               [em.new((n, out_hw[0], out_hw[1], og), x.dtype)], attrs))
        y = concat(em, parts, 3)
    y = transpose(em, y, NHWC_TO_NCHW)
    if one_d:
        y = reshape(em, y, (n, oc, out_hw[1]))
    return y


@converter("ConvTranspose")
def _conv_transpose(em, node, inputs):
    x, w = inputs[0], inputs[1]
    b = opt_input(inputs, 2)
    if x.rank == 3:
        # 1-D: 2-D with a unit height.
        node.attrs = dict(node.attrs)
        for key, fill in (("kernel_shape", 1), ("strides", 1), ("dilations", 1),
                          ("output_padding", 0)):
            if key in node.attrs:
                node.attrs[key] = [fill] + list(node.attrs[key])
        if "pads" in node.attrs:
            p = list(node.attrs["pads"])
            node.attrs["pads"] = [0, p[0], 0, p[1]]
        if "output_shape" in node.attrs:
            node.attrs["output_shape"] = [1] + list(node.attrs["output_shape"])[-1:]
        x4 = reshape(em, x, (x.shape[0], x.shape[1], 1, x.shape[2]))
        w4 = reshape(em, w, (w.shape[0], w.shape[1], 1, w.shape[2]))
        y = _conv_transpose(em, node, [x4, w4] + ([b] if b is not None else []))
        return reshape(em, y, (y.shape[0], y.shape[1], y.shape[3]))
    if x.rank != 4:
        raise NodeError("only 1-D and 2-D ConvTranspose is supported")
    kernel = list(node.attr("kernel_shape", list(w.shape[2:])))
    strides = list(node.attr("strides", [1, 1]))
    dilations = list(node.attr("dilations", [1, 1]))
    if dilations != [1, 1]:
        raise NodeError("dilations=%s is not supported" % dilations)
    group = node.attr("group", 1)
    out_padding = list(node.attr("output_padding", [0, 0]))
    output_shape = node.attr("output_shape")
    auto_pad = node.attr("auto_pad", "NOTSET")
    n, c, h, wd = x.shape
    ocg = w.shape[1]
    oc = ocg * group
    if w.shape[0] != c or c % group:
        raise NodeError("weights %s do not fit %d input channels in %d groups"
                        % (list(w.shape), c, group))
    full = [strides[i] * (x.shape[2 + i] - 1) + out_padding[i] + kernel[i] for i in range(2)]
    if output_shape is not None or auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        target = (list(output_shape)[-2:] if output_shape is not None
                  else [x.shape[2 + i] * strides[i] for i in range(2)])
        pairs = []
        for i in range(2):
            total = full[i] - target[i]
            if auto_pad == "SAME_UPPER":
                pairs.append((total // 2, total - total // 2))
            else:
                pairs.append((total - total // 2, total // 2))
    elif auto_pad in ("NOTSET", "", "VALID"):
        p = list(node.attr("pads", [0, 0, 0, 0]))
        pairs = [(p[0], p[2]), (p[1], p[3])]
    else:
        raise NodeError("auto_pad=%s is not supported" % auto_pad)
    out_hw = [full[i] - pairs[i][0] - pairs[i][1] for i in range(2)]
    if min(out_hw) <= 0:
        raise NodeError("pads %s leave no output" % pairs)
    # The full transposed convolution (out_pad 0); pads crop it and
    # output_padding extends it afterwards. (Negative out_pad on
    # tosa.transpose_conv2d does not survive tosa-to-linalg's validation.)
    crop = any(p for pr in pairs for p in pr) or any(out_padding)
    xh = transpose(em, x, NCHW_TO_NHWC)
    bias = b if b is not None else Value.constant(np.zeros([oc], x.dtype))
    conv_bias = Value.constant(np.zeros([oc], x.dtype)) if crop else bias
    zp = em.zero_point(x.dtype)
    attrs = "acc_type = %s, out_pad = array<i64: 0, 0, 0, 0>, stride = %s" % (
        element_type(x.dtype) if x.dtype != np.float32 else "f32", i64_array(strides))
    cg = c // group
    base = [strides[i] * (x.shape[2 + i] - 1) + kernel[i] for i in range(2)]
    parts = []
    for g in range(group):
        xg = extract_slice(em, xh, [0, 0, 0, g * cg], [n, h, wd, cg]) if group > 1 else xh
        wg = extract_slice(em, w, [g * cg, 0, 0, 0], [cg, ocg, kernel[0], kernel[1]]) \
            if group > 1 else w
        bg = extract_slice(em, conv_bias, [g * ocg], [ocg]) if group > 1 else conv_bias
        parts.append(_transposed_conv(em, xg, wg, bg, strides, kernel, base, attrs, zp))
    y = concat(em, parts, 3)
    if crop:
        # Negative pads (an output_shape beyond the full result) extend it
        # with zeros like output_padding does; positive ones crop.
        y = pad(em, y, [(0, 0)] + [(max(0, -pairs[i][0]),
                                    out_padding[i] + max(0, -pairs[i][1])) for i in range(2)]
                + [(0, 0)])
        y = extract_slice(em, y, [0, max(0, pairs[0][0]), max(0, pairs[1][0]), 0],
                          [n, out_hw[0], out_hw[1], oc])
        y = add(em, y, reshape(em, bias, (1, 1, 1, oc)))
    return transpose(em, y, NHWC_TO_NCHW)


def _transposed_conv(em, x, w, b, strides, kernel, full, attrs, zp):
    """The full transposed convolution of NHWC x by ONNX weights (in, out, kh, kw)."""
    n, h, wd, c = x.shape
    oc = w.shape[1]
    if kernel[0] % strides[0] == 0 and kernel[1] % strides[1] == 0:
        # ONNX (in, out, kh, kw) -> TOSA (out, kh, kw, in).
        return em.op("tosa.transpose_conv2d", [x, transpose(em, w, [1, 2, 3, 0]), b, zp, zp],
                     [em.new((n, full[0], full[1], oc), x.dtype)], attrs)
    # Otherwise (tosa-to-linalg would pad the weights with a rank-4 tosa.pad,
    # which its own validation rejects): a stride-1 convolution of the input
    # with zeros inserted between its rows and columns, by the flipped kernel.
    sh, sw = strides
    d = reshape(em, x, (n, h, 1, wd, 1, c))
    d = pad(em, d, [(0, 0), (0, 0), (0, sh - 1), (0, 0), (0, sw - 1), (0, 0)])
    d = reshape(em, d, (n, h * sh, wd * sw, c))
    d = extract_slice(em, d, [0, 0, 0, 0], [n, (h - 1) * sh + 1, (wd - 1) * sw + 1, c])
    if w.is_const:
        wt = Value.constant(np.ascontiguousarray(
            np.transpose(w.const[:, :, ::-1, ::-1], (1, 2, 3, 0))))
    else:
        wt = transpose(em, w, [1, 2, 3, 0])
        for axis in (1, 2):
            wt = em.op("tosa.reverse", [wt], [em.new(wt.shape, wt.dtype)],
                       "axis = %d : i32" % axis)
    kh, kw = kernel
    conv_attrs = ("acc_type = %s, dilation = array<i64: 1, 1>, pad = %s, stride = "
                  "array<i64: 1, 1>" % (attrs.split(",")[0].split("=")[1].strip(),
                                        i64_array([kh - 1, kh - 1, kw - 1, kw - 1])))
    return em.op("tosa.conv2d", [d, wt, b, zp, zp], [em.new((n, full[0], full[1], oc), x.dtype)],
                 conv_attrs)


def _pool_as_2d(node, x):
    """1-D pooling as 2-D with a unit height: attributes gain a leading axis."""
    node.attrs = dict(node.attrs)
    for key, fill in (("kernel_shape", 1), ("strides", 1), ("dilations", 1)):
        if key in node.attrs:
            node.attrs[key] = [fill] + list(node.attrs[key])
    if "pads" in node.attrs:
        p = list(node.attrs["pads"])
        node.attrs["pads"] = [0, p[0], 0, p[1]]
    return x.shape[0], x.shape[1], 1, x.shape[2]


def _pool_common(em, node, x):
    if x.rank != 4:
        raise NodeError("only 1-D and 2-D pooling is supported")
    kernel = list(node.attr("kernel_shape"))
    strides, dilations, pairs = _spatial_attrs(node, x, kernel)
    if dilations != [1, 1]:
        raise NodeError("dilations=%s is not supported" % dilations)
    ceil_mode = bool(node.attr("ceil_mode", 0))
    fits = [_fit(x.shape[2 + i], kernel[i], strides[i], *pairs[i], ceil_mode=ceil_mode)
            for i in range(2)]
    return kernel, strides, pairs, fits


@converter("MaxPool")
def _max_pool(em, node, inputs):
    x = inputs[0]
    if x.rank == 3:
        y = _max_pool(em, node, [reshape(em, x, _pool_as_2d(node, x))])
        return reshape(em, y, (y.shape[0], y.shape[1], y.shape[3]))
    node.ignore("storage_order")
    if len(node.proto.output) > 1 and node.proto.output[1]:
        raise NodeError("the Indices output is not supported")
    kernel, strides, _, fits = _pool_common(em, node, x)
    xh = _nhwc_input(em, x, [fits[0][2], fits[1][2]])
    pad_attr = [fits[0][0], fits[0][1], fits[1][0], fits[1][1]]
    if any(p >= k for p, k in zip(pad_attr, [kernel[0]] * 2 + [kernel[1]] * 2)):
        raise NodeError("pads at least the kernel size are not supported")
    y = em.op("tosa.max_pool2d", [xh],
              [em.new((x.shape[0], fits[0][3], fits[1][3], x.shape[1]), x.dtype)],
              "kernel = %s, pad = %s, stride = %s" % (i64_array(kernel), i64_array(pad_attr),
                                                      i64_array(strides)))
    return transpose(em, y, NHWC_TO_NCHW)


@converter("AveragePool")
def _avg_pool(em, node, inputs):
    x = inputs[0]
    if x.rank == 3:
        y = _avg_pool(em, node, [reshape(em, x, _pool_as_2d(node, x))])
        return reshape(em, y, (y.shape[0], y.shape[1], y.shape[3]))
    kernel, strides, pairs, fits = _pool_common(em, node, x)
    include = bool(node.attr("count_include_pad", 0))
    xh = _nhwc_input(em, x, [fits[0][2], fits[1][2]])
    pad_attr = [fits[0][0], fits[0][1], fits[1][0], fits[1][1]]
    if include and any(pad_attr):
        # The padding counts: make it real zeros, pool without padding.
        if node.attrs.get("ceil_mode", 0) and any(f[1] > p[1] for f, p in zip(fits, pairs)):
            raise NodeError("count_include_pad=1 with ceil_mode extending the pads is not "
                            "supported")
        xh = pad(em, xh, [(0, 0), (pad_attr[0], pad_attr[1]), (pad_attr[2], pad_attr[3]),
                          (0, 0)])
        pad_attr = [0, 0, 0, 0]
    if any(p >= k for p, k in zip(pad_attr, [kernel[0]] * 2 + [kernel[1]] * 2)):
        raise NodeError("pads at least the kernel size are not supported")
    zp = em.zero_point(x.dtype)
    y = em.op("tosa.avg_pool2d", [xh, zp, zp],
              [em.new((x.shape[0], fits[0][3], fits[1][3], x.shape[1]), x.dtype)],
              "acc_type = f32, kernel = %s, pad = %s, stride = %s"
              % (i64_array(kernel), i64_array(pad_attr), i64_array(strides)))
    return transpose(em, y, NHWC_TO_NCHW)


@converter("GlobalAveragePool")
def _global_avg_pool(em, node, inputs):
    """tosa.avg_pool2d over the whole image: an average pool, whose sum
    stays inside the op (in its wide accumulator) and never exists as a
    tensor of its own that a low-precision program could overflow."""
    x = inputs[0]
    if x.rank not in (3, 4):
        return mean(em, x, list(range(2, x.rank)))
    x4 = x if x.rank == 4 else reshape(em, x, (x.shape[0], x.shape[1], 1, x.shape[2]))
    n, c, h, w = x4.shape
    zp = em.zero_point(x.dtype)
    y = em.op("tosa.avg_pool2d", [transpose(em, x4, NCHW_TO_NHWC), zp, zp],
              [em.new((n, 1, 1, c), x.dtype)],
              "acc_type = f32, kernel = %s, pad = array<i64: 0, 0, 0, 0>, stride = "
              "array<i64: 1, 1>" % i64_array([h, w]))
    return reshape(em, y, (n, c) + (1,) * (x.rank - 2))


@converter("GlobalMaxPool")
def _global_max_pool(em, node, inputs):
    x = inputs[0]
    return reduce(em, "tosa.reduce_max", x, list(range(2, x.rank)))


# --- normalization ------------------------------------------------------------

def _channel_shape(x):
    return (1, x.shape[1]) + (1,) * (x.rank - 2)


@converter("BatchNormalization")
def _batch_norm(em, node, inputs):
    x, scale, bias, mean_v, var = inputs[:5]
    eps = node.attr("epsilon", 1e-5)
    node.ignore("momentum", "spatial", "is_test", "consumed_inputs")
    if node.attr("training_mode", 0):
        raise NodeError("training_mode=1 is not supported (inference only)")
    if len([o for o in node.proto.output if o]) > 1:
        raise NodeError("the running mean/variance outputs (training) are not supported")
    cs = _channel_shape(x)
    if all(v.is_const for v in (scale, bias, mean_v, var)):
        # y = x * s + t with s = scale / sqrt(var + eps), t = bias - mean * s,
        # computed here in f64 and rounded once.
        s = scale.const.astype(np.float64) / np.sqrt(var.const.astype(np.float64) + eps)
        t = bias.const.astype(np.float64) - mean_v.const.astype(np.float64) * s
        s = Value.constant(s.astype(x.dtype).reshape(cs))
        t = Value.constant(t.astype(x.dtype).reshape(cs))
        return add(em, mul(em, x, s), t)
    inv = sqrt(em, add(em, reshape(em, var, cs), scalar(eps, x.dtype)))
    y = divide(em, sub(em, x, reshape(em, mean_v, cs)), inv)
    return add(em, mul(em, y, reshape(em, scale, cs)), reshape(em, bias, cs))


def _normalize(em, x, axes, eps):
    """(x - mean) / sqrt(var + eps) over axes, plus mean and 1/std."""
    m = mean(em, x, axes)
    d = sub(em, x, m)
    var = mean(em, mul(em, d, d), axes)
    ve = add(em, var, Value.constant(np.full([1] * x.rank, eps, x.dtype)))
    inv = em.op("tosa.rsqrt", [ve], [em.new(ve.shape, x.dtype)])
    return mul(em, d, inv), m, inv


@converter("LayerNormalization")
def _layer_norm(em, node, inputs):
    x, scale = inputs[0], inputs[1]
    b = opt_input(inputs, 2)
    axis = norm_axis(node.attr("axis", -1), x.rank)
    eps = node.attr("epsilon", 1e-5)
    node.ignore("stash_type")
    axes = list(range(axis, x.rank))
    y, m, inv = _normalize(em, x, axes, eps)
    y = mul(em, y, scale)
    if b is not None:
        y = add(em, y, b)
    return [y, m, inv]


@converter("InstanceNormalization")
def _instance_norm(em, node, inputs):
    x, scale, b = inputs
    eps = node.attr("epsilon", 1e-5)
    y, _, _ = _normalize(em, x, list(range(2, x.rank)), eps)
    cs = _channel_shape(x)
    return add(em, mul(em, y, reshape(em, scale, cs)), reshape(em, b, cs))


# --- matrix products -----------------------------------------------------------

@converter("MatMul")
def _matmul(em, node, inputs):
    a, b = inputs
    if not is_float(a):
        raise NodeError("integer MatMul is not supported")
    return matmul(em, a, b)


@converter("Gemm")
def _gemm(em, node, inputs):
    a, b = inputs[0], inputs[1]
    c = opt_input(inputs, 2)
    alpha, beta = node.attr("alpha", 1.0), node.attr("beta", 1.0)
    node.ignore("broadcast")
    if node.attr("transA", 0):
        a = transpose(em, a, [1, 0])
    if node.attr("transB", 0):
        b = transpose(em, b, [1, 0])
    if alpha != 1.0 and b.is_const:
        b = Value.constant((b.const * np.float32(alpha)).astype(b.dtype))
        alpha = 1.0
    y = matmul(em, a, b)
    if alpha != 1.0:
        y = mul(em, y, Value.constant(np.full([1, 1], alpha, y.dtype)))
    if c is not None:
        if beta != 1.0:
            c = mul(em, c, Value.constant(np.full([1] * c.rank, beta, c.dtype))) \
                if not c.is_const else Value.constant((c.const * beta).astype(c.dtype))
        y = add(em, y, c)
    return y


# --- softmax and reductions --------------------------------------------------------

def softmax(em, x, axis):
    e = em.fresh()
    s = em.new(x.shape, x.dtype)
    em.emit("%s = tensor.empty() : %s" % (e, x.type))
    em.emit("%s = linalg.softmax dimension(%d) ins(%s : %s) outs(%s : %s) -> %s"
            % (s.name, axis, em.use(x), x.type, e, x.type, x.type))
    return s


def _softmax_axis(node, x):
    axis = norm_axis(node.attr("axis", -1 if node.opset >= 13 else 1), x.rank)
    if node.opset >= 13 or axis == x.rank - 1:
        return x, axis, None
    # Before opset 13: the input is flattened to 2-D at axis.
    return x, axis, (int(np.prod(x.shape[:axis], dtype=np.int64)),
                     int(np.prod(x.shape[axis:], dtype=np.int64)))


@converter("Softmax")
def _softmax(em, node, inputs):
    x, axis, flat = _softmax_axis(node, inputs[0])
    if flat is None:
        return softmax(em, x, axis)
    return reshape(em, softmax(em, reshape(em, x, flat), 1), x.shape)


@converter("LogSoftmax")
def _log_softmax(em, node, inputs):
    x, axis, flat = _softmax_axis(node, inputs[0])
    orig = x.shape
    if flat is not None:
        x, axis = reshape(em, x, flat), 1
    mx = reduce(em, "tosa.reduce_max", x, [axis])
    d = sub(em, x, mx)
    e = em.op("tosa.exp", [d], [em.new(d.shape, d.dtype)])
    s = reduce(em, "tosa.reduce_sum", e, [axis])
    ls = em.op("tosa.log", [s], [em.new(s.shape, s.dtype)])
    return reshape(em, sub(em, d, ls), orig)


def _reduce_axes(node, inputs, x):
    if len(inputs) > 1 and inputs[1] is not None:
        axes = [int(a) for a in need_const(inputs[1], "axes").reshape(-1)]
    else:
        axes = node.attr("axes")
    keep = node.attr("keepdims", 1)
    noop = node.attr("noop_with_empty_axes", 0)
    if not axes:
        if noop:
            return None, keep
        axes = list(range(x.rank))
    return sorted(set(norm_axis(a, x.rank) for a in axes)), keep


def _finish_reduce(em, y, axes, keep):
    if keep:
        return y
    return reshape(em, y, [d for i, d in enumerate(y.shape) if i not in axes])


@converter("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd",
           "ReduceSumSquare", "ReduceL2", "ReduceL1")
def _reduce(em, node, inputs):
    x = inputs[0]
    axes, keep = _reduce_axes(node, inputs, x)
    if axes is None:
        return x
    op = node.op_type
    if op == "ReduceMean":
        y = mean(em, x, axes)
    elif op in ("ReduceSumSquare", "ReduceL2"):
        y = reduce(em, "tosa.reduce_sum", mul(em, x, x), axes)
        if op == "ReduceL2":
            y = sqrt(em, y)
    elif op == "ReduceL1":
        y = reduce(em, "tosa.reduce_sum", em.op("tosa.abs", [x], [em.new(x.shape, x.dtype)]),
                   axes)
    else:
        name = {"ReduceSum": "tosa.reduce_sum", "ReduceMax": "tosa.reduce_max",
                "ReduceMin": "tosa.reduce_min", "ReduceProd": "tosa.reduce_product"}[op]
        y = reduce(em, name, x, axes)
    return _finish_reduce(em, y, axes, keep)


@converter("ArgMax", "ArgMin")
def _argmax(em, node, inputs):
    x = inputs[0]
    if node.op_type == "ArgMin":
        # The first maximum of -x is the first minimum of x.
        if not is_float(x):
            raise NodeError("integer ArgMin is not supported")
        zp = em.zero_point(x.dtype)
        x = em.op("tosa.negate", [x, zp, zp], [em.new(x.shape, x.dtype)])
    axis = norm_axis(node.attr("axis", 0), x.rank)
    keep = node.attr("keepdims", 1)
    last = node.attr("select_last_index", 0)
    if last:
        # The last extremum is the first one of the reversed axis.
        x = em.op("tosa.reverse", [x], [em.new(x.shape, x.dtype)], "axis = %d : i32" % axis)
    shape = [d for i, d in enumerate(x.shape) if i != axis]
    # i32: runtime integers are i32 (an int64 graph output is widened on return).
    y = em.op("tosa.argmax", [x], [em.new(shape, np.int32)], "axis = %d : i32" % axis)
    if last:
        y = sub(em, Value.constant(np.full([1] * len(shape), x.shape[axis] - 1, np.int32)), y)
    if keep:
        y = reshape(em, y, x.shape[:axis] + (1,) + x.shape[axis + 1:])
    return y


# --- resize --------------------------------------------------------------------------

def _resize_scales(node, inputs, x):
    """Output sizes and scales for each axis."""
    if node.op_type == "Upsample":
        scales = node.attr("scales") if node.opset < 9 else need_const(inputs[1], "scales")
        scales = [float(s) for s in np.asarray(scales).reshape(-1)]
        sizes = [int(np.floor(d * s)) for d, s in zip(x.shape, scales)]
        return sizes, scales
    if node.opset < 11:
        scales = [float(s) for s in need_const(inputs[1], "scales").reshape(-1)]
        return [int(np.floor(d * s)) for d, s in zip(x.shape, scales)], scales
    sv = opt_input(inputs, 2)
    zv = opt_input(inputs, 3)
    if zv is not None and zv.size:
        sizes = [int(s) for s in need_const(zv, "sizes").reshape(-1)]
        return sizes, [o / i for o, i in zip(sizes, x.shape)]
    scales = [float(s) for s in need_const(sv, "scales").reshape(-1)]
    return [int(np.floor(d * s)) for d, s in zip(x.shape, scales)], scales


@converter("Resize", "Upsample")
def _resize(em, node, inputs):
    x = inputs[0]
    if x.rank != 4:
        raise NodeError("only 4-D (NCHW) inputs are supported")
    mode = node.attr("mode", "nearest")
    if node.op_type == "Upsample":
        coord = "asymmetric"
        nearest = "floor"
    else:
        coord = node.attr("coordinate_transformation_mode", "half_pixel")
        nearest = node.attr("nearest_mode", "round_prefer_floor")
        node.ignore("cubic_coeff_a")
        if node.attr("exclude_outside", 0):
            raise NodeError("exclude_outside=1 is not supported")
        if node.attr("extrapolation_value", 0.0) != 0.0 and coord == "tf_crop_and_resize":
            raise NodeError("tf_crop_and_resize is not supported")
        if node.attr("antialias", 0):
            raise NodeError("antialias=1 is not supported")
        if node.attr("keep_aspect_ratio_policy", "stretch") != "stretch":
            raise NodeError("keep_aspect_ratio_policy is not supported")
        if node.attr("axes") is not None:
            raise NodeError("axes is not supported")
    sizes, scales = _resize_scales(node, inputs, x)
    if sizes[:2] != list(x.shape[:2]):
        raise NodeError("resizing the batch or channel axis is not supported")
    if mode not in ("nearest", "linear", "bilinear"):
        raise NodeError("mode=%s is not supported (nearest and linear are)" % mode)
    params = resize_params(mode, coord, nearest, x.shape[2:], sizes[2:], scales[2:])
    scale, offset, border, tosa_mode = params
    xh = transpose(em, x, NCHW_TO_NHWC)
    ss, so, sb = em.shape_operand(scale), em.shape_operand(offset), em.shape_operand(border)
    y = em.new((x.shape[0], sizes[2], sizes[3], x.shape[1]), x.dtype)
    em.emit("%s = tosa.resize %s, %s, %s, %s {mode = %s} : (%s, !tosa.shape<4>, "
            "!tosa.shape<2>, !tosa.shape<2>) -> %s"
            % (y.name, em.use(xh), ss, so, sb, tosa_mode, xh.type, y.type))
    return transpose(em, y, NHWC_TO_NCHW)


@converter("Einsum")
def _einsum(em, node, inputs):
    """One- and two-operand einsums without repeated indices within an
    operand or ellipses: transposes, reductions and one batched matmul."""
    eq = node.attr("equation").replace(" ", "")
    if "..." in eq:
        raise NodeError("ellipsis in equation '%s' is not supported" % eq)
    lhs, arrow, out = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(inputs) or len(terms) not in (1, 2):
        raise NodeError("equation '%s' with %d operands is not supported" % (eq, len(inputs)))
    if not arrow:  # implicit output: indices seen once, sorted
        counts = {c: lhs.count(c) for c in lhs if c != ","}
        out = "".join(sorted(c for c, n in counts.items() if n == 1))
    for t in terms + [out]:
        if len(set(t)) != len(t):
            raise NodeError("repeated index in '%s' (diagonals) is not supported" % t)
    for t, v in zip(terms, inputs):
        if len(t) != v.rank:
            raise NodeError("term '%s' does not match an operand of rank %d" % (t, v.rank))
    if not is_float(inputs[0]):
        raise NodeError("integer Einsum is not supported")

    def sum_away(v, term, keep):
        """Sums the indices of v not in keep; returns (v, remaining term)."""
        axes = [i for i, c in enumerate(term) if c not in keep]
        if not axes:
            return v, term
        v = reduce(em, "tosa.reduce_sum", v, axes)
        rest = [i for i in range(len(term)) if i not in axes]
        v = reshape(em, v, [v.shape[i] for i in rest])
        return v, "".join(term[i] for i in rest)

    if len(terms) == 1:
        v, t = sum_away(inputs[0], terms[0], set(out))
        return transpose(em, v, [t.index(c) for c in out])
    (a, ta), (b, tb) = zip(inputs, terms)
    a, ta = sum_away(a, ta, set(tb) | set(out))
    b, tb = sum_away(b, tb, set(ta) | set(out))
    dim = {}
    for t, v in ((ta, a), (tb, b)):
        for c, d in zip(t, v.shape):
            if dim.setdefault(c, d) != d:
                raise NodeError("index '%s' has sizes %d and %d" % (c, dim[c], d))
    batch = [c for c in ta if c in tb and c in out]
    contract = [c for c in ta if c in tb and c not in out]
    free_a = [c for c in ta if c not in tb]
    free_b = [c for c in tb if c not in ta]
    size = lambda cs: int(np.prod([dim[c] for c in cs], dtype=np.int64))  # noqa: E731
    a3 = reshape(em, transpose(em, a, [ta.index(c) for c in batch + free_a + contract]),
                 (size(batch), size(free_a), size(contract)))
    b3 = reshape(em, transpose(em, b, [tb.index(c) for c in batch + contract + free_b]),
                 (size(batch), size(contract), size(free_b)))
    y = em.op("tosa.matmul", [a3, b3, em.zero_point(a.dtype), em.zero_point(b.dtype)],
              [em.new((size(batch), size(free_a), size(free_b)), a.dtype)])
    order = batch + free_a + free_b
    y = reshape(em, y, [dim[c] for c in order])
    return transpose(em, y, [order.index(c) for c in out])


# --- TopK ------------------------------------------------------------------------------

def _precedes(em, a, ia, b, ib, et, largest):
    """Body lines: whether element (a, index ia) comes before (b, index ib)
    in TopK's order. Largest: NaN first, then descending values; smallest:
    ascending values, NaN last; equal values (and two NaNs) by ascending
    index, as ONNX Runtime orders ties when sorted. Exact in any float
    type: the comparisons round nothing."""
    n = {k: em.fresh() for k in ("an", "bn", "nan_first", "strict", "eq", "both_nan",
                                 "tie", "idx", "tie_first", "r0", "r")}
    lines = [
        "%s = arith.cmpf uno, %s, %s : %s" % (n["an"], a, a, et),
        "%s = arith.cmpf uno, %s, %s : %s" % (n["bn"], b, b, et),
    ]
    if largest:
        # a before b: a is NaN and b is not, or a > b.
        lines += ["%s = arith.cmpf ogt, %s, %s : %s" % (n["strict"], a, b, et),
                  "%s = arith.cmpi ugt, %s, %s : i1" % (n["nan_first"], n["an"], n["bn"])]
    else:
        # a before b: b is NaN and a is not, or a < b.
        lines += ["%s = arith.cmpf olt, %s, %s : %s" % (n["strict"], a, b, et),
                  "%s = arith.cmpi ugt, %s, %s : i1" % (n["nan_first"], n["bn"], n["an"])]
    lines += [
        "%s = arith.cmpf oeq, %s, %s : %s" % (n["eq"], a, b, et),
        "%s = arith.andi %s, %s : i1" % (n["both_nan"], n["an"], n["bn"]),
        "%s = arith.ori %s, %s : i1" % (n["tie"], n["eq"], n["both_nan"]),
        "%s = arith.cmpi slt, %s, %s : index" % (n["idx"], ia, ib),
        "%s = arith.andi %s, %s : i1" % (n["tie_first"], n["tie"], n["idx"]),
        "%s = arith.ori %s, %s : i1" % (n["r0"], n["strict"], n["nan_first"]),
        "%s = arith.ori %s, %s : i1" % (n["r"], n["r0"], n["tie_first"]),
    ]
    return lines, n["r"]


def _affine(rank, exprs):
    dims = ", ".join("d%d" % i for i in range(rank))
    return "affine_map<(%s) -> (%s)>" % (dims, ", ".join(exprs))


def _zeros_i32(em, shape):
    t = Value(tuple(shape), np.int32).type
    empty, zero, filled = em.fresh(), em.fresh(), em.fresh()
    em.emit("%s = tensor.empty() : %s" % (empty, t))
    em.emit("%s = arith.constant 0 : i32" % zero)
    em.emit("%s = linalg.fill ins(%s : i32) outs(%s : %s) -> %s" % (filled, zero, empty, t, t))
    return filled, t


@converter("TopK")
def _topk(em, node, inputs):
    """The k first elements along `axis` in TopK's order (_precedes) and
    their indices, always sorted (ONNX leaves the order of sorted=0 to the
    runtime). Three linalg ops, no sort: each element's rank is the count
    of elements before it (a reduction over the axis); the index and the
    value at output position p are those of the one element of rank p
    (reductions that select).
    O(n^2) comparisons per row, all exact: in f16 or bf16 the op runs on
    the low values as they are. Rounding to f16/bf16 can make distinct f32
    values equal; they then tie, and come in index order."""
    x = inputs[0]
    if not is_float(x):
        raise NodeError("integer TopK is not supported")
    k = int(need_const(inputs[1], "K").reshape(-1)[0])
    axis = norm_axis(node.attr("axis", -1), x.rank)
    largest = node.attr("largest", 1)
    node.ignore("sorted")
    n = x.shape[axis]
    if k < 0 or k > n:
        raise NodeError("K=%d is outside [0, %d] for axis %d" % (k, n, axis))
    last = x.rank - 1
    perm = list(range(x.rank))
    if axis != last:
        perm[axis], perm[last] = perm[last], perm[axis]
        x = transpose(em, x, perm)
    batch = list(x.shape[:-1])
    rb = len(batch)
    et = element_type(x.dtype)
    src = em.use(x)
    bd = ["d%d" % i for i in range(rb)]

    # rank[b, i] = #{j : x[b, j] precedes x[b, i]}
    rank_init, rank_t = _zeros_i32(em, batch + [n])
    rank = em.new(tuple(batch + [n]), np.int32)
    r3 = rb + 2
    i_d, j_d = "d%d" % rb, "d%d" % (rb + 1)
    its = ", ".join(['"parallel"'] * (rb + 1) + ['"reduction"'])
    xj, xi, acc = em.fresh(), em.fresh(), em.fresh()
    em.emit("%s = linalg.generic {indexing_maps = [%s, %s, %s], iterator_types = [%s]} "
            "ins(%s, %s : %s, %s) outs(%s : %s) {" % (
                rank.name, _affine(r3, bd + [j_d]), _affine(r3, bd + [i_d]),
                _affine(r3, bd + [i_d]), its, src, src, x.type, x.type, rank_init, rank_t),
            loc=False)
    em.block([(xj, et), (xi, et), (acc, "i32")])
    ii, jj = em.fresh(), em.fresh()
    em.body("%s = linalg.index %d : index" % (ii, rb))
    em.body("%s = linalg.index %d : index" % (jj, rb + 1))
    lines, before = _precedes(em, xj, jj, xi, ii, et, largest)
    for line in lines:
        em.body(line)
    one, zero, inc, s = em.fresh(), em.fresh(), em.fresh(), em.fresh()
    em.body("%s = arith.constant 1 : i32" % one)
    em.body("%s = arith.constant 0 : i32" % zero)
    em.body("%s = arith.select %s, %s, %s : i32" % (inc, before, one, zero))
    em.body("%s = arith.addi %s, %s : i32" % (s, acc, inc))
    em.body("linalg.yield %s : i32" % s)
    em.end_region("-> %s" % rank_t)

    # idx[b, p] = the i with rank[b, i] == p (exactly one: the order is total)
    idx_init, idx_t = _zeros_i32(em, batch + [k])
    idx = em.new(tuple(batch + [k]), np.int32)
    p_d, i2_d = "d%d" % rb, "d%d" % (rb + 1)
    rv, acc2 = em.fresh(), em.fresh()
    em.emit("%s = linalg.generic {indexing_maps = [%s, %s], iterator_types = [%s]} "
            "ins(%s : %s) outs(%s : %s) {" % (
                idx.name, _affine(r3, bd + [i2_d]), _affine(r3, bd + [p_d]), its,
                rank.name, rank_t, idx_init, idx_t), loc=False)
    em.block([(rv, "i32"), (acc2, "i32")])
    pi, ix, pc, eq, ic, sel, s2, zero2 = (em.fresh() for _ in range(8))
    em.body("%s = linalg.index %d : index" % (pi, rb))
    em.body("%s = linalg.index %d : index" % (ix, rb + 1))
    em.body("%s = arith.index_cast %s : index to i32" % (pc, pi))
    em.body("%s = arith.cmpi eq, %s, %s : i32" % (eq, rv, pc))
    em.body("%s = arith.index_cast %s : index to i32" % (ic, ix))
    em.body("%s = arith.constant 0 : i32" % zero2)
    em.body("%s = arith.select %s, %s, %s : i32" % (sel, eq, ic, zero2))
    em.body("%s = arith.addi %s, %s : i32" % (s2, acc2, sel))
    em.body("linalg.yield %s : i32" % s2)
    em.end_region("-> %s" % idx_t)

    # values[b, p] = the x[b, i] with rank[b, i] == p: a reduction that
    # selects (exact in any type, and x an operand, so that it can stay
    # low); the init is overwritten by the one element of rank p.
    vals = em.new(tuple(batch + [k]), x.dtype)
    vempty, vzero, vinit = em.fresh(), em.fresh(), em.fresh()
    em.emit("%s = tensor.empty() : %s" % (vempty, vals.type))
    em.emit("%s = arith.constant 0.0 : %s" % (vzero, et))
    em.emit("%s = linalg.fill ins(%s : %s) outs(%s : %s) -> %s" % (
        vinit, vzero, et, vempty, vals.type, vals.type))
    rv3, xv3, acc3 = em.fresh(), em.fresh(), em.fresh()
    em.emit("%s = linalg.generic {indexing_maps = [%s, %s, %s], iterator_types = [%s]} "
            "ins(%s, %s : %s, %s) outs(%s : %s) {" % (
                vals.name, _affine(r3, bd + [i2_d]), _affine(r3, bd + [i2_d]),
                _affine(r3, bd + [p_d]), its, rank.name, src, rank_t, x.type, vinit,
                vals.type), loc=False)
    em.block([(rv3, "i32"), (xv3, et), (acc3, et)])
    pv, pcv, eqv, selv = (em.fresh() for _ in range(4))
    em.body("%s = linalg.index %d : index" % (pv, rb))
    em.body("%s = arith.index_cast %s : index to i32" % (pcv, pv))
    em.body("%s = arith.cmpi eq, %s, %s : i32" % (eqv, rv3, pcv))
    em.body("%s = arith.select %s, %s, %s : %s" % (selv, eqv, xv3, acc3, et))
    em.body("linalg.yield %s : %s" % (selv, et))
    em.end_region("-> %s" % vals.type)

    if axis != last:
        vals = transpose(em, vals, perm)
        idx = transpose(em, idx, perm)
    return [vals, idx]

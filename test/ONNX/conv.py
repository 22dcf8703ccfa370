# RUN: env AMP_OPT=%amp_opt AMP_RUN=amp-run %python %s | FileCheck %s
# Conv, ConvTranspose and BatchNormalization import as TOSA convolutions
# on NHWC (transposes around them, weights transposed at import time) and
# compute what ONNX specifies: every case is run on the CPU and compared
# with a numpy evaluation of the op's definition, in f32 and after
# --mixed-precision to f16 and bf16 (looser tolerances).
import os
import sys

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from onnxtest import Suite, model, node, rand  # noqa: E402


def conv_ref(x, w, b=None, strides=(1, 1), pads=(0, 0, 0, 0), dilations=(1, 1), group=1):
    x = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    n, c, h, wd = x.shape
    oc, cg, kh, kw = w.shape
    eh, ew = (kh - 1) * dilations[0] + 1, (kw - 1) * dilations[1] + 1
    win = sliding_window_view(x, (eh, ew), axis=(2, 3))[:, :, ::strides[0], ::strides[1],
                                                        ::dilations[0], ::dilations[1]]
    og = oc // group
    outs = [np.einsum("nchwij,ocij->nohw", win[:, g * cg:(g + 1) * cg], w[g * og:(g + 1) * og])
            for g in range(group)]
    y = np.concatenate(outs, axis=1)
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y.astype(np.float32)


def conv_transpose_ref(x, w, strides, pads, output_padding=(0, 0), group=1):
    n, c, h, wd = x.shape
    _, ocg, kh, kw = w.shape
    full = np.zeros((n, ocg * group, (h - 1) * strides[0] + kh + output_padding[0],
                     (wd - 1) * strides[1] + kw + output_padding[1]))
    cg = c // group
    for g in range(group):
        for i in range(h):
            for j in range(wd):
                contrib = np.einsum("nc,cokl->nokl", x[:, g * cg:(g + 1) * cg, i, j],
                                    w[g * cg:(g + 1) * cg])
                full[:, g * ocg:(g + 1) * ocg, i * strides[0]:i * strides[0] + kh,
                     j * strides[1]:j * strides[1] + kw] += contrib
    return full[:, :, pads[0]:full.shape[2] - pads[2], pads[1]:full.shape[3] - pads[3]].astype(
        np.float32)


s = Suite(precisions=("f16", "bf16"), tolerances={"f16": (3e-2, 3e-2), "bf16": (1.5e-1, 1.5e-1)})

# CHECK-LABEL: // CASE conv_pads_bias
# CHECK: tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>}
# CHECK: tosa.conv2d {{.*}} {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x7x9x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x9x4xf32>
# CHECK: tosa.transpose {{.*}} {perms = array<i32: 0, 3, 1, 2>}
x, w, b = rand(1, 3, 7, 9), rand(4, 3, 3, 3, seed=1), rand(4, seed=2)
s.case("conv_pads_bias", model([node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1])],
                               {"x": x}, ["y"], {"w": w, "b": b}),
       {"x": x}, [conv_ref(x, w, b, pads=(1, 1, 1, 1))], show=["tosa.conv2d", "tosa.transpose"])

# Strides with a remainder: TOSA wants exact division, so the end padding
# no window reaches is dropped (width: pad 2, 1 -> 2, 0) and so is the input
# column no window reads (width 10 -> 9), without changing the result.
# CHECK-LABEL: // CASE conv_stride_asym_pads
# CHECK: tosa.conv2d {{.*}} pad = array<i64: 0, 1, 2, 0>, stride = array<i64: 2, 3>} : (tensor<2x8x9x3xf32>
x, w = rand(2, 3, 8, 10, seed=3), rand(5, 3, 3, 2, seed=4)
s.case("conv_stride_asym_pads",
       model([node("Conv", ["x", "w"], ["y"], pads=[0, 2, 1, 1], strides=[2, 3])],
             {"x": x}, ["y"], {"w": w}),
       {"x": x}, [conv_ref(x, w, strides=(2, 3), pads=(0, 2, 1, 1))], show=["tosa.conv2d"])

# CHECK-LABEL: // CASE conv_dilated_same_upper
# CHECK: tosa.conv2d {{.*}} dilation = array<i64: 2, 2>, pad = array<i64: 2, 2, 2, 2>
x, w = rand(1, 2, 9, 9, seed=5), rand(3, 2, 3, 3, seed=6)
s.case("conv_dilated_same_upper",
       model([node("Conv", ["x", "w"], ["y"], dilations=[2, 2], auto_pad="SAME_UPPER")],
             {"x": x}, ["y"], {"w": w}),
       {"x": x}, [conv_ref(x, w, dilations=(2, 2), pads=(2, 2, 2, 2))], show=["tosa.conv2d"])

# Depthwise (group == channels, channel multiplier 2).
# CHECK-LABEL: // CASE conv_depthwise
# CHECK: tosa.depthwise_conv2d {{.*}} : (tensor<1x6x6x4xf32>, tensor<3x3x4x2xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x8xf32>
x, w, b = rand(1, 4, 6, 6, seed=7), rand(8, 1, 3, 3, seed=8), rand(8, seed=9)
s.case("conv_depthwise",
       model([node("Conv", ["x", "w", "b"], ["y"], group=4, pads=[1, 1, 1, 1])],
             {"x": x}, ["y"], {"w": w, "b": b}),
       {"x": x}, [conv_ref(x, w, b, pads=(1, 1, 1, 1), group=4)],
       show=["tosa.depthwise_conv2d"])

# Grouped (1 < group < channels): one convolution per group, concatenated.
# CHECK-LABEL: // CASE conv_grouped
# CHECK-COUNT-2: tosa.conv2d {{.*}} -> tensor<1x5x5x3xf32>
# CHECK: tosa.concat {{.*}} {axis = 3 : i32}
x, w = rand(1, 4, 5, 5, seed=10), rand(6, 2, 1, 1, seed=11)
s.case("conv_grouped", model([node("Conv", ["x", "w"], ["y"], group=2)], {"x": x}, ["y"],
                             {"w": w}),
       {"x": x}, [conv_ref(x, w, group=2)], show=["tosa.conv2d", "tosa.concat"])

# 1-D convolution: a 2-D one of height 1.
# CHECK-LABEL: // CASE conv_1d
# CHECK: tosa.conv2d {{.*}} pad = array<i64: 0, 0, 1, 1>, stride = array<i64: 1, 2>
x, w = rand(2, 3, 11, seed=12), rand(4, 3, 3, seed=13)
ref = conv_ref(x[:, :, None, :], w[:, :, None, :], strides=(1, 2), pads=(0, 1, 0, 1))[:, :, 0]
s.case("conv_1d", model([node("Conv", ["x", "w"], ["y"], pads=[1, 1], strides=[2])],
                        {"x": x}, ["y"], {"w": w}),
       {"x": x}, [ref], show=["tosa.conv2d"])

# ConvTranspose: stride 2 (the PaddleOCR detector's upsampling), then pads
# that crop and output_padding, then groups.
# CHECK-LABEL: // CASE conv_transpose_s2
# CHECK: tosa.transpose_conv2d {{.*}} {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x5x3xf32>, tensor<2x2x2x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x10x2xf32>
x, w, b = rand(1, 3, 4, 5, seed=14), rand(3, 2, 2, 2, seed=15), rand(2, seed=16)
s.case("conv_transpose_s2",
       model([node("ConvTranspose", ["x", "w", "b"], ["y"], strides=[2, 2], kernel_shape=[2, 2])],
             {"x": x}, ["y"], {"w": w, "b": b}),
       {"x": x}, [conv_transpose_ref(x, w, (2, 2), (0, 0, 0, 0)) + b.reshape(1, -1, 1, 1)],
       show=["tosa.transpose_conv2d"])

# Kernel 3 with strides 2, 3 (not multiples): a stride-1 convolution of the
# input with zeros inserted (tensor.pad of a rank-6 view) by the flipped
# kernel; the full result is then extended by output_padding (zeros),
# cropped by the pads, and the bias is added last (so the padded rows get
# it too).
# CHECK-LABEL: // CASE conv_transpose_pads
# CHECK: tensor.pad {{.*}} low[0, 0, 0, 0, 0, 0] high[0, 0, 1, 0, 2, 0]
# CHECK: tosa.conv2d {{.*}} pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>} : {{.*}} -> tensor<2x7x12x3xf32>
# CHECK: tensor.pad {{.*}} low[0, 0, 0, 0] high[0, 1, 1, 0]
# CHECK: tensor.extract_slice {{.*}}[0, 1, 1, 0] [2, 6, 10, 3] [1, 1, 1, 1]
# CHECK: tosa.add
x, w = rand(2, 2, 3, 4, seed=17), rand(2, 3, 3, 3, seed=18)
b = rand(3, seed=26)
s.case("conv_transpose_pads",
       model([node("ConvTranspose", ["x", "w", "b"], ["y"], strides=[2, 3], pads=[1, 1, 1, 2],
                   output_padding=[1, 1])], {"x": x}, ["y"], {"w": w, "b": b}),
       {"x": x}, [conv_transpose_ref(x, w, (2, 3), (1, 1, 1, 2), output_padding=(1, 1))
                  + b.reshape(1, -1, 1, 1)],
       show=["tensor.pad", "tosa.conv2d", "tensor.extract_slice", "tosa.add"])

# CHECK-LABEL: // CASE conv_transpose_groups
# CHECK-COUNT-2: tosa.transpose_conv2d
x, w = rand(1, 4, 3, 3, seed=19), rand(4, 1, 2, 2, seed=20)
s.case("conv_transpose_groups",
       model([node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2], group=2)],
             {"x": x}, ["y"], {"w": w}),
       {"x": x}, [conv_transpose_ref(x, w, (2, 2), (0, 0, 0, 0), group=2)],
       show=["tosa.transpose_conv2d"])

# BatchNormalization (inference) with constant statistics folds into one
# per-channel scale and shift: a multiply and an add.
# CHECK-LABEL: // CASE batchnorm
# CHECK: tosa.mul %arg0, {{.*}} : (tensor<2x3x4x5xf32>, tensor<1x3x1x1xf32>, tensor<1xi8>) -> tensor<2x3x4x5xf32>
# CHECK: tosa.add {{.*}} : (tensor<2x3x4x5xf32>, tensor<1x3x1x1xf32>) -> tensor<2x3x4x5xf32>
x = rand(2, 3, 4, 5, seed=21)
sc, bi, mu, var = rand(3, seed=22), rand(3, seed=23), rand(3, seed=24), rand(3, seed=25, lo=0.5,
                                                                          hi=2.0)
ref = (sc.reshape(1, 3, 1, 1) * (x - mu.reshape(1, 3, 1, 1))
       / np.sqrt(var.reshape(1, 3, 1, 1) + 1e-3) + bi.reshape(1, 3, 1, 1))
s.case("batchnorm", model([node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"],
                                epsilon=1e-3, momentum=0.9)],
                          {"x": x}, ["y"], {"s": sc, "b": bi, "m": mu, "v": var}),
       {"x": x}, [ref], show=["tosa.mul", "tosa.add"])

s.run()
# CHECK-DAG: conv_pads_bias: f32 OK
# CHECK-DAG: conv_stride_asym_pads: f32 OK
# CHECK-DAG: conv_dilated_same_upper: f32 OK
# CHECK-DAG: conv_depthwise: f32 OK
# CHECK-DAG: conv_grouped: f32 OK
# CHECK-DAG: conv_1d: f32 OK
# CHECK-DAG: conv_transpose_s2: f32 OK
# CHECK-DAG: conv_transpose_pads: f32 OK
# CHECK-DAG: conv_transpose_groups: f32 OK
# CHECK-DAG: batchnorm: f32 OK
# CHECK: ONNX-SUITE 30 runs, 0 failed

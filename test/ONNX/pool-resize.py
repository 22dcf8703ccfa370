# RUN: env AMP_OPT=%amp_opt AMP_RUN=amp-run %python %s | FileCheck %s
# MaxPool/AveragePool import as TOSA pools on NHWC (pads trimmed to what
# TOSA's exact output size needs; ceil_mode extends them; count_include_pad
# pads with real zeros). Resize/Upsample import as tosa.resize, whose
# integer scale/offset/border express ONNX's coordinate transformations and
# nearest roundings exactly. Each case is run on the CPU and compared with
# numpy (pools) or ONNX's own reference implementation of Resize.
import os
import sys

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from onnx.backend.test.case.node.resize import interpolate_nd, linear_coeffs, nearest_coeffs

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from onnxtest import Suite, model, node, rand  # noqa: E402

s = Suite(precisions=("f16",), tolerances={"f16": (2e-2, 2e-2)})


def pool_ref(x, k, st, pads, kind, include_pad=False, ceil=False):
    pt, pl, pb, pr = pads
    h, w = x.shape[2:]
    oh = [(h + pt + pb - k[0]) // st[0] + 1, -(-(h + pt + pb - k[0]) // st[0]) + 1]
    ow = [(w + pl + pr - k[1]) // st[1] + 1, -(-(w + pl + pr - k[1]) // st[1]) + 1]
    oh, ow = oh[ceil], ow[ceil]
    if ceil:  # windows must start inside the input or the left padding
        oh -= (oh - 1) * st[0] >= h + pt
        ow -= (ow - 1) * st[1] >= w + pl
    eb, er = (oh - 1) * st[0] + k[0] - h - pt, (ow - 1) * st[1] + k[1] - w - pl
    fill = -np.inf if kind == "max" else np.nan
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pt, max(eb, 0)), (pl, max(er, 0))),
                constant_values=fill)
    if include_pad:
        xp = np.nan_to_num(xp, nan=0.0)
        # Only the declared pads count as zeros; the ceil_mode extension not.
    win = sliding_window_view(xp, k, axis=(2, 3))[:, :, ::st[0], ::st[1]][:, :, :oh, :ow]
    if kind == "max":
        return win.max(axis=(-1, -2)).astype(np.float32)
    return np.nanmean(win, axis=(-1, -2)).astype(np.float32)


x = rand(2, 3, 9, 10)

# CHECK-LABEL: // CASE maxpool
# CHECK: tosa.max_pool2d {{.*}} {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 0>, stride = array<i64: 2, 2>} : (tensor<2x9x10x3xf32>) -> tensor<2x5x5x3xf32>
s.case("maxpool", model([node("MaxPool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2],
                              pads=[1, 1, 1, 1])], {"x": x}, ["y"]),
       {"x": x}, [pool_ref(x, (3, 3), (2, 2), (1, 1, 1, 1), "max")], show=["tosa.max_pool2d"])

# ceil_mode: the last partial window is kept.
# CHECK-LABEL: // CASE maxpool_ceil
# CHECK: tosa.max_pool2d {{.*}} {kernel = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 0>, stride = array<i64: 2, 2>} : (tensor<2x9x10x3xf32>) -> tensor<2x5x5x3xf32>
s.case("maxpool_ceil", model([node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], strides=[2, 2],
                                   ceil_mode=1)], {"x": x}, ["y"]),
       {"x": x}, [pool_ref(x, (2, 2), (2, 2), (0, 0, 0, 0), "max", ceil=True)],
       show=["tosa.max_pool2d"])

# AveragePool without counting the padding (TOSA's own rule) and with it.
# Height 9 + pads 1, 1 with kernel 3, stride 3: the end pad and the last
# input row are in no window, so both go.
# CHECK-LABEL: // CASE avgpool
# CHECK: tosa.avg_pool2d {{.*}} {acc_type = f32, kernel = array<i64: 3, 2>, pad = array<i64: 1, 0, 0, 0>, stride = array<i64: 3, 2>} : (tensor<2x8x10x3xf32>
s.case("avgpool", model([node("AveragePool", ["x"], ["y"], kernel_shape=[3, 2], strides=[3, 2],
                              pads=[1, 0, 1, 0])], {"x": x}, ["y"]),
       {"x": x}, [pool_ref(x, (3, 2), (3, 2), (1, 0, 1, 0), "avg")], show=["tosa.avg_pool2d"])

# CHECK-LABEL: // CASE avgpool_include_pad
# CHECK: tensor.pad {{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
# CHECK: tosa.avg_pool2d {{.*}} pad = array<i64: 0, 0, 0, 0>
s.case("avgpool_include_pad",
       model([node("AveragePool", ["x"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                   count_include_pad=1)], {"x": x}, ["y"]),
       {"x": x}, [pool_ref(x, (3, 3), (1, 1), (1, 1, 1, 1), "avg", include_pad=True)],
       show=["tensor.pad", "tosa.avg_pool2d"])

# count_include_pad with a stride remainder: the trimmed end pad was in no
# window, so the real zero padding still matches ONNX.
# CHECK-LABEL: // CASE avgpool_include_pad_trimmed
# CHECK: tosa.avg_pool2d {{.*}} : (tensor<2x9x9x3xf32>
x7 = rand(2, 3, 9, 9, seed=3)
s.case("avgpool_include_pad_trimmed",
       model([node("AveragePool", ["x"], ["y"], kernel_shape=[3, 3], strides=[3, 3],
                   pads=[1, 1, 1, 1], count_include_pad=1)], {"x": x7}, ["y"]),
       {"x": x7}, [pool_ref(x7, (3, 3), (3, 3), (1, 1, 1, 1), "avg", include_pad=True)],
       show=["tosa.avg_pool2d"])

# Resize: every coordinate transformation and nearest rounding in common use.
xr = rand(1, 2, 4, 5, seed=1)


def resize_case(name, mode, coord, nearest, scales=None, sizes=None, opset=13, show=True):
    attrs = {"mode": mode, "coordinate_transformation_mode": coord}
    if mode == "nearest":
        attrs["nearest_mode"] = nearest
    inits = {"roi": np.zeros(0, np.float32)}
    ins = ["x", "roi"]
    if scales is not None:
        inits["scales"] = np.array(scales, np.float32)
        ins.append("scales")
    else:
        inits["scales"] = np.zeros(0, np.float32)
        inits["sizes"] = np.array(sizes, np.int64)
        ins += ["scales", "sizes"]
    coeffs = ((lambda r: nearest_coeffs(r, mode=nearest)) if mode == "nearest"
              else linear_coeffs)
    ref = interpolate_nd(xr, coeffs, output_size=sizes, scale_factors=scales,
                         coordinate_transformation_mode=coord).astype(np.float32)
    s.case(name, model([node("Resize", ins, ["y"], **attrs)], {"x": xr}, ["y"], inits,
                       opset=opset),
           {"x": xr}, [ref], show=["tosa.resize"] if show else [])


# PyTorch's nearest upsampling (and PaddleOCR's detector): asymmetric, floor.
# CHECK-LABEL: // CASE nearest_asym_floor
# CHECK: tosa.resize {{.*}} {mode = NEAREST_NEIGHBOR} : (tensor<1x4x5x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x10x2xf32>
resize_case("nearest_asym_floor", "nearest", "asymmetric", "floor", scales=[1, 1, 2, 2])
# CHECK-LABEL: // CASE nearest_half_pixel
# Halving the height with half_pixel puts every row at a tie (y = 2o + 1/2),
# where round_prefer_floor and round_prefer_ceil pick different rows.
resize_case("nearest_half_pixel", "nearest", "half_pixel", "round_prefer_floor",
            sizes=[1, 2, 2, 13], show=False)
resize_case("nearest_prefer_ceil", "nearest", "half_pixel", "round_prefer_ceil",
            sizes=[1, 2, 2, 3], show=False)
resize_case("nearest_up_7", "nearest", "half_pixel", "round_prefer_floor",
            sizes=[1, 2, 7, 9], show=False)
resize_case("nearest_align_ceil", "nearest", "align_corners", "ceil", sizes=[1, 2, 3, 9],
            show=False)
# CHECK-LABEL: // CASE linear_half_pixel
# CHECK: tosa.resize {{.*}} {mode = BILINEAR}
resize_case("linear_half_pixel", "linear", "half_pixel", None, scales=[1, 1, 2, 2])
resize_case("linear_pytorch", "linear", "pytorch_half_pixel", None, sizes=[1, 2, 6, 15],
            show=False)
resize_case("linear_align_corners", "linear", "align_corners", None, sizes=[1, 2, 7, 9],
            show=False)
resize_case("linear_asym_down", "linear", "asymmetric", None, sizes=[1, 2, 2, 3], show=False)

# Upsample (opset 9): nearest, asymmetric with floor.
# CHECK-LABEL: // CASE upsample9
# CHECK: tosa.resize
s.case("upsample9", model([node("Upsample", ["x", "sc"], ["y"], mode="nearest")], {"x": xr}, ["y"],
                          {"sc": np.array([1, 1, 2, 3], np.float32)}, opset=9),
       {"x": xr}, [xr.repeat(2, axis=2).repeat(3, axis=3)], show=["tosa.resize"])

s.run()
# CHECK-DAG: maxpool: f32 OK
# CHECK-DAG: maxpool_ceil: f32 OK
# CHECK-DAG: avgpool: f32 OK
# CHECK-DAG: avgpool_include_pad: f32 OK
# CHECK-DAG: avgpool_include_pad_trimmed: f32 OK
# CHECK-DAG: nearest_asym_floor: f32 OK
# CHECK-DAG: nearest_half_pixel: f32 OK
# CHECK-DAG: nearest_prefer_ceil: f32 OK
# CHECK-DAG: nearest_up_7: f32 OK
# CHECK-DAG: nearest_align_ceil: f32 OK
# CHECK-DAG: linear_half_pixel: f32 OK
# CHECK-DAG: linear_pytorch: f32 OK
# CHECK-DAG: linear_align_corners: f32 OK
# CHECK-DAG: linear_asym_down: f32 OK
# CHECK-DAG: upsample9: f32 OK
# CHECK: ONNX-SUITE 30 runs, 0 failed

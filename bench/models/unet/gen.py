#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A U^2-Net-shaped segmentation network as ONNX, with seeded random weights.

For the speed benchmark (bench/speed/run.py --models unet): a large
convolutional model of the kind users run on CPUs for segmentation and
matting. Encoder stages of two 3x3 convolutions (bias, ReLU) and a 2x2 max
pool with ceil mode; a bottleneck of dilated 3x3 convolutions (dilation 2
and 4); decoder stages that upsample by 2 (bilinear Resize), concatenate
the encoder's skip connection and apply two 3x3 convolutions; a 1x1
convolution per decoder stage (side outputs, as U^2-Net's), each upsampled
to the input's size, and a 1x1 fusion of them with a sigmoid. Written as
an exporter writes it: NCHW, one initializer per weight and bias.

    /usr/bin/python3 bench/models/unet/gen.py [--size 768] [-o unet.onnx]

At the default 768x768 input: 26.6M parameters and 111 GFLOP per call
(printed). Weights are He-initialised (seed 0), so activations keep their
scale through the depth.
"""

import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
# Channels per encoder stage; the bottleneck keeps the last.
WIDTHS = [32, 64, 128, 256, 512, 1024]


class Builder:
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits = [], []
        self.params = self.flops = 0
        self.count = 0

    def name(self, kind):
        self.count += 1
        return "%s_%d" % (kind, self.count)

    def conv(self, x, cin, cout, hw, k=3, dilation=1, relu=True):
        n = self.name("conv")
        w = (self.rng.standard_normal((cout, cin, k, k)) *
             np.sqrt(2.0 / (cin * k * k))).astype(np.float32)
        b = (self.rng.standard_normal(cout) * 0.01).astype(np.float32)
        self.inits += [numpy_helper.from_array(w, n + ".w"),
                       numpy_helper.from_array(b, n + ".b")]
        pad = dilation * (k // 2)
        self.nodes.append(helper.make_node(
            "Conv", [x, n + ".w", n + ".b"], [n], name=n, kernel_shape=[k, k],
            pads=[pad] * 4, dilations=[dilation] * 2, strides=[1, 1]))
        self.params += w.size + b.size
        self.flops += 2 * w.size * hw[0] * hw[1]
        if not relu:
            return n
        r = self.name("relu")
        self.nodes.append(helper.make_node("Relu", [n], [r], name=r))
        return r

    def pool(self, x):
        n = self.name("pool")
        self.nodes.append(helper.make_node("MaxPool", [x], [n], name=n, kernel_shape=[2, 2],
                                           strides=[2, 2], ceil_mode=1))
        return n

    def resize(self, x, scale):
        n = self.name("resize")
        scales = n + ".scales"
        self.inits.append(numpy_helper.from_array(
            np.array([1, 1, scale, scale], np.float32), scales))
        self.nodes.append(helper.make_node("Resize", [x, "", scales], [n], name=n,
                                           mode="linear",
                                           coordinate_transformation_mode="half_pixel"))
        return n

    def concat(self, xs):
        n = self.name("concat")
        self.nodes.append(helper.make_node("Concat", xs, [n], name=n, axis=1))
        return n


def build(size):
    b = Builder()
    x, cin, hw = "x", 3, (size, size)
    skips = []
    for i, c in enumerate(WIDTHS[:-1]):
        x = b.conv(x, cin, c, hw)
        x = b.conv(x, c, c, hw)
        skips.append((x, c, hw))
        x = b.pool(x)
        cin, hw = c, ((hw[0] + 1) // 2, (hw[1] + 1) // 2)
    c = WIDTHS[-1]
    x = b.conv(x, cin, c, hw, dilation=2)
    x = b.conv(x, c, c, hw, dilation=4)
    cin = c
    sides = []
    for skip, c, shw in reversed(skips):
        x = b.resize(x, 2.0)
        x = b.concat([x, skip])
        x = b.conv(x, cin + c, c, shw)
        x = b.conv(x, c, c, shw)
        cin = c
        side = b.conv(x, c, 1, shw, k=1, relu=False)
        if shw[0] != size:
            side = b.resize(side, float(size // shw[0]))
        sides.append(side)
    fused = b.conv(b.concat(sides), len(sides), 1, (size, size), k=1, relu=False)
    out = b.name("sigmoid")
    b.nodes.append(helper.make_node("Sigmoid", [fused], ["mask"], name=out))
    graph = helper.make_graph(
        b.nodes, "unet",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, size, size])],
        [helper.make_tensor_value_info("mask", TensorProto.FLOAT, [1, 1, size, size])],
        initializer=b.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model, b.params, b.flops


def path(size=512):
    """The model's file for an input of size x size, written on first use
    (bench/models/unet/unet-SIZE.onnx, not committed)."""
    p = os.path.join(HERE, "unet-%d.onnx" % size)
    if not os.path.exists(p):
        model, _, _ = build(size)
        tmp = p + ".tmp%d" % os.getpid()
        onnx.save(model, tmp)
        os.replace(tmp, p)
    return p


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("-o", "--output")
    args = ap.parse_args()
    if args.size < 32 or args.size % 32:
        ap.error("--size must be a multiple of 32, at least 32")
    model, params, flops = build(args.size)
    out = args.output or os.path.join(HERE, "unet-%d.onnx" % args.size)
    onnx.save(model, out)
    print("%s: %.1fM parameters, %.1f GFLOP per call (%d convolutions)"
          % (out, params / 1e6, flops / 1e9,
             sum(n.op_type == "Conv" for n in model.graph.node)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes what an importer writes: an ONNX model built with onnx's helper,
imported by amp.onnx, printed as MLIR.

The module is not written by hand for amp: every op gets its own
`tensor.empty` and `linalg.fill` where amp.onnx makes them, every block its
own dense constant weights (random, not splats, as raw hex), and the ops
are TOSA and linalg as amp.onnx emits them for any user's model.

  gen_onnx.py transformer BLOCKS [--seq S] [--hidden H] > model.mlir
      N transformer blocks: LayerNormalization, Q/K/V MatMuls with their
      weights and biases, scores, Softmax, output projection, residual Add,
      an MLP with Tanh.
  gen_onnx.py weights MEGABYTES [--hidden H] > model.mlir
      A chain of Gemm layers (H x H weights, bias, Relu) holding at least
      MEGABYTES of f32 weights: the cost of constants.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))


def transformer(blocks, s, h):
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(0)
    nodes, inits = [], []

    def weight(name, shape, scale):
        inits.append(numpy_helper.from_array(
            (rng.standard_normal(shape) * scale).astype(np.float32), name))
        return name

    def node(op, inputs, name, **attrs):
        nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name

    x = "x"
    for b in range(blocks):
        p = f"b{b}."
        ln = node("LayerNormalization", [x, weight(p + "g", [h], 1.0),
                                         weight(p + "beta", [h], 0.1)], p + "ln", axis=-1)
        qkv = {}
        for n in "qkv":
            mm = node("MatMul", [ln, weight(p + "w" + n, [h, h], h ** -0.5)], p + n + "mm")
            qkv[n] = node("Add", [mm, weight(p + "b" + n, [h], 0.1)], p + n)
        kt = node("Transpose", [qkv["k"]], p + "kt", perm=[1, 0])
        sc = node("MatMul", [qkv["q"], kt], p + "scores")
        scl = node("Mul", [sc, weight(p + "scale", [1], 1.0)], p + "scaled")
        sm = node("Softmax", [scl], p + "softmax", axis=-1)
        att = node("MatMul", [sm, qkv["v"]], p + "att")
        o = node("MatMul", [att, weight(p + "wo", [h, h], h ** -0.5)], p + "o")
        res = node("Add", [o, x], p + "res")
        h1 = node("MatMul", [res, weight(p + "w1", [h, 2 * h], h ** -0.5)], p + "h1")
        h1b = node("Add", [h1, weight(p + "b1", [2 * h], 0.1)], p + "h1b")
        act = node("Tanh", [h1b], p + "act")
        h2 = node("MatMul", [act, weight(p + "w2", [2 * h, h], (2 * h) ** -0.5)], p + "h2")
        x = node("Add", [h2, res], p + "out")
    graph = helper.make_graph(
        nodes, "transformer",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [s, h])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, [s, h])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def weights(megabytes, h):
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(0)
    layers = max(1, -(-int(megabytes * 1e6) // (4 * h * h)))
    nodes, inits = [], []
    x = "x"
    for i in range(layers):
        w = f"w{i}"
        inits.append(numpy_helper.from_array(
            (rng.standard_normal((h, h)) * h ** -0.5).astype(np.float32), w))
        inits.append(numpy_helper.from_array(
            (rng.standard_normal(h) * 0.1).astype(np.float32), f"b{i}"))
        nodes.append(helper.make_node("Gemm", [x, w, f"b{i}"], [f"g{i}"], name=f"gemm{i}"))
        nodes.append(helper.make_node("Relu", [f"g{i}"], [f"r{i}"], name=f"relu{i}"))
        x = f"r{i}"
    graph = helper.make_graph(
        nodes, "weights",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, h])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, [8, h])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["transformer", "weights"])
    ap.add_argument("size", type=float, help="blocks, or megabytes of weights")
    ap.add_argument("--seq", type=int, default=16)
    ap.add_argument("--hidden", type=int, default=None)
    args = ap.parse_args()
    import tempfile
    import amp.onnx
    if args.kind == "transformer":
        model = transformer(int(args.size), args.seq, args.hidden or 32)
    else:
        model = weights(args.size, args.hidden or 1024)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.onnx")
        import onnx
        onnx.save(model, path)
        sys.stdout.write(amp.onnx.import_model(path))


if __name__ == "__main__":
    main()

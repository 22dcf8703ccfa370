# REQUIRES: onnxruntime
# RUN: env AMP_OPT=%amp_opt AMP_RUN=amp-run %python %s | FileCheck %s
# Imported f32 models compute what ONNX Runtime computes (CPU provider,
# onnxruntime-node from scripts/setup-reference.sh) on the same inputs: a
# small CNN (conv, batch norm, relu, pools, depthwise conv, hard-swish,
# global average pool, gemm, softmax), a transformer encoder block
# (attention with reshapes/transposes and softmax, a decomposed layer norm,
# GELU through erf, shape subgraphs) and an LSTM tagger. The tolerance
# covers summation order only (1e-4 relative).
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from onnxtest import ROOT, model, node, rand  # noqa: E402
import amp.onnx  # noqa: E402
# tools/onnx (put on the path by onnxtest).
from check import compare  # noqa: E402
from reference import run_reference  # noqa: E402
from runner import run_many  # noqa: E402

i64 = lambda *v: np.array(v, np.int64)  # noqa: E731
f32 = np.float32


def cnn():
    w = {"w1": rand(8, 3, 3, 3, seed=1) * 0.3, "bn_s": rand(8, seed=2, lo=0.5, hi=1.5),
         "bn_b": rand(8, seed=3), "bn_m": rand(8, seed=4) * 0.1,
         "bn_v": rand(8, seed=5, lo=0.5, hi=2), "w2": rand(8, 1, 3, 3, seed=6) * 0.3,
         "w3": rand(16, 8, 1, 1, seed=7) * 0.3, "fc": rand(16, 10, seed=8) * 0.3,
         "fcb": rand(10, seed=9)}
    nodes = [node("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1], strides=[2, 2]),
             node("BatchNormalization", ["c1", "bn_s", "bn_b", "bn_m", "bn_v"], ["b1"]),
             node("Relu", ["b1"], ["r1"]),
             node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
             node("Conv", ["p1", "w2"], ["c2"], group=8, pads=[1, 1, 1, 1]),
             node("HardSwish", ["c2"], ["h2"]),
             node("Conv", ["h2", "w3"], ["c3"]),
             node("GlobalAveragePool", ["c3"], ["g"]),
             node("Flatten", ["g"], ["f"]),
             node("Gemm", ["f", "fc", "fcb"], ["logits"]),
             node("Softmax", ["logits"], ["y"], axis=1)]
    x = rand(2, 3, 32, 40, seed=10)
    return model(nodes, {"x": x}, ["y"], w, opset=14, dynamic={"x": [0]}), {"x": x}, \
        {"x": (2, 3, 32, 40)}


def transformer():
    T, D, heads = 6, 16, 2
    dh = D // heads
    w = {"wq": rand(D, D, seed=11) * 0.3, "wk": rand(D, D, seed=12) * 0.3,
         "wv": rand(D, D, seed=13) * 0.3, "wo": rand(D, D, seed=14) * 0.3,
         "w1": rand(D, 32, seed=15) * 0.3, "w2": rand(32, D, seed=16) * 0.3,
         "g": rand(D, seed=17, lo=0.5, hi=1.5), "b": rand(D, seed=18),
         "scale": f32(1 / np.sqrt(dh)), "two": f32(2), "eps": f32(1e-5), "half": f32(0.5),
         "one": f32(1), "sqrt2": f32(np.sqrt(2)), "heads": i64(heads, dh), "zero": np.int64(0),
         "one_i": np.int64(1), "ax0": i64(0), "minus1": i64(-1), "dmodel": i64(D)}
    nodes = [
        # Shape subgraph: [batch, T] from the input, then [batch, T, heads, dh].
        node("Shape", ["x"], ["sh"]), node("Gather", ["sh", "zero"], ["n"]),
        node("Gather", ["sh", "one_i"], ["t"]),
        node("Unsqueeze", ["n", "ax0"], ["n1"]), node("Unsqueeze", ["t", "ax0"], ["t1"]),
        node("Concat", ["n1", "t1", "heads"], ["qshape"], axis=0),
        node("Concat", ["n1", "t1", "dmodel"], ["oshape"], axis=0),
        # Attention.
        node("MatMul", ["x", "wq"], ["q"]), node("MatMul", ["x", "wk"], ["k"]),
        node("MatMul", ["x", "wv"], ["v"]),
        node("Reshape", ["q", "qshape"], ["q4"]), node("Reshape", ["k", "qshape"], ["k4"]),
        node("Reshape", ["v", "qshape"], ["v4"]),
        node("Transpose", ["q4"], ["qt"], perm=[0, 2, 1, 3]),
        node("Transpose", ["k4"], ["kt"], perm=[0, 2, 3, 1]),
        node("Transpose", ["v4"], ["vt"], perm=[0, 2, 1, 3]),
        node("MatMul", ["qt", "kt"], ["s"]), node("Mul", ["s", "scale"], ["ss"]),
        node("Softmax", ["ss"], ["a"], axis=-1), node("MatMul", ["a", "vt"], ["o"]),
        node("Transpose", ["o"], ["ot"], perm=[0, 2, 1, 3]),
        node("Reshape", ["ot", "oshape"], ["o3"]), node("MatMul", ["o3", "wo"], ["att"]),
        node("Add", ["x", "att"], ["r1"]),
        # Decomposed layer norm.
        node("ReduceMean", ["r1"], ["mu"], axes=[-1]), node("Sub", ["r1", "mu"], ["d"]),
        node("Pow", ["d", "two"], ["d2"]), node("ReduceMean", ["d2"], ["var"], axes=[-1]),
        node("Add", ["var", "eps"], ["ve"]), node("Sqrt", ["ve"], ["sd"]),
        node("Div", ["d", "sd"], ["nrm"]), node("Mul", ["nrm", "g"], ["ng"]),
        node("Add", ["ng", "b"], ["ln"]),
        # Feed-forward with GELU = x/2 (1 + erf(x / sqrt 2)).
        node("MatMul", ["ln", "w1"], ["h"]), node("Div", ["h", "sqrt2"], ["hs"]),
        node("Erf", ["hs"], ["e"]), node("Add", ["e", "one"], ["e1"]),
        node("Mul", ["h", "e1"], ["he"]), node("Mul", ["he", "half"], ["gelu"]),
        node("MatMul", ["gelu", "w2"], ["ff"]), node("Add", ["ln", "ff"], ["y"])]
    x = rand(2, T, D, seed=19)
    return model(nodes, {"x": x}, ["y"], w, opset=13, dynamic={"x": [0, 1]}), {"x": x}, \
        {"x": (2, T, D)}


def lstm():
    H, I, T = 8, 5, 7
    w = {"w": rand(2, 4 * H, I, seed=20) * 0.5, "r": rand(2, 4 * H, H, seed=21) * 0.5,
         "b": rand(2, 8 * H, seed=22) * 0.1, "fc": rand(2 * H, 3, seed=23),
         "shape": i64(T, 1, 2 * H)}
    nodes = [node("LSTM", ["x", "w", "r", "b"], ["y", "yh"], hidden_size=H,
                  direction="bidirectional"),
             node("Transpose", ["y"], ["yt"], perm=[0, 2, 1, 3]),
             node("Reshape", ["yt", "shape"], ["y2"]),
             node("MatMul", ["y2", "fc"], ["logits"]),
             node("LogSoftmax", ["logits"], ["out"], axis=-1)]
    x = rand(T, 1, I, seed=24)
    return model(nodes, {"x": x}, ["out", "yh"], w, opset=14), {"x": x}, None


cases = [("cnn", *cnn()), ("transformer", *transformer()), ("lstm", *lstm())]
texts = []
for name, m, feeds, shapes in cases:
    texts.append((amp.onnx.import_model(m, shapes=shapes, func_name=name),
                  list(feeds.values()), name))
results = run_many(texts)
for (name, m, feeds, _), outs in zip(cases, results):
    ref = run_reference(m, feeds)
    for (oname, r), o in zip(ref.items(), outs):
        ok, msg = compare(o, r, 1e-4, 1e-5)
        print("%s %s: %s %s" % (name, oname, "OK" if ok else "FAIL", msg))
# CHECK: cnn y: OK
# CHECK: transformer y: OK
# CHECK: lstm out: OK
# CHECK: lstm yh: OK

# The command-line checker (tools/onnx/check.py) on a PyTorch-exported model
# (dynamic axes fixed by --shape): f32, and bf16 within its default tolerance.
import subprocess  # noqa: E402
cnn_onnx = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs", "torch", "cnn.onnx")
for prec in ("f32", "bf16"):
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "onnx", "check.py"), cnn_onnx,
                        "--shape", "x=1,3,16,20", "--precision", prec], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    print("check exit=%d %s" % (p.returncode, p.stdout.strip()))
# CHECK: check exit=0 f32 y: max_abs_err={{.*}} OK
# CHECK: check exit=0 bf16 y: max_abs_err={{.*}} OK

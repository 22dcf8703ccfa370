# RUN: env AMP_OPT=%amp_opt AMP_RUN=amp-run %python %s | FileCheck %s
# LSTM and GRU import unrolled over its static sequence: one tosa.matmul projects
# the inputs of all steps, each step multiplies the hidden state by the
# recurrence weights and applies the gates (ONNX order i, o, f, c). Forward,
# reverse and bidirectional, with biases, initial states and peepholes; Y,
# Y_h and Y_c are compared with a numpy evaluation of ONNX's equations, in
# f32 and after --mixed-precision to f16 and bf16. GRU likewise (gates z,
# r, h), with the reset gate applied before and after the recurrence
# matmul (linear_before_reset 0 and 1, the latter PyTorch's). RNN (one gate)
# on the same scaffolding, forward and bidirectional with batch-first layout.
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from onnxtest import Suite, model, node, rand  # noqa: E402


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


def lstm_ref(x, w, r, b, h0, c0, p, direction):
    seq, batch, _ = x.shape
    ndir, h4, _ = w.shape
    H = h4 // 4
    ys, hs, cs = [], [], []
    for d in range(ndir):
        h = h0[d] if h0 is not None else np.zeros((batch, H))
        c = c0[d] if c0 is not None else np.zeros((batch, H))
        bias = b[d, :4 * H] + b[d, 4 * H:] if b is not None else 0
        pi, po, pf = (p[d, :H], p[d, H:2 * H], p[d, 2 * H:]) if p is not None else (0, 0, 0)
        rev = direction == "reverse" or (direction == "bidirectional" and d == 1)
        out = [None] * seq
        for t in (range(seq - 1, -1, -1) if rev else range(seq)):
            g = x[t] @ w[d].T + h @ r[d].T + bias
            gi, go, gf, gc = np.split(g, 4, axis=1)
            i = sigmoid(gi + pi * c)
            f = sigmoid(gf + pf * c)
            c = f * c + i * np.tanh(gc)
            o = sigmoid(go + po * c)
            h = o * np.tanh(c)
            out[t] = h
        ys.append(np.stack(out))
        hs.append(h)
        cs.append(c)
    return [np.stack(ys, 1).astype(np.float32), np.stack(hs).astype(np.float32),
            np.stack(cs).astype(np.float32)]


s = Suite(precisions=("f16", "bf16"), tolerances={"f16": (2e-2, 2e-2), "bf16": (1e-1, 1e-1)})
seq, batch, isz, H = 5, 2, 3, 4
x = rand(seq, batch, isz)

# CHECK-LABEL: // CASE lstm_forward
# The input projection of all 5 steps at once, then one recurrence matmul
# per step after the first (zero initial state):
# CHECK: tosa.matmul {{.*}} : (tensor<1x10x3xf32>, tensor<1x3x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x10x16xf32>
# CHECK-COUNT-4: tosa.matmul {{.*}} : (tensor<1x2x4xf32>, tensor<1x4x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x16xf32>
# CHECK-NOT: tosa.matmul
w, r, b = rand(1, 4 * H, isz, seed=1), rand(1, 4 * H, H, seed=2), rand(1, 8 * H, seed=3)
s.case("lstm_forward", model([node("LSTM", ["x", "w", "r", "b"], ["y", "yh", "yc"],
                                   hidden_size=H)], {"x": x}, ["y", "yh", "yc"],
                             {"w": w, "r": r, "b": b}),
       {"x": x}, lstm_ref(x, w, r, b, None, None, None, "forward"), rtol=2e-5, atol=2e-5,
       show=["tosa.matmul"])

# CHECK-LABEL: // CASE lstm_bidirectional
# CHECK-COUNT-10: tosa.sigmoid {{.*}} -> tensor<2x4xf32>
w, r, b = rand(2, 4 * H, isz, seed=4), rand(2, 4 * H, H, seed=5), rand(2, 8 * H, seed=6)
h0, c0, p = rand(2, batch, H, seed=7), rand(2, batch, H, seed=8), rand(2, 3 * H, seed=9)
s.case("lstm_bidirectional",
       model([node("LSTM", ["x", "w", "r", "b", "", "h0", "c0", "p"], ["y", "yh", "yc"],
                   hidden_size=H, direction="bidirectional")], {"x": x, "h0": h0}, ["y", "yh", "yc"],
             {"w": w, "r": r, "b": b, "c0": c0, "p": p}),
       {"x": x, "h0": h0}, lstm_ref(x, w, r, b, h0, c0, p, "bidirectional"), rtol=2e-5,
       atol=2e-5, show=["tosa.sigmoid"])

# CHECK-LABEL: // CASE lstm_reverse_layout1
xb = x.transpose(1, 0, 2).copy()
w, r = rand(1, 4 * H, isz, seed=10), rand(1, 4 * H, H, seed=11)
y, yh, yc = lstm_ref(x, w, r, None, None, None, None, "reverse")
s.case("lstm_reverse_layout1",
       model([node("LSTM", ["x", "w", "r"], ["y", "yh"], hidden_size=H, direction="reverse",
                   layout=1)], {"x": xb}, ["y", "yh"], {"w": w, "r": r}, opset=14),
       {"x": xb}, [y.transpose(2, 0, 1, 3), yh.transpose(1, 0, 2)], rtol=2e-5, atol=2e-5)



def gru_ref(x, w, r, b, h0, direction, lbr):
    seq, batch, _ = x.shape
    ndir, h3, _ = w.shape
    H = h3 // 3
    ys, hs = [], []
    for d in range(ndir):
        h = h0[d] if h0 is not None else np.zeros((batch, H))
        wb, rb = (b[d, :3 * H], b[d, 3 * H:]) if b is not None else (np.zeros(3 * H),) * 2
        rev = direction == "reverse" or (direction == "bidirectional" and d == 1)
        out = [None] * seq
        for t in (range(seq - 1, -1, -1) if rev else range(seq)):
            xw = x[t] @ w[d].T + wb
            z = sigmoid(xw[:, :H] + h @ r[d][:H].T + rb[:H])
            rr = sigmoid(xw[:, H:2 * H] + h @ r[d][H:2 * H].T + rb[H:2 * H])
            if lbr:
                hh = np.tanh(xw[:, 2 * H:] + rr * (h @ r[d][2 * H:].T + rb[2 * H:]))
            else:
                hh = np.tanh(xw[:, 2 * H:] + (rr * h) @ r[d][2 * H:].T + rb[2 * H:])
            h = (1 - z) * hh + z * h
            out[t] = h
        ys.append(np.stack(out))
        hs.append(h)
    return [np.stack(ys, 1).astype(np.float32), np.stack(hs).astype(np.float32)]


# CHECK-LABEL: // CASE gru_forward
# CHECK: tosa.matmul {{.*}} -> tensor<1x10x12xf32>
w, r, b = rand(1, 3 * H, isz, seed=12), rand(1, 3 * H, H, seed=13), rand(1, 6 * H, seed=14)
s.case("gru_forward", model([node("GRU", ["x", "w", "r", "b"], ["y", "yh"], hidden_size=H)],
                            {"x": x}, ["y", "yh"], {"w": w, "r": r, "b": b}),
       {"x": x}, gru_ref(x, w, r, b, None, "forward", 0), rtol=2e-5, atol=2e-5,
       show=["tosa.matmul"])
w, r, b = rand(2, 3 * H, isz, seed=15), rand(2, 3 * H, H, seed=16), rand(2, 6 * H, seed=17)
h0 = rand(2, batch, H, seed=18)
s.case("gru_bidirectional_lbr",
       model([node("GRU", ["x", "w", "r", "b", "", "h0"], ["y", "yh"], hidden_size=H,
                   direction="bidirectional", linear_before_reset=1)],
             {"x": x}, ["y", "yh"], {"w": w, "r": r, "b": b, "h0": h0}),
       {"x": x}, gru_ref(x, w, r, b, h0, "bidirectional", 1), rtol=2e-5, atol=2e-5)



def rnn_ref(x, w, r, b, h0, direction, acts):
    seq, batch, _ = x.shape
    ndir, H, _ = w.shape
    f = {"Tanh": np.tanh, "Relu": lambda v: np.maximum(v, 0), "Sigmoid": sigmoid}
    ys, hs = [], []
    for d in range(ndir):
        h = h0[d] if h0 is not None else np.zeros((batch, H))
        bias = b[d, :H] + b[d, H:] if b is not None else 0
        rev = direction == "reverse" or (direction == "bidirectional" and d == 1)
        out = [None] * seq
        for t in (range(seq - 1, -1, -1) if rev else range(seq)):
            h = f[acts[d]](x[t] @ w[d].T + h @ r[d].T + bias)
            out[t] = h
        ys.append(np.stack(out))
        hs.append(h)
    return [np.stack(ys, 1).astype(np.float32), np.stack(hs).astype(np.float32)]


# RNN: the same scaffolding with one gate, tanh by default.
# CHECK-LABEL: // CASE rnn_forward
# The first step has no recurrence (zero initial state), the other four do:
# CHECK: tosa.matmul {{.*}} : (tensor<1x10x3xf32>, tensor<1x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x10x4xf32>
# CHECK-NEXT: tosa.tanh {{.*}} -> tensor<2x4xf32>
# CHECK-COUNT-4: tosa.matmul {{.*}} : (tensor<1x2x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>
# CHECK-NEXT: tosa.tanh {{.*}} -> tensor<2x4xf32>
# CHECK-NOT: tosa.matmul
w, r, b = rand(1, H, isz, seed=19), rand(1, H, H, seed=20), rand(1, 2 * H, seed=21)
s.case("rnn_forward", model([node("RNN", ["x", "w", "r", "b"], ["y", "yh"], hidden_size=H)],
                            {"x": x}, ["y", "yh"], {"w": w, "r": r, "b": b}),
       {"x": x}, rnn_ref(x, w, r, b, None, "forward", ["Tanh"]), rtol=2e-5, atol=2e-5,
       show=["tosa.matmul", "tosa.tanh"])
# Bidirectional, Relu one way and Tanh the other, an initial state, batch first.
# CHECK-LABEL: // CASE rnn_bidirectional_layout1
# CHECK-COUNT-5: tosa.clamp {{.*}} {min_val = 0.0 : f32, max_val = 0x7F800000 : f32}
w, r, b = rand(2, H, isz, seed=22), rand(2, H, H, seed=23), rand(2, 2 * H, seed=24)
h0 = rand(2, batch, H, seed=25)
y, yh = rnn_ref(x, w, r, b, h0, "bidirectional", ["Relu", "Tanh"])
s.case("rnn_bidirectional_layout1",
       model([node("RNN", ["x", "w", "r", "b", "", "h0"], ["y", "yh"], hidden_size=H,
                   direction="bidirectional", activations=["Relu", "Tanh"], layout=1)],
             {"x": xb, "h0": h0.transpose(1, 0, 2).copy()}, ["y", "yh"],
             {"w": w, "r": r, "b": b}, opset=14),
       {"x": xb, "h0": h0.transpose(1, 0, 2).copy()},
       [y.transpose(2, 0, 1, 3), yh.transpose(1, 0, 2)], rtol=2e-5, atol=2e-5,
       show=["tosa.clamp"])

s.run()
# CHECK-DAG: rnn_forward: f32 OK
# CHECK-DAG: rnn_bidirectional_layout1: f32 OK
# CHECK-DAG: gru_forward: f32 OK
# CHECK-DAG: gru_bidirectional_lbr: f32 OK
# CHECK-DAG: lstm_forward: f32 OK
# CHECK-DAG: lstm_bidirectional: f32 OK
# CHECK-DAG: lstm_reverse_layout1: f32 OK
# CHECK: ONNX-SUITE 21 runs, 0 failed

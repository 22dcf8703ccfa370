# RUN: env AMP_OPT=%amp_opt AMP_RUN=amp-run %python %s | FileCheck %s
# ONNX control flow: If on a runtime condition is scf.if (nested Ifs are
# nested scf.ifs; values of the enclosing graphs are captured by name), Loop
# is scf.for (trip count only) or scf.while (a condition), Scan is scf.for
# over the scan axis, and --const / consts= binds an input so that an If on
# it folds away. Each model is run in f32 and after --mixed-precision to f16
# and bf16 and compared with ONNX Runtime when tools/onnx/ort is installed,
# else with the numpy evaluation of the model written here (which, with
# ONNX Runtime installed, is also checked against it).
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from onnxtest import ROOT, compare, rand  # noqa: E402
import amp.onnx  # noqa: E402
# tools/onnx (put on the path by onnxtest).
import reference  # noqa: E402
import runner  # noqa: E402

i64 = lambda *v: np.array(v, np.int64)  # noqa: E731


def vi(name, elem=T.FLOAT, shape=None):
    return helper.make_tensor_value_info(name, elem, shape)


def n(op, ins, outs, **attrs):
    return helper.make_node(op, ins, outs, name=outs[0], **attrs)


def graph(nodes, name, outputs, inputs=(), inits=None):
    inits = [onnx.numpy_helper.from_array(np.asarray(a), k) for k, a in (inits or {}).items()]
    return helper.make_graph(nodes, name, list(inputs), [vi(o) if isinstance(o, str) else o
                                                         for o in outputs], inits)


def model(g):
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)])


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


# --- (a) three nested Ifs on runtime conditions --------------------------------
# y = level1(x): if sum(x) > 0 (computed) then A else (if c1 (input) then B
# else (if c2 then C else D)); each branch a different matmul chain, the
# innermost branches capture the outer graph's weights and x.
D = 8
W = {"w1": rand(D, D, seed=1) * 0.4, "w2": rand(D, D, seed=2) * 0.4,
     "w3": rand(D, D, seed=3) * 0.4, "w4": rand(D, D, seed=4) * 0.4, "zero": np.float32(0)}


def nested_ifs():
    a = graph([n("MatMul", ["x", "w1"], ["a0"]), n("Tanh", ["a0"], ["a"])], "A", ["a"])
    b = graph([n("MatMul", ["x", "w2"], ["b0"]), n("Relu", ["b0"], ["b1"]),
               n("MatMul", ["b1", "w3"], ["b"])], "B", ["b"])
    c = graph([n("MatMul", ["x", "w4"], ["c0"]), n("Sigmoid", ["c0"], ["c"])], "C", ["c"])
    d = graph([n("MatMul", ["x", "w3"], ["d0"]), n("Mul", ["d0", "x"], ["d"])], "D", ["d"])
    cd = graph([n("If", ["c2"], ["cd"], then_branch=c, else_branch=d)], "CD", ["cd"])
    bcd = graph([n("If", ["c1"], ["bcd"], then_branch=b, else_branch=cd),
                 n("Add", ["bcd", "x"], ["bcd_x"])], "BCD", ["bcd_x"])
    g = graph([n("ReduceSum", ["x"], ["s"], keepdims=0), n("Greater", ["s", "zero"], ["pos"]),
               n("If", ["pos"], ["y0"], then_branch=a, else_branch=bcd),
               n("Mul", ["y0", "y0"], ["y"])],
              "nested", ["y"], [vi("x", T.FLOAT, [4, D]), vi("c1", T.BOOL, []),
                                vi("c2", T.BOOL, [])], W)
    return model(g)


def nested_ifs_ref(x, c1, c2):
    w = {k: v.astype(np.float64) for k, v in W.items()}
    x = x.astype(np.float64)
    if x.sum() > 0:
        y = np.tanh(x @ w["w1"])
    else:
        if c1:
            y = np.maximum(x @ w["w2"], 0) @ w["w3"]
        elif c2:
            y = sigmoid(x @ w["w4"])
        else:
            y = (x @ w["w3"]) * x
        y = y + x
    return [y * y]


# --- (b) an If whose else-branch holds an LSTM ----------------------------------
# The then-branch is a one-layer tanh projection of the last step; the else-
# branch an LSTM over the sequence (its weights captured from the graph),
# both giving [batch, H].
S, B, I, H = 5, 2, 3, 4
LW = {"lw": rand(1, 4 * H, I, seed=11) * 0.5, "lr": rand(1, 4 * H, H, seed=12) * 0.5,
      "lb": rand(1, 8 * H, seed=13) * 0.2, "pw": rand(I, H, seed=14),
      "last": np.int64(S - 1), "ax0": i64(0)}


def if_lstm():
    then = graph([n("Gather", ["x", "last"], ["xl"], axis=0), n("MatMul", ["xl", "pw"], ["p"]),
                  n("Tanh", ["p"], ["t"])], "proj", ["t"])
    other = graph([n("LSTM", ["x", "lw", "lr", "lb"], ["", "yh"], hidden_size=H),
                   n("Squeeze", ["yh", "ax0"], ["e"])], "lstm", ["e"])
    g = graph([n("If", ["short"], ["y"], then_branch=then, else_branch=other)], "if_lstm",
              ["y"], [vi("x", T.FLOAT, [S, B, I]), vi("short", T.BOOL, [1])], LW)
    return model(g)


def if_lstm_ref(x, short):
    x = x.astype(np.float64)
    if short[0]:
        return [np.tanh(x[S - 1] @ LW["pw"])]
    w, r, b = LW["lw"][0], LW["lr"][0], LW["lb"][0]
    h = np.zeros((B, H))
    c = np.zeros((B, H))
    for t in range(S):
        gi, go, gf, gc = np.split(x[t] @ w.T + h @ r.T + b[:4 * H] + b[4 * H:], 4, axis=1)
        c = sigmoid(gf) * c + sigmoid(gi) * np.tanh(gc)
        h = sigmoid(go) * np.tanh(c)
    return [h]


# --- (c) Loops: a trip count with carried values and a scan output, and a
# condition computed in the body --------------------------------------------
# rnn: h_{k+1} = tanh(h_k @ R + xs[k]) for k < M, with the iteration number
# picking xs[k] (Gather), a carried step counter (int64 in ONNX, i32 in amp)
# and every h stacked as a scan output.
RW = {"rr": rand(D, D, seed=21) * 0.4, "M": i64(6), "true": np.array(True),
      "one": np.int64(1)}


def loop_rnn():
    body = graph([n("Gather", ["xs", "k"], ["xk"], axis=0), n("MatMul", ["h", "rr"], ["hr"]),
                  n("Add", ["hr", "xk"], ["pre"]), n("Tanh", ["pre"], ["h2"]),
                  n("Add", ["cnt", "one"], ["cnt2"]), n("Identity", ["cond"], ["cond2"]),
                  n("Identity", ["h2"], ["hs"])],
                 "body", [vi("cond2", T.BOOL, []), "h2", vi("cnt2", T.INT64, []), "hs"],
                 [vi("k", T.INT64, []), vi("cond", T.BOOL, []), vi("h", T.FLOAT, [B, D]),
                  vi("cnt", T.INT64, [])])
    g = graph([n("Loop", ["M", "", "h0", "zero_i"], ["h", "count", "hs"], body=body)],
              "loop_rnn", ["h", vi("count", T.INT64, []), "hs"],
              [vi("xs", T.FLOAT, [6, B, D]), vi("h0", T.FLOAT, [B, D])],
              dict(RW, zero_i=np.int64(0)))
    return model(g)


def loop_rnn_ref(xs, h0):
    h = h0.astype(np.float64)
    hs = []
    for k in range(6):
        h = np.tanh(h @ RW["rr"] + xs[k])
        hs.append(h)
    return [h, np.int64(6), np.stack(hs)]


# grow: s = 1.5 s + 0.25 while max(s) < limit, at most M = 20 times: the body
# computes the condition (scf.while). limit is an input, so the number of
# iterations is a runtime matter.
GW = {"M": i64(20), "k15": np.float32(1.5), "k025": np.float32(0.25)}


def loop_while():
    body = graph([n("Mul", ["s", "k15"], ["s1"]), n("Add", ["s1", "k025"], ["s2"]),
                  n("ReduceMax", ["s2"], ["mx"], keepdims=0),
                  n("Less", ["mx", "limit"], ["go"])],
                 "body", [vi("go", T.BOOL, []), "s2"],
                 [vi("k", T.INT64, []), vi("cond", T.BOOL, []), vi("s", T.FLOAT, [2, 3])])
    g = graph([n("Less", ["limit0", "limit"], ["start"]),
               n("Loop", ["M", "start", "s0"], ["s"], body=body)], "loop_while", ["s"],
              [vi("s0", T.FLOAT, [2, 3]), vi("limit", T.FLOAT, [])],
              dict(GW, limit0=np.float32(-1e30)))
    return model(g)


def loop_while_ref(s0, limit):
    s = s0.astype(np.float64)
    go = True
    k = 0
    while go and k < 20:
        s = 1.5 * s + 0.25
        go = s.max() < limit
        k += 1
    return [s]


# --- (d) Scan: an Elman RNN over the sequence (state h) with a second scan
# input read in reverse, and its outputs stacked on axis 1 -------------------
SW = {"sr": rand(D, D, seed=31) * 0.4, "sw": rand(I, D, seed=32) * 0.5}


def scan():
    body = graph([n("MatMul", ["h", "sr"], ["hr"]), n("MatMul", ["xt", "sw"], ["xw"]),
                  n("Add", ["hr", "xw"], ["a"]), n("Add", ["a", "bt"], ["a2"]),
                  n("Tanh", ["a2"], ["h2"]), n("Identity", ["h2"], ["o"])],
                 "body", ["h2", "o"],
                 [vi("h", T.FLOAT, [B, D]), vi("xt", T.FLOAT, [B, I]), vi("bt", T.FLOAT, [B, D])])
    g = graph([n("Scan", ["h0", "x", "bias"], ["h", "ys"], body=body, num_scan_inputs=2,
                 scan_input_directions=[0, 1], scan_output_axes=[1])],
              "scan", ["h", "ys"],
              [vi("h0", T.FLOAT, [B, D]), vi("x", T.FLOAT, [S, B, I]),
               vi("bias", T.FLOAT, [S, B, D])], SW)
    return model(g)


def scan_ref(h0, x, bias):
    h = h0.astype(np.float64)
    ys = []
    for t in range(S):
        h = np.tanh(h @ SW["sr"] + x[t] @ SW["sw"] + bias[S - 1 - t])
        ys.append(h)
    return [h, np.stack(ys, axis=1)]


# --- (e) an If on an input bound at import time -------------------------------
# A "sample rate" input picks the front end: 16000 a projection, anything
# else an LSTM. consts={"rate": 16000} (--const rate=16000) folds the If:
# no scf.if, no LSTM, and rate is no longer an argument.
def rate_switch():
    fast = graph([n("Gather", ["x", "last"], ["xl"], axis=0), n("MatMul", ["xl", "pw"], ["p"]),
                  n("Tanh", ["p"], ["t"])], "fast", ["t"])
    slow = graph([n("LSTM", ["x", "lw", "lr", "lb"], ["", "yh"], hidden_size=H),
                  n("Squeeze", ["yh", "ax0"], ["e"])], "slow", ["e"])
    g = graph([n("Equal", ["rate", "r16k"], ["is16k"]),
               n("If", ["is16k"], ["y"], then_branch=fast, else_branch=slow)], "rate_switch",
              ["y"], [vi("x", T.FLOAT, [S, B, I]), vi("rate", T.INT64, [])],
              dict(LW, r16k=np.int64(16000)))
    return model(g)


# --- the cases ---------------------------------------------------------------

x_pos = np.abs(rand(4, D, seed=40))
x_neg = -np.abs(rand(4, D, seed=41))
xseq = rand(S, B, I, seed=42)
cases = [
    ("nested_pos", nested_ifs, {"x": x_pos, "c1": np.array(False), "c2": np.array(False)},
     nested_ifs_ref),
    ("nested_b", nested_ifs, {"x": x_neg, "c1": np.array(True), "c2": np.array(False)},
     nested_ifs_ref),
    ("nested_c", nested_ifs, {"x": x_neg, "c1": np.array(False), "c2": np.array(True)},
     nested_ifs_ref),
    ("nested_d", nested_ifs, {"x": x_neg, "c1": np.array(False), "c2": np.array(False)},
     nested_ifs_ref),
    ("if_lstm_then", if_lstm, {"x": xseq, "short": np.array([True])}, if_lstm_ref),
    ("if_lstm_else", if_lstm, {"x": xseq, "short": np.array([False])}, if_lstm_ref),
    ("loop_rnn", loop_rnn, {"xs": rand(6, B, D, seed=43), "h0": rand(B, D, seed=44)},
     loop_rnn_ref),
    ("loop_while", loop_while, {"s0": rand(2, 3, seed=45, lo=0, hi=1),
                                "limit": np.array(40, np.float32)}, loop_while_ref),
    ("loop_while_max", loop_while, {"s0": rand(2, 3, seed=46, lo=0, hi=1),
                                    "limit": np.array(1e30, np.float32)}, loop_while_ref),
    ("scan", scan, {"h0": rand(B, D, seed=47), "x": xseq, "bias": rand(S, B, D, seed=48) * 0.3},
     scan_ref),
]

# Tolerances (|err| <= atol + rtol |ref|). f32: summation order only. The
# models chain up to ~6 matmul/tanh steps (the RNNs) with |values| <= ~3, and
# every op rounds its result to the low type: f16's unit roundoff is 2^-11
# (~5e-4), so a dozen roundings amplified by the recurrences stay well
# within 5e-3; bf16's is 2^-8 (~4e-3), so 5e-2. loop_while grows to ~40
# through 10 multiply-adds: its errors are relative, hence rtol.
TOL = {None: (1e-5, 1e-5), "f16": (5e-3, 5e-3), "bf16": (5e-2, 5e-2)}

have_ort = reference.available()
texts, refs = [], []
# (e) rate_16k is rate_switch with the rate bound; the reference gets it fed.
cases.append(("rate_16k", rate_switch, {"x": xseq, "rate": np.array(16000, np.int64)},
              lambda x, rate: if_lstm_ref(x, [rate == 16000])))
cases.append(("rate_8k", rate_switch, {"x": xseq, "rate": np.array(8000, np.int64)},
              lambda x, rate: if_lstm_ref(x, [rate == 16000])))
for name, build, feeds, ref in cases:
    m = build()
    if name.startswith("rate_"):
        text = amp.onnx.import_model(m, func_name=name, consts={"rate": int(feeds["rate"])})
        texts.append((text, [feeds["x"]], name))
    else:
        text = amp.onnx.import_model(m, func_name=name)
        texts.append((text, list(feeds.values()), name))
    expected = [np.asarray(e, np.float64) for e in ref(*feeds.values())]
    if have_ort:
        # ONNX Runtime is the reference; the numpy evaluation must agree with it.
        ort = list(reference.run_reference(m, feeds).values())
        for o, e in zip(ort, expected):
            ok, msg = compare(o, e, 1e-5, 1e-5)
            if not ok:
                print("%s: numpy evaluation differs from ONNX Runtime: %s" % (name, msg))
        expected = ort
    refs.append(expected)

# The imported functions (one of each model).
# CHECK-LABEL: func.func @nested_pos(
# CHECK: %[[C0:.+]] = tensor.extract %{{.+}}[] : tensor<i1> loc("y0")
# CHECK: scf.if %[[C0]] -> (tensor<4x8xf32>) {
# CHECK: tosa.tanh
# CHECK: } else {
# CHECK: scf.if %{{.+}} -> (tensor<4x8xf32>) {
# CHECK: } else {
# CHECK: scf.if %{{.+}} -> (tensor<4x8xf32>) {
# CHECK: tosa.sigmoid
# CHECK: } else {
# CHECK: } loc("cd")
# CHECK: } loc("bcd")
# CHECK: } loc("y0")
# CHECK-LABEL: func.func @if_lstm_then(
# CHECK: scf.if %{{.+}} -> (tensor<2x4xf32>) {
# CHECK: } else {
# CHECK-COUNT-15: tosa.sigmoid
# CHECK: } loc("y")
# CHECK-LABEL: func.func @loop_rnn(
# CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args({{.*}}) -> (tensor<2x8xf32>, tensor<i32>, tensor<6x2x8xf32>) {
# CHECK: arith.index_cast %[[I]] : index to i32
# CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[%[[I]], 0, 0] [1, 2, 8] [1, 1, 1] : tensor<2x8xf32> into tensor<6x2x8xf32>
# CHECK-LABEL: func.func @loop_while(
# CHECK: scf.while ({{.*}}) : (i1, i32, tensor<2x3xf32>) -> (i32, tensor<2x3xf32>) {
# CHECK: arith.cmpi slt
# CHECK: scf.condition
# CHECK: } do {
# CHECK: scf.yield %{{.+}}, %{{.+}}, %{{.+}} : i1, i32, tensor<2x3xf32>
# CHECK-LABEL: func.func @scan(
# CHECK: scf.for {{.*}} -> (tensor<2x8xf32>, tensor<2x5x8xf32>) {
# CHECK: tensor.extract_slice %{{.+}}[%{{.+}}, 0, 0] [1, 2, 3] [1, 1, 1] : tensor<5x2x3xf32> to tensor<2x3xf32>
# CHECK: arith.subi
# CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, %{{.+}}, 0] [2, 1, 8] [1, 1, 1] : tensor<2x8xf32> into tensor<2x5x8xf32>
# With the rate bound there is neither an If nor an LSTM, and x is the only
# argument.
# CHECK-LABEL: func.func @rate_16k(%arg0: tensor<5x2x3xf32>) -> tensor<2x4xf32>
# CHECK-NOT: scf.if
# CHECK-NOT: tosa.sigmoid
# CHECK: tosa.tanh
# CHECK-NOT: scf.if
# CHECK-LABEL: func.func @rate_8k(%arg0: tensor<5x2x3xf32>) -> tensor<2x4xf32>
# CHECK-NOT: scf.if
# CHECK-COUNT-15: tosa.sigmoid
# CHECK-NOT: scf.if
# CHECK: return
shown = set()
for (text, _, name), (_, build, _, _) in zip(texts, cases):
    if build not in shown or name.startswith("rate_"):
        shown.add(build)
        print("\n".join(l for l in text.splitlines() if not l.startswith("//")))

# mixed-precision ties the types through the regions: with greedy placement
# every branch of the nested Ifs yields f16 (bf16) and each scf.if result is
# that type; the loops carry their state (and the stacked outputs) in it.
for prec in ("f16", "bf16"):
    for (text, _, name) in texts:
        if name in ("nested_pos", "loop_rnn", "scan"):
            low = runner.convert(text, prec, "placement=greedy")
            print("// %s %s" % (name, prec))
            for line in low.splitlines():
                if "scf." in line or "} else {" in line:
                    print(line.strip())
# CHECK-LABEL: // nested_pos f16
# CHECK: scf.if %{{.+}} -> (tensor<4x8xf16>) {
# CHECK-NEXT: scf.yield %{{.+}} : tensor<4x8xf16>
# CHECK-NEXT: } else {
# CHECK-NEXT: scf.if %{{.+}} -> (tensor<4x8xf16>) {
# CHECK-NEXT: scf.yield %{{.+}} : tensor<4x8xf16>
# CHECK-NEXT: } else {
# CHECK-NEXT: scf.if %{{.+}} -> (tensor<4x8xf16>) {
# CHECK-NEXT: scf.yield %{{.+}} : tensor<4x8xf16>
# CHECK-NEXT: } else {
# CHECK-NEXT: scf.yield %{{.+}} : tensor<4x8xf16>
# CHECK-NEXT: scf.yield %{{.+}} : tensor<4x8xf16>
# CHECK-NEXT: scf.yield %{{.+}} : tensor<4x8xf16>
# CHECK-LABEL: // loop_rnn f16
# CHECK: scf.for {{.*}} -> (tensor<2x8xf16>, tensor<i32>, tensor<6x2x8xf16>) {
# CHECK-NEXT: scf.yield {{.*}} : tensor<2x8xf16>, tensor<i32>, tensor<6x2x8xf16>
# CHECK-LABEL: // scan f16
# CHECK: scf.for {{.*}} -> (tensor<2x8xf16>, tensor<2x5x8xf16>) {
# CHECK-LABEL: // nested_pos bf16
# CHECK-COUNT-3: scf.if %{{.+}} -> (tensor<4x8xbf16>) {
# CHECK-LABEL: // loop_rnn bf16
# CHECK: scf.for {{.*}} -> (tensor<2x8xbf16>, tensor<i32>, tensor<6x2x8xbf16>) {
# CHECK-LABEL: // scan bf16
# CHECK: scf.for {{.*}} -> (tensor<2x8xbf16>, tensor<2x5x8xbf16>) {

failed = 0
# Default placement, and greedy placement (the regions then run in the low
# type, as checked above).
for prec, opts in ((None, ""), ("f16", ""), ("bf16", ""), ("f16", "placement=greedy"),
                   ("bf16", "placement=greedy")):
    results = runner.run_many(texts, prec, opts)
    rtol, atol = TOL[prec]
    for (_, _, name), outs, expected in zip(texts, results, refs):
        msgs, ok = [], len(outs) == len(expected)
        for o, e in zip(outs, expected):
            good, msg = compare(o, e, rtol, atol)
            ok &= good
            msgs.append(msg)
        failed += not ok
        print("%s %s%s: %s %s" % (name, prec or "f32", " greedy" if opts else "",
                                   "OK" if ok else "FAIL", " ".join(msgs)))
# CHECK: nested_pos f32: OK
# CHECK: nested_b f32: OK
# CHECK: nested_c f32: OK
# CHECK: nested_d f32: OK
# CHECK: if_lstm_then f32: OK
# CHECK: if_lstm_else f32: OK
# CHECK: loop_rnn f32: OK
# CHECK: loop_while f32: OK
# CHECK: loop_while_max f32: OK
# CHECK: scan f32: OK
# CHECK: rate_16k f32: OK
# CHECK: rate_8k f32: OK
# CHECK: nested_pos f16: OK
# CHECK: nested_b f16: OK
# CHECK: nested_c f16: OK
# CHECK: nested_d f16: OK
# CHECK: if_lstm_then f16: OK
# CHECK: if_lstm_else f16: OK
# CHECK: loop_rnn f16: OK
# CHECK: loop_while f16: OK
# CHECK: loop_while_max f16: OK
# CHECK: scan f16: OK
# CHECK: rate_16k f16: OK
# CHECK: rate_8k f16: OK
# CHECK: nested_pos bf16: OK
# CHECK: nested_b bf16: OK
# CHECK: nested_c bf16: OK
# CHECK: nested_d bf16: OK
# CHECK: if_lstm_then bf16: OK
# CHECK: if_lstm_else bf16: OK
# CHECK: loop_rnn bf16: OK
# CHECK: loop_while bf16: OK
# CHECK: loop_while_max bf16: OK
# CHECK: scan bf16: OK
# CHECK: rate_16k bf16: OK
# CHECK: rate_8k bf16: OK
# CHECK: nested_pos f16 greedy: OK
# CHECK: nested_b f16 greedy: OK
# CHECK: nested_c f16 greedy: OK
# CHECK: nested_d f16 greedy: OK
# CHECK: if_lstm_then f16 greedy: OK
# CHECK: if_lstm_else f16 greedy: OK
# CHECK: loop_rnn f16 greedy: OK
# CHECK: loop_while f16 greedy: OK
# CHECK: loop_while_max f16 greedy: OK
# CHECK: scan f16 greedy: OK
# CHECK: rate_16k f16 greedy: OK
# CHECK: rate_8k f16 greedy: OK
# CHECK: nested_pos bf16 greedy: OK
# CHECK: nested_b bf16 greedy: OK
# CHECK: nested_c bf16 greedy: OK
# CHECK: nested_d bf16 greedy: OK
# CHECK: if_lstm_then bf16 greedy: OK
# CHECK: if_lstm_else bf16 greedy: OK
# CHECK: loop_rnn bf16 greedy: OK
# CHECK: loop_while bf16 greedy: OK
# CHECK: loop_while_max bf16 greedy: OK
# CHECK: scan bf16 greedy: OK
# CHECK: rate_16k bf16 greedy: OK
# CHECK: rate_8k bf16 greedy: OK
print("CONTROL-FLOW %d failed" % failed)
# CHECK: CONTROL-FLOW 0 failed

# RUN: env AMP_OPT=%amp_opt AMP_RUN=amp-run %python %s cpu | FileCheck %s
# RUN: %if vulkan %{ env AMP_OPT=%amp_opt AMP_RUN=amp-run %python %s vulkan | FileCheck %s %}
# RUN: %if cuda-gpu %{ env AMP_OPT=%amp_opt AMP_RUN=amp-run %python %s cuda | FileCheck %s %}
# Without a GPU, the f16 TopK still compiles to cubins for sm_80 and sm_90:
# RUN: %if ptxas %{ rm -rf %t && mkdir -p %t && env AMP_OPT=%amp_opt %python %s write %t/topk.mlir %}
# RUN: %if ptxas %{ amp-opt %t/topk.mlir -p 'builtin.module(amp-lower-to-nvvm{chip=sm_80 format=bin})' | grep -o -e 'bin = "\\7FELF' -e gpu.launch_func | sort -u | FileCheck %s --check-prefix=NVVM %}
# RUN: %if ptxas %{ amp-opt %t/topk.mlir -p 'builtin.module(amp-lower-to-nvvm{chip=sm_90 format=bin})' | grep -o -e 'bin = "\\7FELF' -e gpu.launch_func | sort -u | FileCheck %s --check-prefix=NVVM %}
# NVVM-DAG: bin = "\7FELF
# NVVM-DAG: gpu.launch_func
#
# TopK imports as three linalg ops, no sort (each element's rank is the
# count of elements before it; the index and value at position p are those
# of the element of rank p) and runs wherever linalg does: the CPU, Vulkan
# and CUDA, in f32, f16 and bf16. Its order is defined: largest puts NaN
# first, then values descending; smallest puts values ascending, NaN last;
# equal values come in index order, as ONNX Runtime orders ties when
# sorted (its order of NaNs is that of a heap, not a sort: amp defines its
# own). Indices are compared with numpy (stable sorts) on every input.
#
# In f16 and bf16 the comparisons run on the low values (exact), after the
# producer's rounding: indices equal numpy's on the rounded values, and
# equal f32's where rounding creates no ties. Where it does (distinct f32
# values that round to one f16 value), the rows that change order are
# counted and each change is checked to be a tie in the low type.
# ArgMax/ArgMin with select_last_index pick the last of equal extrema.
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from onnxtest import model, node  # noqa: E402

import amp.onnx  # noqa: E402
import runner  # noqa: E402

backend = sys.argv[1]


def order(row, largest):
    """TopK's order of one row: (NaN rank, value, index) keys."""
    def key(i):
        v = row[i]
        if np.isnan(v):
            return (0, 0.0, i) if largest else (1, 0.0, i)
        return (1, -v, i) if largest else (0, v, i)
    return sorted(range(len(row)), key=key)


def topk_ref(x, k, axis, largest):
    xm = np.moveaxis(x, axis, -1)
    flat = xm.reshape(-1, xm.shape[-1])
    idx = np.array([order(r, largest)[:k] for r in flat], np.int64).reshape(xm.shape[:-1] + (k,))
    vals = np.take_along_axis(xm, idx, -1)
    return np.moveaxis(vals, -1, axis), np.moveaxis(idx, -1, axis)


def round_bf16(x):
    b = x.astype(np.float32).view(np.uint32)
    r = ((b + 0x7fff + ((b >> 16) & 1)) & 0xffff0000).astype(np.uint32)
    return np.where(np.isnan(x), x, r.view(np.float32))


def round_to(x, precision):
    return x.astype(np.float16).astype(np.float32) if precision == "f16" else round_bf16(x)


def same(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


def topk_model(x, k, axis, largest, before=None):
    nodes, src = [], "x"
    if before == "relu":
        nodes.append(node("Relu", ["x"], ["r"]))
        src = "r"
    nodes.append(node("TopK", [src, "k"], ["v", "i"], axis=axis, largest=largest))
    return model(nodes, {"x": x}, ["v", "i"], {"k": np.array([k], np.int64)}, opset=11)


if backend == "write":
    # The f16 program the NVVM lines above compile.
    x = np.zeros((8, 64), np.float32)
    text = amp.onnx.import_model(topk_model(x, 5, -1, 1, before="relu"))
    with open(sys.argv[2], "w") as f:
        f.write(runner.convert(text, "f16"))
    sys.exit(0)

rng = np.random.default_rng(7)
ties = rng.integers(0, 8, (6, 50)).astype(np.float32)
ties[1, [3, 9, 30]] = np.nan
ties[2, [0, 4]] = np.inf
ties[2, [5, 6]] = -np.inf
ties[3, :] = 2.0                                  # a row of one value
cube = rng.integers(-3, 4, (3, 20, 4)).astype(np.float32)

cases = []
for largest in (1, 0):
    for k in (1, 7, 50):
        cases.append(("ties_l%d_k%d" % (largest, k), ties, k, -1, largest))
    cases.append(("axis1_l%d" % largest, cube, 20, 1, largest))
    cases.append(("axis0_l%d" % largest, cube, 2, 0, largest))
texts = [(amp.onnx.import_model(topk_model(x, k, a, l), func_name=n), [x], n)
         for n, x, k, a, l in cases]
results = runner.run_many(texts, None, backend=backend)
for (name, x, k, axis, largest), (vals, idx) in zip(cases, results):
    v_ref, i_ref = topk_ref(x, k, axis, largest)
    print("%s: %s" % (name, "OK" if same(idx, i_ref) and same(vals, v_ref) else "FAIL"))
# CHECK: ties_l1_k1: OK
# CHECK-NEXT: ties_l1_k7: OK
# CHECK-NEXT: ties_l1_k50: OK
# CHECK-NEXT: axis1_l1: OK
# CHECK-NEXT: axis0_l1: OK
# CHECK-NEXT: ties_l0_k1: OK
# CHECK-NEXT: ties_l0_k7: OK
# CHECK-NEXT: ties_l0_k50: OK
# CHECK-NEXT: axis1_l0: OK
# CHECK-NEXT: axis0_l0: OK

# Low precision: Relu rounds its input to the low type and TopK runs on the
# low values. Inputs that are exact in f16 and bf16 (multiples of 1/16 in
# [-8, 8)) keep f32's indices; random normal inputs round some distinct
# values to one: those rows may change order, and only by ties.
exact = (rng.integers(-128, 128, (8, 40)) / 16).astype(np.float32)
normal = rng.standard_normal((64, 200)).astype(np.float32)
for precision in ("f16", "bf16"):
    for name, x in (("exact", exact), ("normal", normal)):
        k = 10
        m = topk_model(x, k, -1, 1, before="relu")
        text = amp.onnx.import_model(m, func_name="low_" + name)
        low_text = runner.convert(text, precision)
        cmp_types = sorted({line.rsplit(":", 1)[-1].strip()
                            for line in low_text.splitlines() if "arith.cmpf" in line})
        vals, idx = runner.run_many([(text, [x], "low_" + name)], precision,
                                    backend=backend)[0]
        r = np.maximum(x, 0)
        _, i32 = topk_ref(r, k, -1, 1)
        rl = round_to(r, precision)
        _, ilow = topk_ref(rl, k, -1, 1)
        changed = [row for row in range(x.shape[0]) if not same(i32[row], idx[row])]
        # Every change of order is a tie in the low type.
        ties_only = all(rl[row, i32[row, j]] == rl[row, idx[row, j]]
                        for row in changed for j in range(k))
        print("%s %s: compares in %s, equals numpy on the rounded values: %s, "
              "rows in another order than f32's: %d of %d, all by ties: %s" % (
                  precision, name, ",".join(cmp_types), same(idx, ilow), len(changed),
                  x.shape[0], ties_only))
# CHECK-NEXT: f16 exact: compares in f16, equals numpy on the rounded values: True, rows in another order than f32's: 0 of 8, all by ties: True
# CHECK-NEXT: f16 normal: compares in f16, equals numpy on the rounded values: True, rows in another order than f32's: {{[0-9]+}} of 64, all by ties: True
# CHECK-NEXT: bf16 exact: compares in bf16, equals numpy on the rounded values: True, rows in another order than f32's: 0 of 8, all by ties: True
# CHECK-NEXT: bf16 normal: compares in bf16, equals numpy on the rounded values: True, rows in another order than f32's: {{[1-9][0-9]*}} of 64, all by ties: True

# ArgMax/ArgMin: the first extremum, or the last with select_last_index.
x = np.array([[1, 5, 5, 0, 0, 5], [2, 2, -1, -1, 2, 0]], np.float32)
arg_cases = [(op, last) for op in ("ArgMax", "ArgMin") for last in (0, 1)]
texts = [(amp.onnx.import_model(model([node(op, ["x"], ["y"], axis=1, keepdims=0,
                                            select_last_index=last)], {"x": x}, ["y"]),
                                func_name="%s_%d" % (op.lower(), last)), [x],
          "%s_%d" % (op.lower(), last)) for op, last in arg_cases]
for (op, last), (y,) in zip(arg_cases, runner.run_many(texts, None, backend=backend)):
    f = np.argmax if op == "ArgMax" else np.argmin
    want = f(x, 1) if not last else x.shape[1] - 1 - f(x[:, ::-1], 1)
    print("%s select_last_index=%d: %s %s" % (op, last, y.tolist(), same(y, want)))
# CHECK-NEXT: ArgMax select_last_index=0: [1, 0] True
# CHECK-NEXT: ArgMax select_last_index=1: [5, 4] True
# CHECK-NEXT: ArgMin select_last_index=0: [3, 2] True
# CHECK-NEXT: ArgMin select_last_index=1: [4, 3] True

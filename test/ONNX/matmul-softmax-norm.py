# RUN: env AMP_OPT=%amp_opt AMP_RUN=amp-run %python %s | FileCheck %s
# MatMul (numpy semantics: batched, broadcast, vectors) and Gemm import as
# 3-D tosa.matmul; Softmax as linalg.softmax (opset 13: one axis; before:
# the input flattened at the axis); reductions as tosa.reduce_* per axis
# (mean: a sum divided by the count); LayerNormalization and the decomposed
# form exported by older tools (ReduceMean/Sub/Pow/Sqrt/Div) compute the
# same normalization. Each case is run on the CPU and compared with numpy.
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from onnxtest import Suite, model, node, rand  # noqa: E402

s = Suite(precisions=("f16", "bf16"), tolerances={"f16": (3e-2, 3e-2), "bf16": (1.5e-1, 1.5e-1)})

# A shared 2-D right-hand side folds the batch into the rows.
# CHECK-LABEL: // CASE matmul_weights
# CHECK: tosa.matmul {{.*}} : (tensor<1x6x5xf32>, tensor<1x5x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x4xf32>
a, w = rand(2, 3, 5), rand(5, 4, seed=1)
s.case("matmul_weights", model([node("MatMul", ["a", "w"], ["y"])], {"a": a}, ["y"], {"w": w}),
       {"a": a}, [a @ w], show=["tosa.matmul"])

# Batched with broadcast batch dimensions ([2,1] against [3]).
# CHECK-LABEL: // CASE matmul_batched
# CHECK: tosa.tile
# CHECK: tosa.matmul {{.*}} -> tensor<6x4x2xf32>
a, b = rand(2, 1, 4, 3, seed=2), rand(3, 3, 2, seed=3)
s.case("matmul_batched", model([node("MatMul", ["a", "b"], ["y"])], {"a": a, "b": b}, ["y"]),
       {"a": a, "b": b}, [a @ b], show=["tosa.matmul", "tosa.tile"])

# CHECK-LABEL: // CASE matmul_vector
# CHECK: tosa.matmul {{.*}} -> tensor<1x1x3xf32>
v, m = rand(4, seed=4), rand(4, 3, seed=5)
s.case("matmul_vector", model([node("MatMul", ["v", "m"], ["y"])], {"v": v}, ["y"], {"m": m}),
       {"v": v}, [v @ m], show=["tosa.matmul"])

# Gemm: transB of a constant is done at import time, alpha folded into the
# constant, beta scales C.
# CHECK-LABEL: // CASE gemm
# CHECK-NOT: tosa.transpose
# CHECK: tosa.matmul {{.*}} : (tensor<1x3x5xf32>, tensor<1x5x4xf32>
a, bt, c = rand(3, 5, seed=6), rand(4, 5, seed=7), rand(4, seed=8)
s.case("gemm", model([node("Gemm", ["a", "b", "c"], ["y"], transB=1, alpha=0.5, beta=2.0)],
                     {"a": a}, ["y"], {"b": bt, "c": c}),
       {"a": a}, [0.5 * a @ bt.T + 2.0 * c], show=["tosa.matmul", "tosa.transpose"])

# CHECK-LABEL: // CASE gemm_transA
# CHECK: tosa.transpose %arg0 {perms = array<i32: 1, 0>}
a = rand(5, 3, seed=9)
b = rand(5, 2, seed=10)
s.case("gemm_transA", model([node("Gemm", ["a", "b"], ["y"], transA=1)], {"a": a, "b": b}, ["y"]),
       {"a": a, "b": b}, [a.T @ b], show=["tosa.transpose"])

# Einsum: operands transposed to [batch, free, contracted], one batched
# tosa.matmul, the result transposed to the output order; indices of one
# operand only are summed first.
# CHECK-LABEL: // CASE einsum
# CHECK: tosa.matmul {{.*}} : (tensor<6x4x5xf32>, tensor<6x5x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<6x4x3xf32>
q, k = rand(2, 3, 4, 5, seed=20), rand(2, 3, 3, 5, seed=21)
a, b = rand(3, 4, 6, seed=22), rand(6, 2, seed=23)
v1, v2, m = rand(7, seed=24), rand(7, seed=25), rand(3, 5, seed=26)
eqs = [("bhid,bhjd->bhij", [q, k]), ("bij,jk->bik", [a, b]), ("ij->ji", [m]), ("ij->i", [m]),
       ("i,i", [v1, v2]), ("bij,bkj->bk", [a, rand(3, 2, 6, seed=27)])]
feeds = {}
nodes = []
for n, (eq, ops) in enumerate(eqs):
    names = []
    for j, o in enumerate(ops):
        feeds["e%d_%d" % (n, j)] = o
        names.append("e%d_%d" % (n, j))
    nodes.append(node("Einsum", names, ["y%d" % n], equation=eq))
s.case("einsum", model(nodes, feeds, ["y%d" % n for n in range(len(eqs))], opset=12),
       feeds, [np.einsum(eq, *ops).astype(np.float32)
               for eq, ops in eqs], show=["tosa.matmul"])


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# CHECK-LABEL: // CASE softmax13
# CHECK: linalg.softmax dimension(1) ins(%arg0 : tensor<2x5x3xf32>)
x = rand(2, 5, 3, seed=11) * 3
s.case("softmax13", model([node("Softmax", ["x"], ["y"], axis=1)], {"x": x}, ["y"]),
       {"x": x}, [softmax(x, 1)], show=["linalg.softmax"])

# Opset 11, axis 1 of a 3-D input: the softmax runs over dimensions 1 and 2
# together.
# CHECK-LABEL: // CASE softmax11
# CHECK: linalg.softmax dimension(1) ins({{.*}} : tensor<2x15xf32>)
s.case("softmax11", model([node("Softmax", ["x"], ["y"], axis=1)], {"x": x}, ["y"], opset=11),
       {"x": x}, [softmax(x.reshape(2, 15), 1).reshape(2, 5, 3)], show=["linalg.softmax"])

# CHECK-LABEL: // CASE log_softmax
# CHECK: tosa.reduce_max
# CHECK: tosa.exp
# CHECK: tosa.log
s.case("log_softmax", model([node("LogSoftmax", ["x"], ["y"], axis=-1)], {"x": x}, ["y"]),
       {"x": x}, [np.log(softmax(x, -1))], show=["tosa.reduce_max", "tosa.exp", "tosa.log"])

# Reductions: axes as an attribute (ReduceMean, opset 13) or an input
# (ReduceSum, opset 13); keepdims=0 reshapes; mean divides by the count.
# CHECK-LABEL: // CASE reductions
# CHECK: tosa.reduce_sum %arg0 {axis = 1 : i32} : (tensor<2x5x3xf32>) -> tensor<2x1x3xf32>
# CHECK: tosa.reduce_sum {{.*}} {axis = 2 : i32} : (tensor<2x1x3xf32>) -> tensor<2x1x1xf32>
# CHECK: arith.divf
# CHECK: tosa.reduce_max
s.case("reductions",
       model([node("ReduceMean", ["x"], ["m"], axes=[1, -1], keepdims=1),
              node("ReduceSum", ["x", "ax"], ["s"], keepdims=0),
              node("ReduceMax", ["x"], ["mx"], axes=[0], keepdims=0),
              node("ReduceMin", ["x"], ["mn"], axes=[2])],
             {"x": x}, ["m", "s", "mx", "mn"], {"ax": np.array([0, 2], np.int64)}),
       {"x": x}, [x.mean(axis=(1, 2), keepdims=True), x.sum(axis=(0, 2)), x.max(axis=0),
                  x.min(axis=2, keepdims=True)],
       show=["tosa.reduce_sum", "arith.divf", "tosa.reduce_max"])

# GlobalAveragePool is an average pool over the whole image (its sum stays
# in the op's f32 accumulator); GlobalMaxPool a max reduction.
# CHECK-LABEL: // CASE global_pools
# CHECK: tosa.avg_pool2d {{.*}} {acc_type = f32, kernel = array<i64: 4, 5>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x4x5x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x1x1x3xf32>
# CHECK: tosa.reduce_max {{.*}} {axis = 2 : i32}
x4 = rand(2, 3, 4, 5, seed=12)
s.case("global_pools", model([node("GlobalAveragePool", ["x"], ["a"]),
                              node("GlobalMaxPool", ["x"], ["m"])], {"x": x4}, ["a", "m"]),
       {"x": x4}, [x4.mean(axis=(2, 3), keepdims=True), x4.max(axis=(2, 3), keepdims=True)],
       show=["tosa.avg_pool2d", "tosa.reduce_max"])


def layer_norm(x, g, b, eps):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b


# CHECK-LABEL: // CASE layer_norm
# CHECK: tosa.rsqrt
x, g, b = rand(2, 4, 8, seed=13) * 2 + 1, rand(8, seed=14), rand(8, seed=15)
s.case("layer_norm", model([node("LayerNormalization", ["x", "g", "b"], ["y"], epsilon=1e-5)],
                           {"x": x}, ["y"], {"g": g, "b": b}, opset=17),
       {"x": x}, [layer_norm(x, g, b, 1e-5)], rtol=1e-4, atol=1e-4, show=["tosa.rsqrt"])

# The decomposed form (as in PaddleOCR's recogniser).
# CHECK-LABEL: // CASE layer_norm_decomposed
# CHECK: tosa.mul [[D:%.+]], [[D]]
# CHECK: math.sqrt
# CHECK: arith.divf
s.case("layer_norm_decomposed",
       model([node("ReduceMean", ["x"], ["m"], axes=[-1]), node("Sub", ["x", "m"], ["d"]),
              node("Pow", ["d", "two"], ["d2"]), node("ReduceMean", ["d2"], ["v"], axes=[-1]),
              node("Add", ["v", "eps"], ["ve"]), node("Sqrt", ["ve"], ["sd"]),
              node("Div", ["d", "sd"], ["n"]), node("Mul", ["n", "g"], ["ng"]),
              node("Add", ["ng", "b"], ["y"])],
             {"x": x}, ["y"], {"g": g, "b": b, "two": np.float32(2), "eps": np.float32(1e-5)},
             opset=11),
       {"x": x}, [layer_norm(x, g, b, 1e-5)], rtol=1e-4, atol=1e-4,
       show=["tosa.mul", "math.sqrt", "arith.divf"])

s.run()
# CHECK-DAG: matmul_weights: f32 OK
# CHECK-DAG: matmul_batched: f32 OK
# CHECK-DAG: matmul_vector: f32 OK
# CHECK-DAG: gemm: f32 OK
# CHECK-DAG: gemm_transA: f32 OK
# CHECK-DAG: einsum: f32 OK
# CHECK-DAG: softmax13: f32 OK
# CHECK-DAG: softmax11: f32 OK
# CHECK-DAG: log_softmax: f32 OK
# CHECK-DAG: reductions: f32 OK
# CHECK-DAG: global_pools: f32 OK
# CHECK-DAG: layer_norm: f32 OK
# CHECK-DAG: layer_norm_decomposed: f32 OK
# CHECK: ONNX-SUITE 39 runs, 0 failed

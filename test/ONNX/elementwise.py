# RUN: env AMP_OPT=%amp_opt AMP_RUN=amp-run %python %s | FileCheck %s
# Elementwise ops with numpy broadcasting import as TOSA elementwise ops on
# operands reshaped to a common rank, or as linalg.generic with broadcast
# indexing maps where TOSA has no exact op (Div: arith.divf, Sqrt:
# math.sqrt), and compute what ONNX specifies: each case is run on the CPU
# and compared with numpy (f32; f16 and bf16 after --mixed-precision).
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from onnxtest import Suite, model, node, rand  # noqa: E402

s = Suite(precisions=("f16", "bf16"))
x, y = rand(2, 3, 4), rand(3, 1, seed=1)
pos = rand(2, 3, 4, seed=2, lo=0.5, hi=3.0)

# Broadcasting [2,3,4] with [3,1]: the smaller operand gains a leading unit
# dimension.
# CHECK-LABEL: // CASE add_broadcast
# CHECK: tosa.reshape
# CHECK: tosa.add %arg0, {{.*}} : (tensor<2x3x4xf32>, tensor<1x3x1xf32>) -> tensor<2x3x4xf32>
# CHECK: tosa.sub
# CHECK: tosa.mul {{.*}} tensor<1xi8>
s.case("add_broadcast", model([node("Add", ["x", "y"], ["a"]), node("Sub", ["a", "x"], ["b"]),
                               node("Mul", ["b", "y"], ["c"])], {"x": x, "y": y}, ["c"]),
       {"x": x, "y": y}, [((x + y) - x) * y], show=["tosa.add", "tosa.sub", "tosa.mul",
                                                      "tosa.reshape"])

# CHECK-LABEL: // CASE div_sqrt
# CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
# CHECK: arith.divf
# CHECK: math.sqrt
y2 = rand(3, 1, seed=3, lo=1.0, hi=2.0)
s.case("div_sqrt", model([node("Div", ["x", "y"], ["d"]), node("Sqrt", ["p"], ["q"]),
                          node("Add", ["d", "q"], ["o"])], {"x": x, "y": y2, "p": pos}, ["o"]),
       {"x": x, "y": y2, "p": pos}, [x / y2 + np.sqrt(pos)],
       show=["linalg.generic", "arith.divf", "math.sqrt"])

# Pow by a constant 2 is a multiply (the decomposed layer norm's variance),
# by 0.5 a square root, otherwise tosa.pow.
# CHECK-LABEL: // CASE pow
# CHECK-NOT: tosa.pow {{.*}} tensor<1x1x1xf32>) -> tensor<2x3x4xf32>
# CHECK: tosa.mul %arg1, %arg1
# CHECK: math.sqrt
# CHECK: tosa.pow %arg0, %arg1
s.case("pow", model([node("Pow", ["x", "two"], ["a"]), node("Pow", ["p", "half"], ["b"]),
                     node("Pow", ["p", "x"], ["c"]), node("Add", ["a", "b"], ["ab"]),
                     node("Add", ["ab", "c"], ["o"])],
                    {"p": pos, "x": x}, ["o"], {"two": np.float32(2.0), "half": np.float32(0.5)}),
       {"p": pos, "x": x}, [x * x + np.sqrt(pos) + pos ** x],
       show=["tosa.mul", "math.sqrt", "tosa.pow"])


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


erf = np.vectorize(math.erf)
# CHECK-LABEL: // CASE activations
# CHECK: tosa.clamp %arg0 {min_val = 0.0 : f32, max_val = 0x7F800000 : f32}
# CHECK: tosa.clamp %arg0 {min_val = 0.0 : f32, max_val = 6.0 : f32}
# CHECK: tosa.sigmoid
# CHECK: tosa.tanh
# CHECK: tosa.erf
# HardSigmoid: alpha x + beta, clamped to [0, 1]; HardSwish: x times that.
# CHECK: tosa.clamp {{.*}} {min_val = 0.0 : f32, max_val = 1.0 : f32}
# CHECK: tosa.clamp {{.*}} {min_val = 0.0 : f32, max_val = 1.0 : f32}
xs = rand(2, 3, 4, seed=4) * 4
outs = {"relu": np.maximum(xs, 0), "relu6": np.clip(xs, 0, 6), "sig": sigmoid(xs),
        "tanh": np.tanh(xs), "erf": erf(xs).astype(np.float32),
        "hsig": np.clip(0.2 * xs + 0.5, 0, 1), "hswish": xs * np.clip(xs / 6 + 0.5, 0, 1),
        "leaky": np.where(xs >= 0, xs, 0.1 * xs), "neg": -xs, "abs": np.abs(xs),
        "exp": np.exp(xs / 4), "log": np.log(np.abs(xs) + 1)}
nodes = [node("Relu", ["x"], ["relu"]),
         node("Clip", ["x", "zero", "six"], ["relu6"]),
         node("Sigmoid", ["x"], ["sig"]), node("Tanh", ["x"], ["tanh"]),
         node("Erf", ["x"], ["erf"]), node("HardSigmoid", ["x"], ["hsig"]),
         node("HardSwish", ["x"], ["hswish"]), node("LeakyRelu", ["x"], ["leaky"], alpha=0.1),
         node("Neg", ["x"], ["neg"]), node("Abs", ["x"], ["abs"]),
         node("Div", ["x", "four"], ["x4"]), node("Exp", ["x4"], ["exp"]),
         node("Add", ["abs", "one"], ["a1"]), node("Log", ["a1"], ["log"])]
s.case("activations", model(nodes, {"x": xs}, list(outs),
                            {"zero": np.float32(0), "six": np.float32(6),
                             "four": np.float32(4), "one": np.float32(1)}, opset=14),
       {"x": xs}, list(outs.values()), rtol=2e-5, atol=2e-5,
       show=["tosa.clamp", "tosa.sigmoid", "tosa.tanh", "tosa.erf"])

# Gelu (opset 20; both forms), Elu, Softplus, Mish.
# CHECK-LABEL: // CASE gelu_elu_mish
# CHECK: tosa.erf
# CHECK: tosa.tanh
g = rand(3, 5, seed=7) * 3
sp = np.log1p(np.exp(g))
s.case("gelu_elu_mish",
       model([node("Gelu", ["g"], ["ge"]), node("Gelu", ["g"], ["gt"], approximate="tanh"),
              node("Elu", ["g"], ["el"], alpha=0.7), node("Softplus", ["g"], ["sp"]),
              node("Mish", ["g"], ["mi"])], {"g": g}, ["ge", "gt", "el", "sp", "mi"], opset=20),
       {"g": g}, [g / 2 * (1 + erf(g / np.sqrt(2))),
                  g / 2 * (1 + np.tanh(np.sqrt(2 / np.pi) * (g + 0.044715 * g ** 3))),
                  np.where(g > 0, g, 0.7 * (np.exp(g) - 1)), sp, g * np.tanh(sp)],
       rtol=2e-5, atol=2e-5, show=["tosa.erf", "tosa.tanh"])

# Comparisons give i1 tensors (Less is Greater with swapped operands, b
# reshaped to rank 3 first); Where selects; Max/Min are variadic.
# CHECK-LABEL: // CASE compare_select
# CHECK: tosa.greater {{%v[0-9]+}}, %arg0 : (tensor<1x1x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xi1>
# CHECK: tosa.select
# CHECK: tosa.maximum
# CHECK: tosa.minimum
a, b = rand(2, 3, 4, seed=5), rand(4, seed=6)
s.case("compare_select",
       model([node("Less", ["a", "b"], ["lt"]), node("Where", ["lt", "a", "b"], ["w"]),
              node("Max", ["a", "b", "w"], ["mx"]), node("Min", ["a", "b"], ["mn"]),
              node("Equal", ["a", "w"], ["eq"]), node("Cast", ["eq"], ["eqf"], to=1),
              node("Greater", ["a", "b"], ["gt"]), node("Cast", ["gt"], ["gtf"], to=1)],
             {"a": a, "b": b}, ["w", "mx", "mn", "eqf", "gtf"]),
       {"a": a, "b": b},
       [np.where(a < b, a, b), np.maximum(np.maximum(a, b), np.where(a < b, a, b)),
        np.minimum(a, b), (a == np.where(a < b, a, b)).astype(np.float32),
        (a > b).astype(np.float32)],
       show=["tosa.greater", "tosa.select", "tosa.maximum", "tosa.minimum"])

# Cast float -> int truncates toward zero in ONNX (tosa.cast alone rounds
# to nearest): floor for x >= 0, ceil below, then the cast.
# CHECK-LABEL: // CASE cast
# CHECK: tosa.floor %arg0
# CHECK: tosa.ceil %arg0
# CHECK: tosa.select
# CHECK: tosa.cast {{.*}} : (tensor<6xf32>) -> tensor<6xi32>
c = np.array([-2.5, -1.7, 0.4, 0.5, 3.5, 7.9], np.float32)
s.case("cast", model([node("Cast", ["c"], ["i"], to=6), node("Cast", ["i"], ["f"], to=1)],
                     {"c": c}, ["i", "f"]),
       {"c": c}, [np.trunc(c).astype(np.int32), np.trunc(c)],
       show=["tosa.cast", "tosa.floor", "tosa.ceil", "tosa.select"])

s.run()
# CHECK-DAG: add_broadcast: f32 OK
# CHECK-DAG: div_sqrt: f32 OK
# CHECK-DAG: pow: f32 OK
# CHECK-DAG: activations: f32 OK
# CHECK-DAG: compare_select: f32 OK
# CHECK-DAG: cast: f32 OK
# CHECK-DAG: gelu_elu_mish: f32 OK
# CHECK-DAG: activations: bf16 OK
# CHECK: ONNX-SUITE 21 runs, 0 failed

# RUN: env AMP_OPT=%amp_opt AMP_RUN=amp-run %python %s | FileCheck %s
# Data movement: Reshape/Flatten/Squeeze/Unsqueeze become tosa.reshape,
# Transpose tosa.transpose, Concat tosa.concat, Slice tensor.extract_slice
# (strided; negative steps reverse first), Gather a slice (contiguous
# constant indices) or tosa.gather, Pad tensor.pad. Shape subgraphs
# (Shape -> Gather -> Unsqueeze -> Concat -> Reshape, ConstantOfShape,
# Range) are evaluated at import time and leave no trace. Each case is run
# on the CPU and compared with numpy.
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from onnxtest import Suite, model, node, rand  # noqa: E402

s = Suite()
x = rand(2, 3, 4, 5)
i64 = lambda *v: np.array(v, np.int64)  # noqa: E731

# CHECK-LABEL: // CASE shape_subgraph
# CHECK-NOT: Shape
# CHECK: tosa.reshape %arg0, {{.*}} : (tensor<2x3x4x5xf32>, !tosa.shape<2>) -> tensor<2x60xf32>
# CHECK-NOT: tosa.reshape
s.case("shape_subgraph",
       model([node("Shape", ["x"], ["sh"]), node("Gather", ["sh", "zero"], ["n"], axis=0),
              node("Unsqueeze", ["n", "ax0"], ["n1"]),
              node("Concat", ["n1", "minus1"], ["target"], axis=0),
              node("Reshape", ["x", "target"], ["y"])],
             {"x": x}, ["y"], {"zero": np.int64(0), "ax0": i64(0), "minus1": i64(-1)}),
       {"x": x}, [x.reshape(2, -1)], show=["tosa.reshape", "Shape"])

# CHECK-LABEL: // CASE constant_of_shape_range
# CHECK: tosa.add %arg0
x2 = rand(3, 4, seed=1)
s.case("constant_of_shape_range",
       model([node("Shape", ["x"], ["sh"]),
              node("ConstantOfShape", ["sh"], ["ones"],
                   value=__import__("onnx").helper.make_tensor("v", 1, [1], [1.0])),
              node("Range", ["r0", "r4", "r1"], ["r"]), node("Cast", ["r"], ["rf"], to=1),
              node("Mul", ["ones", "rf"], ["k"]), node("Add", ["x", "k"], ["y"])],
             {"x": x2}, ["y"], {"r0": np.int64(0), "r4": np.int64(4), "r1": np.int64(1)}),
       {"x": x2}, [x2 + np.arange(4, dtype=np.float32)], show=["tosa.add"])

# Reshape with 0 (copy) and -1 (infer); Flatten; Squeeze/Unsqueeze with axes
# as an attribute (opset 11) and as an input (13).
# CHECK-LABEL: // CASE reshapes
# CHECK: tosa.reshape %arg0, {{.*}} -> tensor<2x3x20xf32>
s.case("reshapes",
       model([node("Reshape", ["x", "t"], ["r"]), node("Flatten", ["x"], ["f"], axis=2),
              node("Unsqueeze", ["r", "ua"], ["u"]), node("Squeeze", ["u", "ua"], ["q"])],
             {"x": x}, ["r", "f", "u", "q"], {"t": i64(0, 0, -1), "ua": i64(0, 3)}),
       {"x": x}, [x.reshape(2, 3, 20), x.reshape(6, 20), x.reshape(1, 2, 3, 1, 20),
                  x.reshape(2, 3, 20)], show=["tosa.reshape"])

# CHECK-LABEL: // CASE transpose_concat
# CHECK: tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>}
# CHECK: tosa.concat {{.*}} {axis = 3 : i32}
y = rand(2, 4, 5, 2, seed=2)
s.case("transpose_concat",
       model([node("Transpose", ["x"], ["t"], perm=[0, 2, 3, 1]),
              node("Concat", ["t", "y"], ["c"], axis=-1)], {"x": x, "y": y}, ["c"]),
       {"x": x, "y": y}, [np.concatenate([x.transpose(0, 2, 3, 1), y], axis=-1)],
       show=["tosa.transpose", "tosa.concat"])

# Slice: clamped ends, steps, negative steps (reverse, then slice).
# CHECK-LABEL: // CASE slices
# CHECK: tensor.extract_slice %arg0[0, 1, 0, 0] [2, 2, 4, 5] [1, 1, 1, 1]
# CHECK: tensor.extract_slice %arg0[0, 0, 0, 1] [2, 3, 2, 2] [1, 1, 2, 2]
# CHECK: tosa.reverse %arg0 {axis = 3 : i32}
s.case("slices",
       model([node("Slice", ["x", "s1", "e1", "a1"], ["a"]),
              node("Slice", ["x", "s2", "e2", "a2", "st2"], ["b"]),
              node("Slice", ["x", "s3", "e3", "a3", "st3"], ["c"])],
             {"x": x}, ["a", "b", "c"],
             {"s1": i64(1), "e1": i64(1000), "a1": i64(1),
              "s2": i64(0, 1), "e2": i64(4, -1), "a2": i64(2, 3), "st2": i64(2, 2),
              "s3": i64(-1), "e3": i64(-1000), "a3": i64(3), "st3": i64(-2)}),
       {"x": x}, [x[:, 1:], x[:, :, 0:4:2, 1:-1:2], x[..., ::-2]],
       show=["tensor.extract_slice", "tosa.reverse"])

# Gather: a scalar constant index is a slice, scattered constant indices
# and runtime (negative-capable int64) indices use tosa.gather.
# CHECK-LABEL: // CASE gathers
# CHECK: tensor.extract_slice %arg0[0, 2, 0, 0] [2, 1, 4, 5]
# CHECK: tosa.gather {{.*}} : (tensor<6x4x5xf32>, tensor<6x3xi32>) -> tensor<6x3x5xf32>
# CHECK: tosa.gather {{.*}} : (tensor<1x10x3xf32>, tensor<1x4xi32>) -> tensor<1x4x3xf32>
table = rand(10, 3, seed=3)
ids = np.array([[1, -1], [9, 0]], np.int64)
s.case("gathers",
       model([node("Gather", ["x", "two"], ["a"], axis=1),
              node("Gather", ["x", "idx"], ["b"], axis=2),
              node("Gather", ["t", "ids"], ["c"], axis=0)],
             {"x": x, "t": table, "ids": ids}, ["a", "b", "c"],
             {"two": np.int64(2), "idx": i64(3, 0, -2)}),
       {"x": x, "t": table, "ids": ids},
       [x[:, 2], x[:, :, [3, 0, 2]], table[np.where(ids < 0, ids + 10, ids)]],
       show=["tensor.extract_slice", "tosa.gather"])

# CHECK-LABEL: // CASE split_expand_tile_pad
# CHECK: tosa.tile
# CHECK: tensor.pad %arg0 low[0, 0, 1, 2] high[0, 0, 0, 1]
s.case("split_expand_tile_pad",
       model([node("Split", ["x", "sp"], ["p0", "p1"], axis=3),
              node("Expand", ["v", "es"], ["e"]),
              node("Tile", ["v", "reps"], ["t"]),
              node("Pad", ["x", "pads", "pv"], ["pd"])],
             {"x": x, "v": rand(3, 1, seed=4)}, ["p0", "p1", "e", "t", "pd"],
             {"sp": i64(2, 3), "es": i64(2, 3, 4), "reps": i64(2, 3),
              "pads": i64(0, 0, 1, 2, 0, 0, 0, 1), "pv": np.float32(0.5)}),
       {"x": x, "v": rand(3, 1, seed=4)},
       [x[..., :2], x[..., 2:], np.broadcast_to(rand(3, 1, seed=4), (2, 3, 4)),
        np.tile(rand(3, 1, seed=4), (2, 3)),
        np.pad(x, ((0, 0), (0, 0), (1, 0), (2, 1)), constant_values=0.5)],
       show=["tosa.tile", "tensor.pad"])

# Dynamic dimensions are fixed by the shapes given to the importer.
# CHECK-LABEL: // CASE dynamic_batch
# CHECK: tosa.reshape %arg0, {{.*}} : (tensor<2x3x4x5xf32>, !tosa.shape<2>) -> tensor<2x60xf32>
s.case("dynamic_batch",
       model([node("Flatten", ["x"], ["y"])], {"x": x}, ["y"], dynamic={"x": [0]}),
       {"x": x}, [x.reshape(2, 60)], shapes={"x": (2, 3, 4, 5)}, show=["tosa.reshape"])

# Runtime integers: int64 inputs are narrowed to i32 on entry (TOSA's
# widest integer), int64 constants next to them follow, ArgMax gives i32.
# CHECK-LABEL: // CASE integers
# CHECK: arith.trunci %arg0 : tensor<2x3xi64> to tensor<2x3xi32>
# CHECK: tosa.add {{.*}} : (tensor<2x3xi32>, tensor<1x1xi32>) -> tensor<2x3xi32>
# CHECK: tosa.argmax {{.*}} {axis = 1 : i32} : (tensor<3x4xf32>) -> tensor<3xi32>
ints = np.arange(6, dtype=np.int64).reshape(2, 3)
xm, mask = rand(3, 4, seed=5), (np.arange(12).reshape(3, 4) % 3 == 0)
s.case("integers",
       model([node("Add", ["i", "one"], ["j"]), node("Mul", ["j", "j"], ["k"]),
              node("Cast", ["k"], ["f"], to=1), node("ArgMax", ["x"], ["a"], axis=1, keepdims=0),
              node("Where", ["m", "x", "big"], ["w"]), node("Not", ["m"], ["nm"]),
              node("Cast", ["nm"], ["c"], to=1)],
             {"i": ints, "x": xm, "m": mask}, ["f", "a", "w", "c"],
             {"one": np.int64(1), "big": np.float32(-1e4)}),
       {"i": ints, "x": xm, "m": mask},
       [((ints + 1) ** 2).astype(np.float32), xm.argmax(1), np.where(mask, xm, -1e4),
        (~mask).astype(np.float32)], show=["arith.trunci", "tosa.add", "tosa.argmax"])

# Trilu keeps a triangle (a constant mask and a select); ArgMin is ArgMax of
# the negation.
# CHECK-LABEL: // CASE trilu_argmin
# CHECK: tosa.select
# CHECK: tosa.negate
# CHECK: tosa.argmax
tm = rand(2, 4, 5, seed=6)
s.case("trilu_argmin",
       model([node("Trilu", ["x", "k"], ["u"]), node("Trilu", ["x"], ["l"], upper=0),
              node("ArgMin", ["x"], ["a"], axis=-1, keepdims=1)],
             {"x": tm}, ["u", "l", "a"], {"k": np.int64(1)}, opset=14),
       {"x": tm}, [np.triu(tm, 1), np.tril(tm), tm.argmin(-1)[..., None]],
       show=["tosa.select", "tosa.negate", "tosa.argmax"])

# Pad modes edge and reflect: slices (tiled or reversed) concatenated.
# CHECK-LABEL: // CASE pad_modes
# CHECK: tosa.reverse
# CHECK: tosa.concat
xp = rand(2, 3, 4, 5, seed=7)
s.case("pad_modes",
       model([node("Pad", ["x", "p"], ["r"], mode="reflect"),
              node("Pad", ["x", "p"], ["e"], mode="edge")],
             {"x": xp}, ["r", "e"], {"p": i64(0, 0, 2, 1, 0, 0, 1, 3)}),
       {"x": xp}, [np.pad(xp, ((0, 0), (0, 0), (2, 1), (1, 3)), mode="reflect"),
                   np.pad(xp, ((0, 0), (0, 0), (2, 1), (1, 3)), mode="edge")],
       show=["tosa.reverse", "tosa.concat"])

# If on a condition that static shapes decide: the chosen branch is inlined
# (here: the batch is 2, so the else branch doubles x).
# CHECK-LABEL: // CASE if_static
# CHECK-NOT: scf.if
# CHECK: tosa.add %arg0, %arg0
from onnx import helper as _h  # noqa: E402
then_g = _h.make_graph([node("Neg", ["x"], ["t"])], "then", [],
                       [_h.make_tensor_value_info("t", 1, None)])
else_g = _h.make_graph([node("Add", ["x", "x"], ["e"])], "else", [],
                       [_h.make_tensor_value_info("e", 1, None)])
xi = rand(2, 3, seed=8)
s.case("if_static",
       model([node("Shape", ["x"], ["sh"]), node("Gather", ["sh", "zero"], ["n"]),
              node("Equal", ["n", "one"], ["is1"]),
              node("If", ["is1"], ["y"], then_branch=then_g, else_branch=else_g)],
             {"x": xi}, ["y"], {"zero": np.int64(0), "one": np.int64(1)}),
       {"x": xi}, [xi + xi], show=["tosa.add", "scf.if"])

s.run()
# CHECK-DAG: if_static: f32 OK
# CHECK-DAG: pad_modes: f32 OK
# CHECK-DAG: trilu_argmin: f32 OK
# CHECK-DAG: integers: f32 OK
# CHECK-DAG: shape_subgraph: f32 OK
# CHECK-DAG: constant_of_shape_range: f32 OK
# CHECK-DAG: reshapes: f32 OK
# CHECK-DAG: transpose_concat: f32 OK
# CHECK-DAG: slices: f32 OK
# CHECK-DAG: gathers: f32 OK
# CHECK-DAG: split_expand_tile_pad: f32 OK
# CHECK-DAG: dynamic_batch: f32 OK
# CHECK: ONNX-SUITE 12 runs, 0 failed

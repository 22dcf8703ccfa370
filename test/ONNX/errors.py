# RUN: %python %s | FileCheck %s
# What the importer refuses, and how: an unsupported op, attribute or
# attribute value names the node and its op; a dynamic dimension without a
# shape names the input and the flag to give; shapes that contradict the
# model are rejected. The command line exits non-zero with the message on
# stderr and writes no output file.
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from onnxtest import model, node, rand  # noqa: E402
import amp.onnx  # noqa: E402

x = rand(1, 2, 4, 4)


def attempt(m, **kw):
    try:
        amp.onnx.import_model(m, **kw)
        print("imported")
    except amp.onnx.OnnxImportError as e:
        print(e)


# CHECK: amp.onnx: node 'y' (NonMaxSuppression): operator NonMaxSuppression is not supported
attempt(model([node("NonMaxSuppression", ["x"], ["y"])], {"x": x}, ["y"]))

# CHECK: amp.onnx: node 'y' (Conv): auto_pad=SAME_WEIRD is not supported
attempt(model([node("Conv", ["x", "w"], ["y"], auto_pad="SAME_WEIRD")], {"x": x}, ["y"],
              {"w": rand(2, 2, 3, 3)}))

# An attribute the converter does not know is never silently ignored.
# CHECK: amp.onnx: node 'y' (Relu): attribute frobnicate is not supported
attempt(model([node("Relu", ["x"], ["y"], frobnicate=1)], {"x": x}, ["y"]))

# CHECK: amp.onnx: node 'y' (Resize): mode=cubic is not supported (nearest and linear are)
attempt(model([node("Resize", ["x", "", "s"], ["y"], mode="cubic")], {"x": x}, ["y"],
              {"s": np.array([1, 1, 2, 2], np.float32)}))

# CHECK: amp.onnx: node 'y' (Pad): mode=wrap is not supported
attempt(model([node("Pad", ["x", "p"], ["y"], mode="wrap")], {"x": x}, ["y"],
              {"p": np.zeros(8, np.int64)}))

# A runtime value where the importer needs a constant.
# CHECK: amp.onnx: node 'y' (Reshape): Reshape shape must be a constant
attempt(model([node("Reshape", ["x", "s"], ["y"])], {"x": x, "s": (np.int64, [2])}, ["y"]))

# CHECK: amp.onnx: node 'y' (Add): shapes [1, 2, 4, 4], [3] do not broadcast
attempt(model([node("Add", ["x", "b"], ["y"])], {"x": x}, ["y"], {"b": rand(3)}))

# CHECK: amp.onnx: node 'y' (LSTM): clip is not supported
attempt(model([node("LSTM", ["s", "w", "r"], ["y"], hidden_size=2, clip=3.0)],
              {"s": rand(3, 1, 2)}, ["y"], {"w": rand(1, 8, 2), "r": rand(1, 8, 2)}))

# A malformed node (Conv without weights) is an error, not a crash.
# CHECK: amp.onnx: node 'y' (Conv): cannot import this node (IndexError: list index out of range)
attempt(model([node("Conv", ["x"], ["y"])], {"x": x}, ["y"]))

# CHECK: amp.onnx: node 'y' (Relu): operators of domain 'com.microsoft' are not supported
m = model([node("Relu", ["x"], ["y"])], {"x": x}, ["y"])
m.graph.node[0].domain = "com.microsoft"
attempt(m)

# Control flow: the branches of an If on a runtime condition must yield one
# static type; a Loop's carried values keep theirs; Loop scan outputs need a
# trip count known at import time.
from onnx import helper as _h  # noqa: E402
_vi = _h.make_tensor_value_info
br = _h.make_graph([node("Neg", ["x"], ["t"])], "b", [], [_vi("t", 1, None)])
br2 = _h.make_graph([node("ReduceSum", ["x"], ["t2"], keepdims=0)], "b2", [], [_vi("t2", 1, None)])
cond = [node("ReduceMax", ["x"], ["m"], keepdims=0), node("Greater", ["m", "z"], ["c"])]
# CHECK: amp.onnx: node 'y' (If): output 0 ('y') is tensor<1x2x4x4xf32> in then_branch and tensor<f32> in else_branch; amp needs one static type for both
attempt(model(cond + [node("If", ["c"], ["y"], then_branch=br, else_branch=br2)], {"x": x},
              ["y"], {"z": np.float32(0)}))
# A node inside a branch is named itself.
# CHECK: amp.onnx: node 'bad' (NonMaxSuppression): operator NonMaxSuppression is not supported
br3 = _h.make_graph([_h.make_node("NonMaxSuppression", ["x"], ["t3"], name="bad")], "b3", [],
                    [_vi("t3", 1, None)])
attempt(model(cond + [node("If", ["c"], ["y"], then_branch=br, else_branch=br3)], {"x": x},
              ["y"], {"z": np.float32(0)}))
grow = _h.make_graph([node("Concat", ["s", "s"], ["s2"], axis=0),
                      node("Identity", ["cin"], ["cout"])], "grow",
                     [_vi("i", 7, []), _vi("cin", 9, []), _vi("s", 1, None)],
                     [_vi("cout", 9, []), _vi("s2", 1, None)])
# CHECK: amp.onnx: node 'y' (Loop): loop-carried value 0 changes from tensor<1x2x4x4xf32> to tensor<2x2x4x4xf32> in the body; amp needs static loop-carried shapes
attempt(model([node("Loop", ["n", "", "x"], ["y"], body=grow)], {"x": x}, ["y"],
              {"n": np.int64(3)}))
stop = _h.make_graph([node("ReduceMax", ["s"], ["sm"], keepdims=0), node("Less", ["sm", "z"], ["go"]),
                      node("Neg", ["s"], ["s2"]), node("Identity", ["s"], ["out"])], "stop",
                     [_vi("i", 7, []), _vi("cin", 9, []), _vi("s", 1, None)],
                     [_vi("go", 9, []), _vi("s2", 1, None), _vi("out", 1, None)])
# CHECK: amp.onnx: node 'y' (Loop): scan outputs of a Loop that stops on a condition computed at run time are not supported (their length is unknown at import time)
attempt(model([node("Loop", ["n", "", "x"], ["y", "ys"], body=stop)], {"x": x}, ["y"],
              {"n": np.int64(3), "z": np.float32(5)}))
# CHECK: amp.onnx: node 'y' (Loop): a Loop without trip count whose condition is always true never ends
attempt(model([node("Loop", ["", "", "x"], ["y"], body=grow)], {"x": x}, ["y"]))

# --const (consts=) names a graph input and gives a value of its type.
# CHECK: amp.onnx: --const names 'q', which is not a graph input (inputs: x)
attempt(model([node("Relu", ["x"], ["y"])], {"x": x}, ["y"]), consts={"q": 1})
# CHECK: amp.onnx: --const k: 2.5 is not representable in int64
attempt(model([node("Relu", ["x"], ["y"])], {"x": x, "k": (np.int64, [])}, ["y"]),
        consts={"k": 2.5})
# CHECK: amp.onnx: --const x: the input has shape [1, 2, 4, 4], the value has 1 element(s)
attempt(model([node("Relu", ["x"], ["y"])], {"x": x}, ["y"]), consts={"x": 1.0})
# CHECK: amp.onnx: --const x: expected a number, a bool or a list of them, got 'fast'
attempt(model([node("Relu", ["x"], ["y"])], {"x": x}, ["y"]), consts={"x": "fast"})

dyn = model([node("Relu", ["x"], ["y"])], {"x": x}, ["y"], dynamic={"x": [0, 2]})
# CHECK: amp.onnx: graph input 'x' has dynamic dimension(s) 'N0', 'N2'; fix them with --shape x=N,2,N,4
attempt(dyn)
# CHECK: amp.onnx: --shape x: dimension 1 is 2 in the model, not 3
attempt(dyn, shapes={"x": (1, 3, 4, 4)})
# CHECK: amp.onnx: --shape x has rank 3, the model's input has rank 4
attempt(dyn, shapes={"x": (1, 2, 4)})
# CHECK: amp.onnx: --shape names 'z', which is not a graph input (inputs: x)
attempt(dyn, shapes={"x": (1, 2, 4, 4), "z": (1,)})
# CHECK: imported
attempt(dyn, shapes={"x": (3, 2, 5, 4)})

# The command line: exit status 1, the message on stderr, no output file.
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "dyn.onnx")
    onnx.save(dyn, path)
    out = os.path.join(tmp, "out.mlir")
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "..", "..", "python"))
    p = subprocess.run([sys.executable, "-m", "amp.onnx", path, "-o", out], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # CHECK: cli exit=1 output=False stderr=amp.onnx: graph input 'x' has dynamic dimension(s)
    print("cli exit=%d output=%s stderr=%s" % (p.returncode, os.path.exists(out),
                                               p.stderr.strip()[:50]))
    p = subprocess.run([sys.executable, "-m", "amp.onnx", path, "--shape", "x=2,2,4,4", "-o",
                        out], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # CHECK: cli exit=0 func.func @main(%arg0: tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
    print("cli exit=%d %s" % (p.returncode, [l.strip() for l in open(out) if "func.func" in l][0]
                               .rstrip(" {")))
    p = subprocess.run([sys.executable, "-m", "amp.onnx", os.path.join(tmp, "missing.onnx")],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # CHECK: cli exit=1 amp.onnx: cannot read the model
    print("cli exit=%d %s" % (p.returncode, p.stderr.strip()[:32]))
    p = subprocess.run([sys.executable, "-m", "amp.onnx", path, "--const", "x=fast"],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # CHECK: cli exit=2 {{.*}}argument --const: 'fast' in --const x=fast is not a number or true/false
    print("cli exit=%d %s" % (p.returncode, p.stderr.strip().splitlines()[-1]))

# RUN: env AMP_OPT=%amp_opt AMP_RUN=amp-run %python %s | FileCheck %s
# A model written by PyTorch's exporter (torch.jit.script, opset 14; see
# Inputs/torch/export_control_flow.py) with data-dependent nested `if`s, an
# LSTM in one branch and a `for` over the sequence: the Ifs are nested
# scf.ifs, the Loop (its trip count a Shape, folded) an scf.for. It
# reproduces PyTorch's own outputs for inputs taking each branch, in f32
# and after --mixed-precision to f16 and bf16, and ONNX Runtime's when
# tools/onnx/ort is installed. Tolerances: f32 summation order (1e-5); the
# LSTM and the 5-step recurrence round every op in the low type, |h| <= 1:
# 5e-3 for f16 (unit roundoff 5e-4), 5e-2 for bf16 (4e-3).
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from onnxtest import compare  # noqa: E402
import amp.onnx  # noqa: E402
import reference  # noqa: E402
import runner  # noqa: E402

base = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs", "torch", "control_flow")
text = amp.onnx.import_model(base + ".onnx", func_name="torch_cf")
# CHECK: scf.if %{{.+}} -> (tensor<1x8xf32>) {
# CHECK: scf.if %{{.+}} -> (tensor<1x8xf32>) {
# CHECK: } else {
# CHECK: } else {
# CHECK-COUNT-15: tosa.sigmoid
# CHECK: scf.for {{.*}} -> (tensor<1x8xf32>) {
for line in text.splitlines():
    s = line.strip()
    if s.startswith("} else") or "scf." in s or "tosa.sigmoid" in s:
        print(s[:200])

xs = [np.load(base + ".x%d.npy" % k) for k in range(3)]
ys = [np.load(base + ".y%d.npy" % k) for k in range(3)]
if reference.available():
    for k, (x, y) in enumerate(zip(xs, ys)):
        ort = reference.run_reference(base + ".onnx", {"x": x})["y"]
        ok, msg = compare(ort, y, 1e-5, 1e-5)
        print("ort vs torch x%d: %s %s" % (k, "OK" if ok else "FAIL", msg))
TOL = {None: 1e-5, "f16": 5e-3, "bf16": 5e-2}
for prec in (None, "f16", "bf16"):
    # One function per input (run_many compiles them as one module).
    outs = runner.run_many([(text.replace("@torch_cf(", "@torch_cf%d(" % k), [x],
                             "torch_cf%d" % k) for k, x in enumerate(xs)], prec)
    for k, (o, y) in enumerate(zip(outs, ys)):
        ok, msg = compare(o[0], y, TOL[prec], TOL[prec])
        print("x%d %s: %s %s" % (k, prec or "f32", "OK" if ok else "FAIL", msg))
# CHECK-NOT: FAIL
# CHECK: x0 f32: OK
# CHECK: x1 f32: OK
# CHECK: x2 f32: OK
# CHECK: x0 f16: OK
# CHECK: x1 f16: OK
# CHECK: x2 f16: OK
# CHECK: x0 bf16: OK
# CHECK: x1 bf16: OK
# CHECK: x2 bf16: OK

# RUN: env AMP_OPT=%amp_opt AMP_RUN=amp-run %python %s | FileCheck %s
# Models as PyTorch's exporter writes them (Inputs/torch/export.py: shape
# subgraphs with Shape/Gather/Unsqueeze/Concat, ConstantOfShape, Where,
# Expand; dynamic axes fixed here with shapes) import, run on the CPU and
# reproduce PyTorch's own outputs (f32 within 1e-4; f16 and bf16 after
# --mixed-precision within looser bounds).
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from onnxtest import compare  # noqa: E402
import amp.onnx  # noqa: E402
from runner import run_many  # noqa: E402  (tools/onnx, put on the path by onnxtest)

cases = []
for name in ("cnn", "encoder", "lstm"):
    base = os.path.join(HERE, "Inputs", "torch", name)
    x, y = np.load(base + ".x.npy"), np.load(base + ".y.npy")
    text = amp.onnx.import_model(base + ".onnx", shapes={"x": x.shape}, func_name=name)
    ops = sorted({l.split(" = ", 1)[1].split()[0] for l in text.splitlines()
                  if " = " in l and l.strip().startswith("%v")})
    print("// %s: %s" % (name, " ".join(o for o in ops if o.startswith(("tosa.", "linalg.")))))
    cases.append((name, text, x, y))
# CHECK: // cnn: {{.*}}tosa.conv2d{{.*}}tosa.max_pool2d{{.*}}tosa.resize
# CHECK: // encoder: {{.*}}linalg.softmax{{.*}}tosa.erf{{.*}}tosa.matmul
# CHECK: // lstm: {{.*}}tosa.matmul{{.*}}tosa.sigmoid{{.*}}tosa.tanh
# The ONNX names and types of the function's arguments and results:
# CHECK: signature ([('x', 'tensor<1x3x16x20xf32>')], [('y', 'tensor<1x5xf32>')])
print("signature", amp.onnx.signature(cases[0][1]))

tolerances = {None: (1e-4, 1e-5), "f16": (3e-2, 3e-2), "bf16": (1.5e-1, 1.5e-1)}
for prec in (None, "f16", "bf16"):
    results = run_many([(t, [x], n) for n, t, x, _ in cases], prec)
    for (name, _, _, y), (out,) in zip(cases, results):
        ok, msg = compare(out, y, *tolerances[prec])
        print("%s %s: %s %s" % (name, prec or "f32", "OK" if ok else "FAIL", msg))
# CHECK: cnn f32: OK
# CHECK: encoder f32: OK
# CHECK: lstm f32: OK
# CHECK: cnn f16: OK
# CHECK: encoder f16: OK
# CHECK: lstm f16: OK
# CHECK: cnn bf16: OK
# CHECK: encoder bf16: OK
# CHECK: lstm bf16: OK

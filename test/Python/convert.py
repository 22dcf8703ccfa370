# RUN: env AMP_OPT=%amp_opt %python %s | FileCheck %s
# The Python API converts MLIR text and returns the program, the report and
# the remarks; bad input and bad options raise AmpError with amp's messages.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python"))
import amp

MLP = """
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = math.exp %0 : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}
"""

r = amp.convert(MLP, precision="bf16", explain=True)
# CHECK: linalg.matmul ins({{.*}} : tensor<4x8xbf16>, tensor<8x4xbf16>) outs({{.*}} : tensor<4x4xf32>)
print([l for l in r.ir.splitlines() if "linalg.matmul" in l][0].strip())
# CHECK-NEXT: ops-low 1 ops-f32 1
print("ops-low", r.report["summary"]["ops-low"], "ops-f32", r.report["summary"]["ops-f32"])
# CHECK-NEXT: math.exp f32 exp turns bf16's input rounding into large relative output error
exp = [o for o in r.report["ops"] if o["op"] == "math.exp"][0]
print(exp["op"], exp["mode"], exp["reason"])
# CHECK-NEXT: remarks 2
print("remarks", len(r.remarks))

# A policy given as a dict: exp follows (and with the greedy placement,
# follows the contraction's low result).
r = amp.convert(MLP, placement="greedy",
                policy={"rules": [{"op": "math.exp", "policy": "follow"}]})
# CHECK-NEXT: math.exp %{{.+}} : tensor<4x4xf16>
print([l for l in r.ir.splitlines() if "math.exp" in l][0].strip())

# Errors carry amp's diagnostics.
for bad in (dict(ir="func.func @broken(", precision="f16"),
            dict(ir=MLP, precision="f8")):
    try:
        amp.convert(**bad)
    except amp.AmpError as e:
        # CHECK-NEXT: AmpError: {{.*}}error: {{.*}}
        # CHECK-NEXT: AmpError: {{.*}}unsupported precision 'f8'
        print("AmpError:", e.diagnostics.splitlines()[0])

# RUN: env AMP_CAPI_LIBRARY=%amp_capi_lib PYTHONPATH=%amp_python_path %python %s | FileCheck %s
#
# amp.convert runs mixed-precision in-process: it returns the converted
# program, the JSON report and the remarks. f16 and bf16 give the matmul
# low inputs with an f32 accumulator and keep exp in f32; explain=True adds
# one remark per op; a policy given as a dict, like the allow/follow/never
# lists, changes the decisions.
import amp

MLP = """
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = math.exp %0 : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}
"""


def line_with(ir, needle):
    return [l.strip() for l in ir.splitlines() if needle in l][0]


for precision in ("f16", "bf16"):
    r = amp.convert(MLP, precision=precision)
    print(precision)
    print(line_with(r.ir, "linalg.matmul"))
    print(line_with(r.ir, "math.exp"))
    print("report:", r.report["precision"], r.report["accumulate"],
          "ops-low", r.report["summary"]["ops-low"],
          "ops-f32", r.report["summary"]["ops-f32"],
          "casts", r.report["summary"]["casts-inserted"])
    print("remarks:", len(r.remarks))
# CHECK-LABEL: f16
# CHECK-NEXT: linalg.matmul ins({{.*}} : tensor<4x8xf16>, tensor<8x4xf16>) outs({{.*}} : tensor<4x4xf32>)
# CHECK-NEXT: math.exp %{{.+}} : tensor<4x4xf32>
# CHECK-NEXT: report: f16 f32 ops-low 1 ops-f32 1 casts 2
# CHECK-NEXT: remarks: 0
# CHECK-LABEL: bf16
# CHECK-NEXT: linalg.matmul ins({{.*}} : tensor<4x8xbf16>, tensor<8x4xbf16>) outs({{.*}} : tensor<4x4xf32>)
# CHECK-NEXT: math.exp %{{.+}} : tensor<4x4xf32>
# CHECK-NEXT: report: bf16 f32 ops-low 1 ops-f32 1 casts 2

# The report explains every op: its mode, category, where the decision came
# from and why.
r = amp.convert(MLP, precision="bf16", explain=True)
for op in r.report["ops"]:
    print("op:", op["op"], op["loc"], op["mode"], op["category"], op["source"],
          "|", op["reason"])
# CHECK: op: linalg.matmul <input>:3:8 low allow model | contraction
# CHECK-NEXT: op: math.exp <input>:4:8 f32 never model | exp turns bf16's input rounding into large relative output error
# CHECK-NEXT: op: func.return <input>:5:3 carrier

# With explain, one remark per decided op, at the op, and a summary.
for d in r.remarks:
    print("remark:", d)
print(repr(r))
# CHECK-NEXT: remark: <input>:3:8: remark: amp: linalg.matmul runs in {{.*}}bf16{{.*}} (allow, model)
# CHECK-NEXT: remark: <input>:4:8: remark: amp: math.exp stays f32 (never, model)
# CHECK-NEXT: remark: <input>: remark: amp: summary: 1 ops low, 1 ops f32, 0 ops with a wide accumulator, 2 casts inserted (384 bytes), 0 constant bytes saved
# CHECK-NEXT: ConvertResult(precision='bf16', ops_low=1, ops_f32=1, casts=2)

# A policy given as a dict (docs/Policies.md), written to a temporary file:
# exp follows its (low) input with the greedy placement.
r = amp.convert(MLP, placement="greedy",
                policy={"rules": [{"op": "math.exp", "policy": "follow"}]})
print("dict policy:", line_with(r.ir, "math.exp"))
exp = [o for o in r.report["ops"] if o["op"] == "math.exp"][0]
print("dict policy:", exp["mode"], exp["category"], exp["source"])
# CHECK-NEXT: dict policy: {{.*}}math.exp %{{.+}} : tensor<4x4xf16>
# CHECK-NEXT: dict policy: low follow {{.*}}policy.json:1:{{[0-9]+}}

# The op lists override the models.
r = amp.convert(MLP, never=["linalg.matmul"])
print("never:", line_with(r.ir, "linalg.matmul"))
# CHECK-NEXT: never: {{.*}}linalg.matmul ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x4xf32>)

# keep_io_types=False makes the public signature low.
r = amp.convert(MLP, keep_io_types=False)
print("io:", line_with(r.ir, "func.func"))
# CHECK-NEXT: io: func.func @f({{.*}}tensor<4x8xf16>{{.*}}

# A warning (an unknown op name) is returned, not raised.
r = amp.convert(MLP, allow=["math.nosuchop"])
for d in r.diagnostics:
    print("diagnostic:", d.severity, d.message)
# CHECK-NEXT: diagnostic: warning mixed-precision: no registered op is named 'math.nosuchop'

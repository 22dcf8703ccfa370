# RUN: rm -rf %t && mkdir -p %t
# RUN: env AMP_CAPI_LIBRARY=%amp_capi_lib PYTHONPATH=%amp_python_path %python %s %t | FileCheck %s
#
# Every option of the mixed-precision pass is a keyword of amp.convert
# (snake_case) and reaches the pass: each one below changes the converted
# program, the report or the diagnostics the way amp-opt's option does
# (test/Transforms/mixed-precision-*.mlir).
import json
import os
import sys

import amp

tmp = sys.argv[1]


def line_with(ir, needle):
    return [l.strip() for l in ir.splitlines() if needle in l][0]


def casts(r):
    s = r.report["summary"]
    return "placement=%s casts=%d bytes=%d" % (s["placement"], s["casts-inserted"],
                                              s["cast-bytes"])


# After a contraction whose f32 result leaves the function, greedy rounds
# the result to run the elementwise tail low and widens it again at exit;
# optimal reads the f32 accumulator directly; naive casts around the matmul.
SELECT = """
func.func @select_after_matmul(%a: tensor<16x16xf32>, %w: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = linalg.matmul ins(%a, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  %1 = math.tanh %0 : tensor<16x16xf32>
  %2 = arith.cmpf olt, %0, %1 : tensor<16x16xf32>
  %3 = arith.select %2, %0, %1 : tensor<16x16xi1>, tensor<16x16xf32>
  return %3 : tensor<16x16xf32>
}
"""
for placement in ("optimal", "greedy", "naive"):
    r = amp.convert(SELECT, placement=placement)
    print(casts(r), "|", line_with(r.ir, "math.tanh"))
# CHECK: placement=optimal casts=2 bytes=3072 | {{.*}}math.tanh %{{.+}} : tensor<16x16xf32>
# CHECK-NEXT: placement=greedy casts=4 bytes=6144 | {{.*}}math.tanh %{{.+}} : tensor<16x16xf16>
# CHECK-NEXT: placement=naive casts={{[0-9]+}} bytes={{[0-9]+}} | {{.*}}math.tanh %{{.+}} : tensor<16x16xf32>

# The brute-force check of the optimal placement is a test pass of amp-opt
# (amp-test-check-optimality), not an option of the pass.
try:
    amp.convert(SELECT, check_optimality=16)
except TypeError as e:
    print("check_optimality:", "unexpected keyword" in str(e))
# CHECK-NEXT: check_optimality: True

# target: Vulkan stores bf16 but has no bf16 arithmetic, so the matmul
# computes in f32 (storage-only); sm_80 computes bf16; f16 computes on
# Vulkan (Float16) but not on vulkan-storage16, nor on an x86 host (`cpu`,
# where amp's kernels would compute it in f32).
LAYER = """
func.func @layer(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
"""
for precision, target in (("bf16", None), ("bf16", "vulkan"), ("bf16", "sm_80"),
                          ("f16", "vulkan"), ("f16", "vulkan-storage16"), ("f16", "cpu")):
    r = amp.convert(LAYER, precision=precision, target=target, explain=True)
    print("target=%s %s:" % (target, precision), line_with(r.ir, "linalg.matmul"))
# CHECK-NEXT: target=None bf16: {{.*}}linalg.matmul ins({{.*}} : tensor<4x8xbf16>, tensor<8x4xbf16>)
# CHECK-NEXT: target=vulkan bf16: {{.*}}linalg.matmul ins({{.*}} : tensor<4x8xf32>, tensor<8x4xf32>)
# CHECK-NEXT: target=sm_80 bf16: {{.*}}linalg.matmul ins({{.*}} : tensor<4x8xbf16>, tensor<8x4xbf16>)
# CHECK-NEXT: target=vulkan f16: {{.*}}linalg.matmul ins({{.*}} : tensor<4x8xf16>, tensor<8x4xf16>)
# CHECK-NEXT: target=vulkan-storage16 f16: {{.*}}linalg.matmul ins({{.*}} : tensor<4x8xf32>, tensor<8x4xf32>)
# CHECK-NEXT: target=cpu f16: {{.*}}linalg.matmul ins({{.*}} : tensor<4x8xf32>, tensor<8x4xf32>)
r = amp.convert(LAYER, precision="bf16", target="vulkan", explain=True)
print("vulkan remark:", [d.message for d in r.remarks if "matmul" in d.message][0])
# CHECK-NEXT: vulkan remark: amp: linalg.matmul stays f32 (never, target): storage-only: the target stores bf16 but cannot compute this op in it

# accumulate: the matmul's accumulator (outs) in f32 or the low type;
# accumulate_min_size: with f32, contractions over fewer elements
# accumulate low.
for kw in ({}, {"accumulate": "low"}, {"accumulate_min_size": 256},
           {"accumulate_min_size": 4}):
    r = amp.convert(LAYER, **kw)
    print("accumulate", kw, line_with(r.ir, "linalg.matmul").split("outs")[1])
# CHECK-NEXT: accumulate {} (%{{.+}} : tensor<4x4xf32>)
# CHECK-NEXT: accumulate {'accumulate': 'low'} (%{{.+}} : tensor<4x4xf16>)
# CHECK-NEXT: accumulate {'accumulate_min_size': 256} (%{{.+}} : tensor<4x4xf16>)
# CHECK-NEXT: accumulate {'accumulate_min_size': 4} (%{{.+}} : tensor<4x4xf32>)

# keep_io_types=False: the public signature becomes low.
r = amp.convert(LAYER, keep_io_types=False)
print("keep_io_types=False:", line_with(r.ir, "func.func"))
# CHECK-NEXT: keep_io_types=False: func.func @layer(%{{.+}}: tensor<4x8xf16>, %{{.+}}: tensor<8x4xf16>, %{{.+}}: tensor<4x4xf16>) ->

# allow / follow / never override the models: the matmul stays f32 with
# never; tanh (never by its model) runs low with allow.
MLP = """
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = math.exp %0 : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}
"""
for kw in ({"never": "linalg.matmul"}, {"allow": ["math.exp"]},
           {"follow": ("math.exp",), "placement": "greedy"}):
    r = amp.convert(MLP, **kw)
    exp = [o for o in r.report["ops"] if o["op"] == "math.exp"][0]
    mm = [o for o in r.report["ops"] if o["op"] == "linalg.matmul"][0]
    print(sorted(kw)[-1], "matmul", mm["mode"], mm["category"], "| exp", exp["mode"],
          exp["category"], exp["source"])
# CHECK-NEXT: never matmul f32 never | exp f32 never model
# CHECK-NEXT: allow matmul low allow | exp low allow {{.*}}
# CHECK-NEXT: placement matmul low allow | exp low follow {{.*}}

# policy_file: a policy file by path (policy= also takes a dict or a path).
policy = os.path.join(tmp, "policy.json")
with open(policy, "w") as f:
    json.dump({"rules": [{"op": "linalg.matmul", "policy": "never"}]}, f)
for kw in ({"policy_file": policy}, {"policy": policy}):
    r = amp.convert(MLP, **kw)
    mm = [o for o in r.report["ops"] if o["op"] == "linalg.matmul"][0]
    print(sorted(kw)[0], mm["mode"], mm["source"].startswith(policy))
# CHECK-NEXT: policy_file f32 True
# CHECK-NEXT: policy f32 True

# report: the JSON report is also written to the file, as the pass writes it.
path = os.path.join(tmp, "report.json")
r = amp.convert(MLP, precision="bf16", report=path)
with open(path) as f:
    written = json.load(f)
print("report file:", written["precision"], written["summary"] == r.report["summary"])
# CHECK-NEXT: report file: bf16 True

# explain: one remark per decided op.
r = amp.convert(MLP, explain=True)
print("explain:", len(r.remarks) > 0, len(amp.convert(MLP).remarks))
# CHECK-NEXT: explain: True 0

# missing_op: ops without a model (here llvm.fadd) stay f32 silently
# ("never"), with a warning ("warn"), follow their inputs ("follow") or fail
# the conversion ("error").
MISSING = """
func.func @f(%a: f32) -> f32 {
  %0 = math.tanh %a : f32
  %1 = llvm.fadd %0, %a : f32
  return %1 : f32
}
"""
for mode in ("never", "warn", "follow"):
    r = amp.convert(MISSING, missing_op=mode)
    fadd = [o for o in r.report["ops"] if o["op"] == "llvm.fadd"][0]
    print("missing_op=%s:" % mode, fadd["category"], fadd["source"],
          [str(d) for d in r.diagnostics if d.severity == "warning"])
# CHECK-NEXT: missing_op=never: never missing-op []
# CHECK-NEXT: missing_op=warn: never missing-op ['<input>: warning: amp: ops without a model stay f32: llvm.fadd (1)']
# CHECK-NEXT: missing_op=follow: follow missing-op []
try:
    amp.convert(MISSING, missing_op="error")
except amp.AmpError as e:
    print("missing_op=error:", str(e).splitlines()[0], "|", e.diagnostics[0].severity,
          e.diagnostics[0].message)
# CHECK-NEXT: missing_op=error: mixed-precision failed | error amp: ops without a model: llvm.fadd (1)

# graph: the decisions as a Graphviz digraph, written to the file.
path = os.path.join(tmp, "decisions.dot")
amp.convert(MLP, graph=path)
with open(path) as f:
    dot = f.read()
print("graph:", dot.startswith("// amp:"), "digraph amp {" in dot,
      'label="linalg.matmul\\nf16"' in dot)
# CHECK-NEXT: graph: True True True

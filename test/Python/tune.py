# amp.tune: the fewest ops kept f32 that meet an accuracy budget, found on
# the emulated program (amp-emulate-precision, compiled once, policies tried
# as inputs) and verified as the real converted program. The emulation with
# every gate on computes what the converted program computes, bit for bit;
# with every gate off, what the f32 program computes. Errors leave no
# policy file behind.
# REQUIRES: cc
# RUN: rm -rf %t && mkdir -p %t
# RUN: env AMP_CAPI_LIBRARY=%amp_capi_lib PYTHONPATH=%amp_python_path %python %s %t 2>&1 | FileCheck %s

import os
import subprocess
import sys

import numpy as np

import amp
from amp._tune import _Library

folder = sys.argv[1]

# A hidden hazard: 1000 + h and back loses h's low bits in f16 (its spacing
# at 1000 is 0.5), while every other op is accurate there.
PROGRAM = """
func.func @main(%x: tensor<16x64xf32>, %w0: tensor<64x64xf32>, %w: tensor<64x8xf32>) -> tensor<16x8xf32> {
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x64xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %h = linalg.matmul ins(%x, %w0 : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f0 : tensor<16x64xf32>) -> tensor<16x64xf32> loc("first")
  %k = arith.constant dense<1000.0> : tensor<16x64xf32>
  %big = arith.addf %h, %k : tensor<16x64xf32> loc("shift")
  %back = arith.subf %big, %k : tensor<16x64xf32> loc("unshift")
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %m = linalg.matmul ins(%back, %w : tensor<16x64xf32>, tensor<64x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32> loc("second")
  %r = math.tanh %m : tensor<16x8xf32> loc("act")
  return %r : tensor<16x8xf32>
}
"""
rng = np.random.default_rng(0)
def input_set():
    return [rng.uniform(-1, 1, (16, 64)).astype(np.float32),
            (rng.uniform(-1, 1, (64, 64)) / 8).astype(np.float32),
            (rng.uniform(-1, 1, (64, 8)) / 8).astype(np.float32)]
sets = [input_set() for _ in range(4)]
count = [0]
def library(text):
    count[0] += 1
    so, h = os.path.join(folder, f"l{count[0]}.so"), os.path.join(folder, f"l{count[0]}.h")
    amp.compile(text, so, header=h, function="f")
    return _Library(so, h, "f")

# The emulation against the real programs.
with amp.Context() as ctx, ctx.parse(PROGRAM, "shift.mlir") as module:
    module.run_pipeline("builtin.module(amp-emulate-precision{precision=f16})")
    emulated = library(module.print())
f32, real = library(PROGRAM), library(amp.convert(PROGRAM, precision="f16").ir)
x = sets[0]
on = emulated(x + [np.ones(4, np.float32)])[0]
off = emulated(x + [np.zeros(4, np.float32)])[0]
print("all on = converted:", on.tobytes() == real(x)[0].tobytes(),
      "all off = f32:", off.tobytes() == f32(x)[0].tobytes(),
      "f16 error:", float(np.abs(real(x)[0] - f32(x)[0]).max()) > 0.05)
# CHECK: all on = converted: True all off = f32: True f16 error: True
# The same for inputs of every magnitude: large (x20, x300; 1000 + h still
# fits f16) and tiny (1e-4, near f16's subnormals after the matmul).
for scale in (20.0, 300.0, 1e-4):
    y = [sets[1][0] * np.float32(scale)] + sets[1][1:]
    print("x%g:" % scale,
          emulated(y + [np.ones(4, np.float32)])[0].tobytes() == real(y)[0].tobytes(),
          emulated(y + [np.zeros(4, np.float32)])[0].tobytes() == f32(y)[0].tobytes())
# CHECK-NEXT: x20: True True
# CHECK-NEXT: x300: True True
# CHECK-NEXT: x0.0001: True True

# Tuning keeps the hazard f32 with one rule: with `unshift` f32, the pass
# keeps `shift` (a follow op between f32 values) f32 too.
policy = os.path.join(folder, "policy.yaml")
result = amp.tune(PROGRAM, sets[:2], precision="f16", budget="max-abs=0.01",
                  output=policy, holdout=sets[2:], name="shift.mlir")
print("kept:", sorted(r["loc"] for r in result.policy["rules"]))
# CHECK-NEXT: kept: ['unshift']
s = result.summary
print("meets:", s["errors"]["max-abs"] <= 0.01, "held out:", s["holdout"]["meets"],
      "FLOPs low > 95%:", s["low-flops-fraction"] > 0.95,
      "compiles:", s["compiles"], "real runs:", s["real-runs"])
# CHECK-NEXT: meets: True held out: True FLOPs low > 95%: True compiles: 4 real runs: 1
text = open(policy).read()
print(sorted(l for l in text.splitlines() if l.startswith("  - loc")))
# CHECK-NEXT: ['  - loc: "unshift"']
print("ranked:", "rank 1: alone in f16" in text and "runs:" in text and "held-out" in text)
# CHECK-NEXT: ranked: True

# The file is a policy amp-opt reads: the hazard's ops stay f32.
source = os.path.join(folder, "shift.mlir")
open(source, "w").write(PROGRAM)
out = subprocess.run([os.path.join(os.path.dirname(os.environ["AMP_CAPI_LIBRARY"]), "..",
                                   "bin", "amp-opt"), source,
                      f"--mixed-precision=policy-file={policy}"],
                     capture_output=True, text=True, check=True).stdout
print("shift f32:", "arith.addf %" in out and "tensor<16x64xf32>\n" in
      [l.split(", ")[-1] + "\n" for l in out.splitlines() if "arith.addf" in l][0])
# CHECK-NEXT: shift f32: True

# The baseline (ONNX Runtime's bisection) meets the same budget, with a
# compile per run.
base = amp.tune(PROGRAM, sets[:2], precision="f16", budget="max-abs=0.01", method="bisect")
print("bisect meets:", base.summary["errors"]["max-abs"] <= 0.01,
      "runs all real:", base.summary["runs"] == base.summary["real-runs"])
# CHECK-NEXT: bisect meets: True runs all real: True

# A metric: the sign of every output equals f32's.
def same_signs(ref, out):
    return bool(np.all(np.sign(ref[0]) == np.sign(out[0])))
metric = amp.tune(PROGRAM, sets[:2], precision="f16", metric=same_signs)
print("metric:", metric.summary["budget"], len(metric.policy["rules"]) <= 2)
# CHECK-NEXT: metric: metric same_signs True

# Errors: a clear message, nothing written.
bad_policy = os.path.join(folder, "bad.yaml")
def fails(what, **kw):
    args = dict(ir=PROGRAM, inputs=sets[:1], precision="f16", budget="max-abs=0.01",
                output=bad_policy)
    args.update(kw)
    try:
        amp.tune(**args)
        print(what, "did not fail")
    except amp.AmpError as e:
        print(what + ":", type(e).__name__, str(e).splitlines()[0],
              "| written:", os.path.exists(bad_policy))
fails("budget", budget="max-abs")
# CHECK-NEXT: budget: AmpOptionError tune: budget entry 'max-abs' is not KEY=VALUE (keys: max-abs, max-rel, top1) | written: False
fails("key", budget="mean=1")
# CHECK-NEXT: key: AmpOptionError tune: unknown budget 'mean'; expected max-abs, max-rel, top1 | written: False
fails("shape", inputs=[[np.zeros((8, 64), np.float32)] + sets[0][1:]])
# CHECK-NEXT: shape: AmpOptionError tune: input set 0 argument 0 has shape 8x64; the function takes 16x64 f32 | written: False
fails("options", options={"precison": "bf16"})
# CHECK-NEXT: options: AmpOptionError tune: options takes mixed-precision options ({{.*}}), not ['precison'] | written: False
fails("count", inputs=[sets[0][:2]])
# CHECK-NEXT: count: AmpOptionError tune: input set 0 has 2 arrays; the function takes 3 | written: False
def broken(ref, out):
    raise ValueError("no such line")
fails("metric", metric=broken, budget=None)
# CHECK-NEXT: metric: AmpError tune: the metric raised on input set 0: ValueError: no such line | written: False
fails("unreachable", metric=lambda ref, out: False, budget=None)
# CHECK-NEXT: unreachable: AmpError tune: the budget is not met even with every op in f32 (the metric rejects the f32 program's own outputs); no policy written | written: False
calls = [0]
def interrupted(ref, out):
    calls[0] += 1
    if calls[0] > 1:
        raise KeyboardInterrupt
    return True
fails("interrupted", metric=interrupted, budget="max-abs=0.01")
# CHECK-NEXT: interrupted: AmpError tune: interrupted; no policy written | written: False

# The command line: the same, with exit status 2 for bad arguments.
for k, s in enumerate(sets[:2]):
    os.makedirs(os.path.join(folder, f"in{k}"), exist_ok=True)
    for i, a in enumerate(s):
        np.save(os.path.join(folder, f"in{k}", f"arg{i}.npy"), a)
env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
def cli(*args):
    p = subprocess.run([sys.executable, "-m", "amp.tune", source, *args], env=env,
                       capture_output=True, text=True)
    return p.returncode, (p.stdout + p.stderr).strip().splitlines()
code, lines = cli("--inputs", os.path.join(folder, "in0"), os.path.join(folder, "in1"),
                  "--budget", "max-abs=0.01", "-q")
print("cli:", code, sorted(l for l in lines if l.startswith("  - loc")))
# CHECK-NEXT: cli: 0 ['  - loc: "unshift"']
code, lines = cli("--inputs", os.path.join(folder, "in0"), "--budget", "top1=2")
print("cli:", code, lines[-1])
# CHECK-NEXT: cli: 2 amp.tune: error: tune: budget top1=2 is out of range
code, lines = cli("--inputs", folder, "--budget", "max-abs=1")
print("cli:", code, lines[-1])
# CHECK-NEXT: cli: 2 amp.tune: error: tune: no .npy files in '{{.*}}'
code, lines = cli("--inputs", os.path.join(folder, "in0"), "--budget", "max-abs=1",
                  "--safety", "0.5")
print("cli:", code, lines[-1])
# CHECK-NEXT: cli: 2 amp.tune: error: tune: safety must be a finite number >= 1, not '0.5'

# A safety margin K: the budget must hold with every error K times as large
# (the verdict on f32 + K (low - f32)); the errors reported are the real
# ones, and the held-out verdict is taken at K = 1.
from amp._tune import Budget
ref = [[np.zeros(4, np.float32)]]
out = [[np.full(4, 0.006, np.float32)]]
for k in (1, 2):
    ok, e = Budget("max-abs=0.01", safety=k).meets(ref, out)
    print(f"safety {k}:", ok, round(e["max-abs"], 4))
print("held out at 1:", Budget("max-abs=0.01", safety=2).meets(ref, out, safety=1)[0])
# CHECK-NEXT: safety 1: True 0.006
# CHECK-NEXT: safety 2: False 0.006
# CHECK-NEXT: held out at 1: True
safe = amp.tune(source, sets[:2], budget="max-abs=0.01", safety=4, holdout=sets[2:])
print("safety 4 keeps more:", len(safe.policy["rules"]) >= len(result.policy["rules"]),
      "budget:", safe.summary["budget"])
# CHECK-NEXT: safety 4 keeps more: True budget: max-abs=0.01, safety 4

# RUN: env AMP_CAPI_LIBRARY=%amp_capi_lib PYTHONPATH=%amp_python_path %python %s | FileCheck %s
#
# Every failure raises amp.AmpError (an Exception) whose message carries
# MLIR's diagnostics, and whose `diagnostics` list holds them with severity
# and location: text that does not parse, an unknown precision or other bad
# option value or type (AmpOptionError, also a ValueError, raised in Python
# before anything runs), a missing or malformed policy file or dict, an
# unknown pipeline, lowering target or op name, a missing library, and use
# of a closed context. The process survives every one of them.
import amp

MLP = """
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = math.exp %0 : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}
"""


def expect_error(label, fn, **kwargs):
    try:
        fn(**kwargs)
    except amp.AmpError as e:
        assert isinstance(e, Exception)
        # The message first, then one line per diagnostic.
        print(f"{label}: {str(e).splitlines()[0]}")
        for d in e.diagnostics:
            print(f"  {d.severity} at '{d.location}': {d.message}")
    else:
        print(f"{label}: no error")


expect_error("parse", amp.convert, ir="func.func @broken(", name="broken.mlir")
# CHECK-LABEL: parse: cannot parse broken.mlir
# CHECK-NEXT:    error at 'broken.mlir:1:18': expected non-function type

expect_error("verify", amp.convert,
             ir="func.func @f(%a: f32) -> f16 {\n  return %a : f32\n}")
# CHECK-LABEL: verify: cannot parse <input>
# CHECK-NEXT:    error at '<input>:2:3': type of return operand 0 ('f32') doesn't match function result type ('f16') in function @f

# Nesting deeper than amp reads is refused before the parser could overflow
# its stack.
expect_error("nesting", amp.convert,
             ir="func.func private @g(%a: " + "tuple<" * 2000 + "f32" +
             ">" * 2000 + ")", name="deep.mlir")
# CHECK-LABEL: nesting: cannot parse deep.mlir
# CHECK-NEXT:    error at 'deep.mlir:1:6025': the input nests brackets (regions, attributes and types) more than 1000 levels deep here; amp does not read IR nested this deep

# Option values and types are checked in Python, before anything runs:
# AmpOptionError is an AmpError and a ValueError, without diagnostics.
expect_error("precision", amp.convert, ir=MLP, precision="f8")
# CHECK-LABEL: precision: convert: precision must be one of 'f16', 'bf16'; got 'f8'
expect_error("accumulate", amp.convert, ir=MLP, accumulate="f64")
# CHECK-LABEL: accumulate: convert: accumulate must be one of 'f32', 'low'; got 'f64'
expect_error("placement", amp.convert, ir=MLP, placement="best")
# CHECK-LABEL: placement: convert: placement must be one of 'optimal', 'greedy', 'naive'; got 'best'
expect_error("missing-op", amp.convert, ir=MLP, missing_op="sometimes")
# CHECK-LABEL: missing-op: convert: missing_op must be one of 'never', 'follow', 'warn', 'error'; got 'sometimes'
expect_error("option syntax", amp.convert, ir=MLP, precision="f16 explain=true")
# CHECK-LABEL: option syntax: convert: precision must be one of 'f16', 'bf16'; got 'f16 explain=true'
expect_error("op name", amp.convert, ir=MLP, never=["math.exp}"])
# CHECK-LABEL: op name: invalid op name in never: 'math.exp}'

for label, kwargs in (
        ("precision type", {"precision": 16}),
        ("keep_io_types type", {"keep_io_types": "yes"}),
        ("explain type", {"explain": 1}),
        ("accumulate_min_size type", {"accumulate_min_size": "256"}),
        ("accumulate_min_size bool", {"accumulate_min_size": True}),
        ("accumulate_min_size sign", {"accumulate_min_size": -1}),
        ("target", {"target": "tpu"}),
        ("target chip", {"target": "sm_1"}),
        ("target type", {"target": 80}),
        ("allow type", {"allow": 5}),
        ("policy type", {"policy": 3}),
        ("policy and policy_file", {"policy": {"rules": []}, "policy_file": "p.json"}),
        ("report type", {"report": 1.5}),
        ("report quote", {"report": 'a"b.json'})):
    try:
        amp.convert(MLP, **kwargs)
    except ValueError as e:
        print(f"{label}: {type(e).__name__} {isinstance(e, amp.AmpError)} "
              f"{len(e.diagnostics)}: {e}")
    else:
        print(f"{label}: no error")
# CHECK-LABEL: precision type: AmpOptionError True 0: convert: precision must be a str, one of 'f16', 'bf16'; got int 16
# CHECK-NEXT: keep_io_types type: AmpOptionError True 0: convert: keep_io_types must be True or False, not str 'yes'
# CHECK-NEXT: explain type: AmpOptionError True 0: convert: explain must be True or False, not int 1
# CHECK-NEXT: accumulate_min_size type: AmpOptionError True 0: convert: accumulate_min_size must be an int, not str '256'
# CHECK-NEXT: accumulate_min_size bool: AmpOptionError True 0: convert: accumulate_min_size must be an int, not bool True
# CHECK-NEXT: accumulate_min_size sign: AmpOptionError True 0: convert: accumulate_min_size must be >= 0, got -1
# CHECK-NEXT: target: AmpOptionError True 0: mixed-precision: unsupported target 'tpu'; expected cpu, vulkan, vulkan-storage16 or sm_<N>[a|f] with N >= 20
# CHECK-NEXT: target chip: AmpOptionError True 0: mixed-precision: unsupported target 'sm_1'
# CHECK-NEXT: target type: AmpOptionError True 0: convert: target must be a str, not int
# CHECK-NEXT: allow type: AmpOptionError True 0: convert: allow must be an op name or a list of them, not int
# CHECK-NEXT: policy type: AmpOptionError True 0: convert: policy must be a path (str or os.PathLike), not int
# CHECK-NEXT: policy and policy_file: AmpOptionError True 0: convert: give policy or policy_file, not both
# CHECK-NEXT: report type: AmpOptionError True 0: convert: report must be a path (str or os.PathLike), not float
# CHECK-NEXT: report quote: AmpOptionError True 0: invalid value for option 'report': 'a"b.json' (contains a double quote or a brace)

expect_error("policy file", amp.convert, ir=MLP, policy="/nonexistent/policy.json")
# CHECK-LABEL: policy file: mixed-precision failed
# CHECK-NEXT:    error at {{.*}}: mixed-precision: /nonexistent/policy.json: cannot read policy file: No such file or directory

expect_error("policy dict", amp.convert, ir=MLP,
             policy={"rules": [{"op": "math.exp", "policy": "sometimes"}]})
# CHECK-LABEL: policy dict: mixed-precision failed
# CHECK-NEXT:    error at {{.*}}: mixed-precision: {{.*}}policy.json:1:{{[0-9]+}}: {{.*}}sometimes

expect_error("policy shape", amp.convert, ir=MLP, policy={"rule": []})
# CHECK-LABEL: policy shape: mixed-precision failed
# CHECK-NEXT:    error at {{.*}}: mixed-precision: {{.*}}policy.json{{.*}}rules

expect_error("target", amp.lower, ir=MLP, target="tpu")
# CHECK-LABEL: target: unknown backend 'tpu'; expected cpu, vulkan, cuda or spirv (sm_<N> is cuda for that chip)

expect_error("cuda chip", amp.lower, ir=MLP, target="cuda", chip="sm_1", format="isa")
# CHECK-LABEL: cuda chip: amp-lower-to-nvvm: chip must be sm_<N>{{.*}} with N >= 20
expect_error("cpu option", amp.lower, ir=MLP, target="cpu", treads=2)
# CHECK-LABEL: cpu option: amp-lower-to-llvm: no such option treads

with amp.Context() as ctx:
    module = ctx.parse(MLP)
    expect_error("pipeline", module.run_pipeline, pipeline="builtin.module(no-such-pass)")
    expect_error("anchor", module.run_pipeline, pipeline="func.func(canonicalize)")
    # The module is unchanged by the failures and still usable.
    module.run_pipeline("builtin.module(canonicalize)")
    print("still usable:", "linalg.matmul" in module.print())
expect_error("closed", ctx.parse, text=MLP)
expect_error("closed module", module.print)
# CHECK-LABEL: pipeline: pass pipeline failed: builtin.module(no-such-pass)
# CHECK-NEXT:    error at '': invalid pass pipeline 'builtin.module(no-such-pass)': 'no-such-pass' does not refer to a registered pass or pass pipeline
# CHECK-LABEL: anchor: pass pipeline failed: func.func(canonicalize)
# CHECK-NEXT:    error at '': pass pipeline 'func.func(canonicalize)' is anchored on 'func.func'; a module needs 'builtin.module(...)'
# CHECK-NEXT: still usable: True
# CHECK-NEXT: closed: the amp context is closed
# CHECK-NEXT: closed module: the module is closed

# A missing library is an AmpError too, naming where it looked: a path set
# with $AMP_CAPI_LIBRARY is the only place tried (test/Python/library.py
# checks the other places).
import os
os.environ["AMP_CAPI_LIBRARY"] = "/nonexistent/libAmpCAPI.so"
from amp import _capi
_capi._lib = None
try:
    amp.Context()
except amp.AmpError as e:
    print("library:", str(e).replace("\n", "\nlibrary: "))
# CHECK-LABEL: library: cannot find amp's C API library libAmpCAPI.so; looked in:
# CHECK-NEXT: library:   /nonexistent/libAmpCAPI.so ($AMP_CAPI_LIBRARY: not found)
# CHECK-NEXT: library: build amp (scripts/setup.sh), set $AMP_CAPI_LIBRARY, or record the path in {{.*}}amp{{/|\\}}_library_path.txt

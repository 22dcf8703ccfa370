# RUN: env AMP_CAPI_LIBRARY=%amp_capi_lib PYTHONPATH=%amp_python_path %python %s | FileCheck %s
#
# Every failure raises amp.AmpError (an Exception) whose message carries
# MLIR's diagnostics, and whose `diagnostics` list holds them with severity
# and location: text that does not parse, an unknown precision or other bad
# option value, a missing or malformed policy file or dict, an unknown
# pipeline, lowering target or op name, and use of a closed context. The
# process survives every one of them.
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

expect_error("precision", amp.convert, ir=MLP, precision="f8")
# CHECK-LABEL: precision: mixed-precision failed
# CHECK-NEXT:    error at '<input>': mixed-precision: unsupported precision 'f8'; expected 'f16' or 'bf16'

expect_error("accumulate", amp.convert, ir=MLP, accumulate="f64")
# CHECK-LABEL: accumulate: mixed-precision failed
# CHECK-NEXT:    error at {{.*}}: mixed-precision: unsupported accumulate 'f64'; expected 'f32' or 'low'

expect_error("placement", amp.convert, ir=MLP, placement="best")
# CHECK-LABEL: placement: mixed-precision failed
# CHECK-NEXT:    error at {{.*}}: mixed-precision: unsupported placement 'best'; expected optimal, greedy or naive

expect_error("missing-op", amp.convert, ir=MLP, missing_op="sometimes")
# CHECK-LABEL: missing-op: mixed-precision failed
# CHECK-NEXT:    error at {{.*}}: mixed-precision: unsupported missing-op 'sometimes'

expect_error("option syntax", amp.convert, ir=MLP, precision="f16 explain=true")
# CHECK-LABEL: option syntax: mixed-precision failed
# CHECK-NEXT:    error at {{.*}}: mixed-precision: unsupported precision 'f16 explain=true'

expect_error("op name", amp.convert, ir=MLP, never=["math.exp}"])
# CHECK-LABEL: op name: invalid op name in never: 'math.exp}'

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
# CHECK-LABEL: target: unknown lowering target 'tpu'; expected one of 'cpu', 'vulkan', 'nvvm'

expect_error("nvvm chip", amp.lower, ir=MLP, target="nvvm", chip="sm_1", format="isa")
# CHECK-LABEL: nvvm chip: amp-lower-to-nvvm failed
# CHECK-NEXT:    error at '': invalid pass pipeline {{.*}}: amp-lower-to-nvvm: chip must be sm_<N> with N >= 20

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

# A missing library is an AmpError too, naming the path.
import os
os.environ["AMP_CAPI_LIBRARY"] = "/nonexistent/libAmpCAPI.so"
from amp import _capi
_capi._lib = None
expect_error("library", amp.Context)
# CHECK-LABEL: library: cannot load amp's C API library '/nonexistent/libAmpCAPI.so'

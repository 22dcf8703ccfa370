# RUN: cd %amp_python_path/.. && env AMP_CAPI_LIBRARY=%amp_capi_lib PYTHONPATH=%amp_python_path %python %s | FileCheck %s
#
# The example of docs/Python.md runs as written, from the repository root,
# and prints what its comments say.
import os

with open(os.path.join("docs", "Python.md")) as f:
    example = f.read().split("```python\n")[1].split("```")[0]
exec(compile(example, "docs/Python.md", "exec"))
# CHECK: ConvertResult(precision='bf16', ops_low={{[0-9]+}}, ops_f32={{[0-9]+}}, casts={{[0-9]+}})
# CHECK-NEXT: {'ops-low': {{[0-9]+}}, 'ops-f32': {{[0-9]+}}, {{.*}}'casts-inserted'
# CHECK: linalg.matmul low contraction
# CHECK: linalg.softmax f32 user policy
# CHECK: <input>:8:9: remark: amp: tensor.empty runs in 'bf16'
# CHECK: {{[1-9][0-9]*}} LLVM functions
# CHECK-NEXT: convert: precision must be one of 'f16', 'bf16'; got 'f8'
# CHECK-NEXT: mixed-precision failed
# CHECK-NEXT: error: mixed-precision: {{.*}}policy.json:1:{{[0-9]+}}: unknown policy 'sometimes'
# CHECK-NEXT: error

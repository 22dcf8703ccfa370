# REQUIRES: bench-digits, vulkan
# RUN: rm -rf %t && mkdir -p %t
# RUN: env T=%t AMP_CAPI_LIBRARY=%amp_capi_lib %python %s %amp_python_path/.. %amp_opt | FileCheck %s
#
# docs/Tutorial.md runs as written: every ```sh block, in order, in one bash
# with -euo pipefail, from the repository root (T is the scratch folder the
# tutorial honours, amp's tools first on PATH). A failing command fails the
# test; the lines below check what the tutorial says each step shows.
#
# CHECK: ## block 1
# CHECK: 3
# CHECK: inputs (450, 1, 8, 8)
# CHECK: (tensor<{{[0-9x]+}}xf16>, tensor<16x3x3x1xf16>, tensor<16xf16>
# CHECK: "ops-low": {{[1-9]}}
# CHECK-DAG: {{ +[0-9]+}} tosa.conv2d              low
# CHECK: cast edges: {{[1-9][0-9]*}}
# CHECK: tosa.avg_pool2d reads 'f16', accumulates in 'f32' (never, model)
# CHECK: ops-low [[LOW:[0-9]+]]
# CHECK: tosa.matmul stays f32 (never, {{.*}}policy.yaml:2:5)
# CHECK-NEXT: tosa.add stays f32 (never, {{.*}}policy.yaml:5:5)
# CHECK: tosa.conv2d stays f32 (never, amp.precision)
# CHECK-NEXT: tosa.conv2d runs in 'f16'
# CHECK: compare result 0 {{.*}} OK
# CHECK: compare result 0 {{.*}} OK
# CHECK: {{^[1-9][0-9]*$}}
# CHECK: y32      accuracy [[ACC:[0-9.]+]]  top-1 = f32 1.0000
# CHECK-NEXT: y16      accuracy [[ACC]]  top-1 = f32 1.0000
# CHECK-NEXT: ybf16    accuracy [[ACC]]  top-1 = f32 1.0000
# CHECK-NEXT: y16vk    accuracy [[ACC]]  top-1 = f32 1.0000
# CHECK-NEXT: ybf16vk  accuracy [[ACC]]  top-1 = f32 1.0000
# CHECK: ConvertResult(precision='bf16', ops_low={{[1-9]}}
import os
import re
import subprocess
import sys

root = os.path.abspath(sys.argv[1])
env = dict(os.environ)
env["PATH"] = os.path.dirname(sys.argv[2]) + os.pathsep + env["PATH"]
with open(os.path.join(root, "docs", "Tutorial.md")) as f:
    blocks = re.findall(r"^```sh\n(.*?)^```", f.read(), re.S | re.M)
if not blocks:
    sys.exit("no ```sh blocks in docs/Tutorial.md")
script = "\n".join("echo '## block %d'\n%s" % (i + 1, b) for i, b in enumerate(blocks))
sys.stdout.flush()
proc = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=root, env=env,
                      stderr=subprocess.STDOUT)
sys.exit(proc.returncode)

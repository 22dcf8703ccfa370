# REQUIRES: host-x86
# RUN: env AMP_CAPI_LIBRARY=%amp_capi_lib PYTHONPATH=%amp_python_path %python %s | FileCheck %s
#
# amp.lower("cpu") of a program converted without a target, which computes
# in f16 where this CPU has no units for it (every x86), warns once with
# amp.LowPrecisionWarning, naming mixed-precision{target=cpu}, as amp-run's
# note does. Converted for the CPU, or lowered for a GPU, it does not.
import warnings

import amp

PROGRAM = """
func.func @main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %s = arith.mulf %a, %b : tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%s, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m : tensor<64x64xf32>
}
"""


def lowered(ir, target):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        amp.lower(ir, target, name="model.mlir")
    return [w for w in caught if issubclass(w.category, amp.LowPrecisionWarning)]


anywhere = amp.convert(PROGRAM, precision="f16")
caught = lowered(anywhere, "cpu")
print("no target, cpu:", len(caught))
print(caught[0].message)
# CHECK: no target, cpu: 1
# CHECK-NEXT: model.mlir: 2 ops compute in f16 where this CPU ({{[a-z0-9_-]+}}) has no units for them: each widens its operands and rounds its results, which is slower than f32; mixed-precision{target=cpu} converts for this CPU ({{[a-z0-9_-]+}})

host = amp.convert(PROGRAM, precision="f16", target="cpu")
print("target=cpu, cpu:", len(lowered(host, "cpu")))
# CHECK: target=cpu, cpu: 0
print("no target, spirv:", len(lowered(anywhere, "spirv")))
# CHECK: no target, spirv: 0

# REQUIRES: bench-digits
# RUN: env AMP_CAPI_LIBRARY=%amp_capi_lib %python %S/../../bench/speed/run.py --models digits-mlp --threads 1,2 --repeat 1 --rounds 1 --markdown %t.md 2>&1 | FileCheck %s
# RUN: FileCheck %s --check-prefix=TABLE < %t.md
#
# The speed benchmark's smoke test (no timing is asserted): the MLP is
# imported, converted to f16 and bf16, and the three programs run through
# amp-run on 1 and 2 threads on the same batch as ONNX Runtime, whose column
# is empty when onnxruntime-node is not installed.
#
# CHECK: digits-mlp batch 450 1 thread(s) ORT {{(-|[0-9.]+)}} amp f32 {{[0-9.]+}} f16 {{[0-9.]+}} bf16 {{[0-9.]+}} ms
# CHECK: digits-mlp batch 450 2 thread(s) ORT {{(-|[0-9.]+)}} amp f32 {{[0-9.]+}} f16 {{[0-9.]+}} bf16 {{[0-9.]+}} ms
# TABLE: <!-- speed-benchmark:begin -->
# TABLE: | model | batch | threads | ONNX Runtime (ms) | amp f32 (ms) |
# TABLE: | digits-mlp | 450 | 1 |
# TABLE: | digits-mlp | 450 | 2 |
# TABLE: <!-- speed-benchmark:end -->

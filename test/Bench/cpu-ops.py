# REQUIRES: onnxruntime
# RUN: %python %S/../../bench/cpu-ops/run.py --cases maxpool-ceil,depthwise --repeat 1 --rounds 1 --markdown %t.md 2>&1 | FileCheck %s
# RUN: FileCheck %s --check-prefix=TABLE < %t.md
# RUN: not %python %S/../../bench/cpu-ops/run.py --cases conv9x9 2>&1 | FileCheck %s --check-prefix=BAD
#
# bench/cpu-ops' smoke test (no timing is asserted): a ceil-mode max pool
# and a depthwise convolution, each imported alone from ONNX, run through
# amp-run and ONNX Runtime on the same input; the script fails if amp's
# results differ from ONNX Runtime's (so this also checks them), and a
# convolution gets its rate against the FMA peak.
#
# CHECK: one core's f32 FMA peak: {{[0-9.]+}} GFLOP/s
# CHECK: maxpool-ceil ORT {{[0-9.]+}} ms amp {{[0-9.]+}} ms amp/ORT {{[0-9.]+}}
# CHECK: depthwise ORT {{[0-9.]+}} ms amp {{[0-9.]+}} ms amp/ORT {{[0-9.]+}} {{[0-9]+}} GFLOP/s ({{[0-9]+}}% of peak)
# TABLE: <!-- cpu-ops-benchmark:begin -->
# TABLE: | op | ONNX Runtime (ms) | amp f32 (ms) | amp / ORT | GFLOP/s | of FMA peak
# TABLE: | MaxPool 2x2 ceil mode, 64x511x511 |
# TABLE: | depthwise Conv 3x3, 64 channels, 256x256 |
# TABLE: <!-- cpu-ops-benchmark:end -->
# BAD: --cases: no case conv9x9

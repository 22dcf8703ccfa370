# RUN: env AMP_OPT=%amp_opt AMP_RUN=amp-run %python %S/../../tools/onnx/conformance.py | FileCheck %s
# ONNX's own operator test cases (the backend node tests that python3-onnx
# generates, with expected outputs computed by ONNX in numpy), for every
# operator the importer supports: each case is imported and run on the CPU
# with amp-run (tools/onnx/conformance.py). Cases the importer refuses (runtime values it
# needs as constants, types amp does not run, unsupported attributes) are
# counted; none that imports may compute a different result.
# CHECK-NOT: FAILED
# CHECK: conformance (f32): {{[0-9]+}} passed, {{[0-9]+}} refused, 0 failed

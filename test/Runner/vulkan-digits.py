# REQUIRES: bench-digits, vulkan, spirv-val
# RUN: rm -rf %t && mkdir -p %t/spv-cnn %t/spv-lstm %t/spv-transformer
# RUN: env PYTHONPATH=%amp_python_path %python %s prepare %t
#
# Three digits models of bench/models/digits, imported from ONNX, run on
# Vulkan (amp-run --backend=vulkan) on the 450 held-out images and are
# compared with the f32 import run on the CPU. Every SPIR-V binary the
# runtime loads passes spirv-val.
#
# The CNN (three convolutions, a max pool, a global average pool, a dense
# layer) converted to f16: logits (of order 10) within 2e-2 of f32
# (measured 7e-3), really different from f32 (more than 1e-3 somewhere),
# and every image gets the class f32 gives it.
# RUN: amp-run %t/cnn.mlir --entry=main --input=%t/cnn-x.npy --output=%t/cnn-f32.npy
# RUN: amp-opt %t/cnn.mlir --mixed-precision=precision=f16 -o %t/cnn-f16.mlir
# RUN: env AMP_VULKAN_DUMP_SPIRV=%t/spv-cnn amp-run %t/cnn-f16.mlir --entry=main --backend=vulkan --input=%t/cnn-x.npy --output=%t/cnn-f16-vk.npy --compare=%t/cnn-f32.npy --rtol=0 --atol=2e-2 | FileCheck %s --check-prefix=OK
# RUN: %python %S/../Pipelines/Inputs/validate_spirv_files.py spirv-val %t/spv-cnn | FileCheck %s --check-prefix=VALID
# RUN: not amp-run %t/cnn-f16.mlir --entry=main --backend=vulkan --input=%t/cnn-x.npy --compare=%t/cnn-f32.npy --rtol=0 --atol=1e-3 2>&1 | FileCheck %s --check-prefix=LOW
# RUN: %python %s top1 %t/cnn-f32.npy %t/cnn-f16-vk.npy | FileCheck %s --check-prefix=TOP1
#
# The LSTM's gates are slices of its matmuls (strided views, copied into
# contiguous kernel buffers): in f32 the device agrees with the CPU up to
# its exp/tanh (measured 3.3e-6 on logits of order 10).
# RUN: amp-run %t/lstm.mlir --entry=main --input=%t/lstm-x.npy --output=%t/lstm-f32.npy
# RUN: env AMP_VULKAN_DUMP_SPIRV=%t/spv-lstm amp-run %t/lstm.mlir --entry=main --backend=vulkan --input=%t/lstm-x.npy --compare=%t/lstm-f32.npy --rtol=0 --atol=1e-5 | FileCheck %s --check-prefix=OK
# RUN: %python %S/../Pipelines/Inputs/validate_spirv_files.py spirv-val %t/spv-lstm | FileCheck %s --check-prefix=VALID
#
# The transformer (GELU through erf, a polynomial on the device) converted
# to f16: logits within 6e-2 of f32 (measured 2.2e-2), the same classes.
# RUN: amp-run %t/transformer.mlir --entry=main --input=%t/transformer-x.npy --output=%t/transformer-f32.npy
# RUN: amp-opt %t/transformer.mlir --mixed-precision=precision=f16 -o %t/transformer-f16.mlir
# RUN: env AMP_VULKAN_DUMP_SPIRV=%t/spv-transformer amp-run %t/transformer-f16.mlir --entry=main --backend=vulkan --input=%t/transformer-x.npy --output=%t/transformer-f16-vk.npy --compare=%t/transformer-f32.npy --rtol=0 --atol=6e-2 | FileCheck %s --check-prefix=OK
# RUN: %python %S/../Pipelines/Inputs/validate_spirv_files.py spirv-val %t/spv-transformer | FileCheck %s --check-prefix=VALID
# RUN: %python %s top1 %t/transformer-f32.npy %t/transformer-f16-vk.npy | FileCheck %s --check-prefix=TOP1
#
# OK: compare result 0 (450x10xf32) with '{{.*}}f32.npy': max_abs_err={{.*}} out_of_tolerance=0/4500 {{.*}} OK
# LOW: out_of_tolerance={{[1-9][0-9]*}}/4500 {{.*}} FAIL
# TOP1: top-1 agreement 450/450
# VALID: {{[1-9][0-9]*}} SPIR-V binaries valid (vulkan1.1)
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
MODELS = os.path.join(ROOT, "bench", "models", "digits")


def prepare(out):
    """Imports the models and writes their inputs."""
    sys.path.insert(0, MODELS)
    import data
    _, x_test, _, _ = data.load_split()
    for name in ("cnn", "lstm", "transformer"):
        subprocess.run([sys.executable, "-m", "amp.onnx",
                        os.path.join(MODELS, name + ".onnx"),
                        "-o", os.path.join(out, name + ".mlir")], check=True)
        np.save(os.path.join(out, name + "-x.npy"), data.as_input(name, x_test))


def top1(reference, result):
    a = np.load(reference).argmax(-1)
    b = np.load(result).argmax(-1)
    print("top-1 agreement %d/%d" % ((a == b).sum(), a.size))


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        prepare(sys.argv[2])
    else:
        top1(sys.argv[2], sys.argv[3])

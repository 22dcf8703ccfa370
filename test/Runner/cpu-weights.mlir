// Large constant arrays (a model's weights) reach the compiled program
// with every element intact, in f32, f16 and bf16: the object compiler
// hands them to LLVM's code generator as arrays of bytes (one piece, not
// one APFloat per element), with or without partitions, in amp-run and in
// amp-compile's libraries alike.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make_weights.py %t
// RUN: amp-run %t/weights.mlir --entry=weights --input=%t/x.npy --output=%t/out.npy --no-cache
// RUN: %python -c "import numpy as np; d = np.load('%t/out.npy') - np.load('%t/expected.npy'); print('max difference', abs(d).max())" | FileCheck %s
// RUN: amp-run %t/weights.mlir --entry=weights --input=%t/x.npy --output=%t/out1.npy --no-cache --compile-threads=1
// RUN: cmp %t/out.npy %t/out1.npy
// CHECK: max difference 0.0

// Sizes amp-run cannot honour are diagnosed before anything is allocated or
// written: a static shape larger than the machine's memory (an argument or
// a result), a .npy file with fewer or more data bytes than its header's
// shape, and a header that claims a huge shape. Each is one line on stderr,
// exit status 1, and no output file.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/good.npy', np.ones(4, '<f4')); b = open('%t/good.npy', 'rb').read(); open('%t/short.npy', 'wb').write(b[:-5]); open('%t/long.npy', 'wb').write(b + b'more')"
// RUN: %python -c "h = \"{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000,), }\".ljust(117) + '\n'; open('%t/claims.npy', 'wb').write(b'\x93NUMPY\x01\x00' + (118).to_bytes(2, 'little') + h.encode() + bytes(16))"
//
// RUN: not amp-run %s --entry=huge_argument --seed=1 --output=%t/out1.npy 2>&1 | FileCheck %s --check-prefix=HUGE-ARG
// HUGE-ARG: amp-run: @huge_argument argument 0 (tensor<100000x100000x100000xf32>) needs 4000000000000000 bytes, more than this machine's memory ({{[0-9]+}} bytes)
// RUN: not amp-run %s --entry=huge_result --seed=1 --output=%t/out2.npy 2>&1 | FileCheck %s --check-prefix=HUGE-RESULT
// HUGE-RESULT: amp-run: @huge_result result 0 (tensor<4611686018427387904x16xf32>) needs more than 2^64 bytes, more than this machine's memory
// RUN: not amp-run %s --entry=exp --input=%t/short.npy --output=%t/out3.npy 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: amp-run: '{{.*}}short.npy' is truncated: 11 data bytes for shape (4) of f32, expected 16
// RUN: not amp-run %s --entry=exp --input=%t/long.npy --output=%t/out4.npy 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: amp-run: '{{.*}}long.npy' has 20 data bytes for shape (4) of f32, expected 16: trailing bytes
// RUN: not amp-run %s --entry=exp --input=%t/claims.npy --output=%t/out5.npy 2>&1 | FileCheck %s --check-prefix=CLAIMS
// CLAIMS: amp-run: '{{.*}}claims.npy' is truncated: 16 data bytes for shape (1000000000000) of f32, expected 4000000000000
// RUN: not ls %t/out1.npy %t/out2.npy %t/out3.npy %t/out4.npy %t/out5.npy
// The well-formed file runs.
// RUN: amp-run %s --entry=exp --input=%t/good.npy --output=%t/good-out.npy

func.func @huge_argument(%a: tensor<100000x100000x100000xf32>) -> tensor<100000x100000x100000xf32> {
  %0 = math.exp %a : tensor<100000x100000x100000xf32>
  return %0 : tensor<100000x100000x100000xf32>
}

func.func @huge_result(%a: tensor<16xf32>) -> tensor<4611686018427387904x16xf32> {
  %e = tensor.empty() : tensor<4611686018427387904x16xf32>
  %b = linalg.broadcast ins(%a : tensor<16xf32>) outs(%e : tensor<4611686018427387904x16xf32>) dimensions = [0]
  return %b : tensor<4611686018427387904x16xf32>
}

func.func @exp(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.exp %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

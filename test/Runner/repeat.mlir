// --repeat N calls the entry N times on the same inputs and prints the min
// and median time of a call; the results are those of the last call, and
// they do not depend on N: a function whose body updates its argument in
// place (linalg.add with %a as its init) still sees the original inputs on
// every call, since amp-run marks tensor arguments read-only
// (bufferization.writable = false) and bufferization then copies.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %s --entry=accumulate --seed=4 --output=%t/once.npy
// RUN: amp-run %s --entry=accumulate --seed=4 --repeat=4 --output=%t/four.npy | FileCheck %s --check-prefix=TIME
// TIME: time: min {{[0-9]+\.[0-9]+}} ms, median {{[0-9]+\.[0-9]+}} ms (4 runs)
// RUN: amp-run %s --entry=accumulate --seed=4 --compare=%t/four.npy --rtol=0 --atol=0 | FileCheck %s --check-prefix=SAME
// RUN: amp-run %s --entry=accumulate --seed=4 --compare=%t/once.npy --rtol=0 --atol=0 | FileCheck %s --check-prefix=SAME
// SAME: max_abs_err=0.000e+00 {{.*}} out_of_tolerance=0/256 {{.*}} OK
//
// The result is a + b + b, not a + N b:
// RUN: amp-run %s --entry=accumulate --seed=4 --save-inputs=%t/in > /dev/null
// RUN: %python -c "import numpy as np; a, b = (np.load('%t/in/arg%%d.npy' %% k) for k in (0, 1)); np.save('%t/expected.npy', (a + b) + b)"
// RUN: amp-run %s --entry=accumulate --seed=4 --repeat=3 --compare=%t/expected.npy --rtol=0 --atol=0 | FileCheck %s --check-prefix=SAME
//
// The calls reuse the buffers of the ones before (amp's buffer pool keeps
// freed blocks, up to AMP_BUFFER_POOL_MIB): a reused buffer holds the last
// call's values, which must not leak into the next. With the pool off
// (0 MiB), the same result.
// RUN: env AMP_BUFFER_POOL_MIB=0 amp-run %s --entry=accumulate --seed=4 --repeat=3 --compare=%t/expected.npy --rtol=0 --atol=0 | FileCheck %s --check-prefix=SAME
// A malformed bound is an error, before anything runs.
// RUN: env AMP_BUFFER_POOL_MIB=lots not amp-run %s --entry=accumulate --seed=4 2>&1 | FileCheck %s --check-prefix=POOL
// POOL: AMP_BUFFER_POOL_MIB must be a count of MiB (0 turns the buffer pool's reuse off), got 'lots'
// RUN: env AMP_BUFFER_POOL_MIB=64 amp-run %s --entry=accumulate --seed=4 --repeat=5 --compare=%t/expected.npy --rtol=0 --atol=0 | FileCheck %s --check-prefix=SAME

func.func @accumulate(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = linalg.add ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%a : tensor<16x16xf32>) -> tensor<16x16xf32>
  %1 = linalg.add ins(%0, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%0 : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %1 : tensor<16x16xf32>
}

// Without a CUDA driver, the CUDA backend stops before doing any work with
// a message saying so (amp-run and its runtime build and load without
// CUDA). On a machine with a driver this test does not apply.
//
// REQUIRES: no-cuda-driver
// RUN: not amp-run %s --entry=add --backend=cuda 2>&1 | FileCheck %s
// RUN: not amp-run %s --entry=add --backend=cuda --chip=sm_80 --seed=3 2>&1 | FileCheck %s
// CHECK: amp-run: no CUDA driver (libcuda.so.1 not found)
// CHECK-NOT: result

func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A 1-D elementwise kernel over 2^23 elements needs 131072 workgroups of
// 64 invocations, twice what Vulkan devices allow along one dimension
// (maxComputeWorkGroupCount, 65535 on lavapipe); amp-tile-parallel-loops-
// for-gpu folds the grid into 32768 x 4 workgroups, and the result is the
// CPU's, exactly.
//
// REQUIRES: vulkan
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %s --entry=twice --seed=5 --save-inputs=%t/in --output=%t/cpu.npy
// RUN: amp-run %s --entry=twice --backend=vulkan --input=%t/in/arg0.npy --compare=%t/cpu.npy --rtol=0 --atol=0 | FileCheck %s
// CHECK: compare result 0 (8388608xf32) with '{{.*}}cpu.npy': {{.*}} out_of_tolerance=0/8388608 {{.*}} OK

func.func @twice(%a: tensor<8388608xf32>) -> tensor<8388608xf32> {
  %e = tensor.empty() : tensor<8388608xf32>
  %r = linalg.add ins(%a, %a : tensor<8388608xf32>, tensor<8388608xf32>) outs(%e : tensor<8388608xf32>) -> tensor<8388608xf32>
  return %r : tensor<8388608xf32>
}

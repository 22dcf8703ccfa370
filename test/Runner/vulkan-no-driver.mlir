// Without a Vulkan driver (here: the loader pointed at a driver list that
// does not exist) the Vulkan backend says so and fails, without results;
// where amp was built without libvulkan, amp-run says that the backend's
// runtime library is missing.
//
// RUN: env VK_ICD_FILENAMES=%t.none.json VK_DRIVER_FILES=%t.none.json not amp-run %s --entry=add --backend=vulkan 2>&1 | FileCheck %s
// CHECK: {{no Vulkan device|the vulkan backend needs its runtime: runtime library '.*libamp_vulkan_runtime.so' not found}}
// CHECK-NOT: result 0

func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

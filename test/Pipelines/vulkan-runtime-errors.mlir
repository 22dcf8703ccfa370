// amp's Vulkan runtime fails with a clear message and exit status 1, never
// a crash, when it cannot run the kernels: no Vulkan driver at all, no
// device matching AMP_VULKAN_DEVICE, or a device without a feature a kernel
// needs (simulated with AMP_VULKAN_DISABLE). With a device it runs them.
//
// REQUIRES: vulkan, mlir-runner
// DEFINE: %{run} = mlir-runner -e main -entry-point-result=void -shared-libs=%amp_vulkan_runtime,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-vulkan)' -o %t.mlir
// RUN: env VK_ICD_FILENAMES=%t.no-driver.json not %{run} %t.mlir 2>&1 | FileCheck %s --check-prefix=NO-DRIVER
// RUN: env AMP_VULKAN_DEVICE=no-such-device not %{run} %t.mlir 2>&1 | FileCheck %s --check-prefix=NO-MATCH
// RUN: env AMP_VULKAN_VERBOSE=1 %{run} %t.mlir 2>&1 | FileCheck %s --check-prefix=RUNS
// RUN: env AMP_VULKAN_DISABLE=shaderFloat16 not %{run} %t.mlir 2>&1 | FileCheck %s --check-prefix=NO-F16
// RUN: amp-vulkan-probe | FileCheck %s --check-prefix=PROBE
// RUN: env VK_ICD_FILENAMES=%t.no-driver.json not amp-vulkan-probe | FileCheck %s --check-prefix=NO-DRIVER
//
// NO-DRIVER-NOT: Memref
// NO-DRIVER: amp vulkan runtime: no Vulkan device
// NO-DRIVER-NOT: Memref
// NO-MATCH: amp vulkan runtime: no Vulkan device matching AMP_VULKAN_DEVICE='no-such-device'
// RUNS: amp vulkan runtime: using {{.+}}, Vulkan 1.{{[0-9]+}})
// RUNS: [2,  4,  6,  8]
// NO-F16-NOT: Memref
// NO-F16: amp vulkan runtime: kernel 'double_kernel' needs the Vulkan feature shaderFloat16, which {{.+}} does not have
// NO-F16-NOT: Memref
// PROBE: {{.+}}, Vulkan 1.{{[0-9]+}})

// Doubles in f16: the kernel needs Float16 (shaderFloat16).
func.func @double(%a: tensor<4xf32>) -> tensor<4xf32> {
  %h = arith.truncf %a : tensor<4xf32> to tensor<4xf16>
  %s = arith.addf %h, %h : tensor<4xf16>
  %r = arith.extf %s : tensor<4xf16> to tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @main() {
  %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r = call @double(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  %m = bufferization.to_buffer %u : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)

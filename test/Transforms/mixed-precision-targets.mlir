// RUN: amp-opt %s --split-input-file --mixed-precision="precision=bf16 placement=greedy" --verify-each | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %s --split-input-file --mixed-precision=placement=greedy --verify-each | FileCheck %s --check-prefix=F16
// Nested on gpu.module functions:
// RUN: amp-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(func.func(mixed-precision{precision=bf16 placement=greedy})))' --verify-each | FileCheck %s --check-prefix=BF16

// The pass asks the target before it runs an op low: bf16 arithmetic needs
// sm_80, so on sm_70 everything stays f32, while sm_90 takes it. f16 runs on
// both.
module attributes {gpu.container_module} {
  gpu.module @volta [#nvvm.target<chip = "sm_70">] {
    // BF16-LABEL: func.func @on_volta
    // BF16-NOT: bf16
    // BF16: return
    // F16-LABEL: func.func @on_volta
    // F16: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x4xf16>, tensor<4x4xf16>)
    func.func @on_volta(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
      %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
      %1 = math.tanh %0 : tensor<4x4xf32>
      return %1 : tensor<4x4xf32>
    }
  }
  gpu.module @hopper [#nvvm.target<chip = "sm_90">] {
    // BF16-LABEL: func.func @on_hopper
    // BF16: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x4xbf16>, tensor<4x4xbf16>)
    // BF16: math.tanh %{{.+}} : tensor<4x4xbf16>
    func.func @on_hopper(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
      %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
      %1 = math.tanh %0 : tensor<4x4xf32>
      return %1 : tensor<4x4xf32>
    }
  }
}

// -----

// Vulkan with Float16: f16 computes; bf16 has no arithmetic there.
module attributes {gpu.container_module} {
  gpu.module @vulkan attributes {spirv.target_env = #spirv.target_env<
      #spirv.vce<v1.3, [Shader, Float16, StorageBuffer16BitAccess], [SPV_KHR_16bit_storage]>,
      #spirv.resource_limits<>>} {
    // F16-LABEL: func.func @on_vulkan
    // F16: arith.mulf %{{.+}}, %{{.+}} : tensor<8xf16>
    // BF16-LABEL: func.func @on_vulkan
    // BF16-NOT: bf16
    // BF16: return
    func.func @on_vulkan(%a: tensor<8x4xf32>, %b: tensor<4xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
      %0 = linalg.matvec ins(%a, %b : tensor<8x4xf32>, tensor<4xf32>) outs(%c : tensor<8xf32>) -> tensor<8xf32>
      %1 = arith.mulf %0, %0 : tensor<8xf32>
      return %1 : tensor<8xf32>
    }
  }
}

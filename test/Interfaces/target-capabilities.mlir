// RUN: amp-opt %s --split-input-file --amp-test-print-policy -o /dev/null | FileCheck %s --check-prefix=F16
// RUN: amp-opt %s --split-input-file --amp-test-print-policy=low=bf16 -o /dev/null | FileCheck %s --check-prefix=BF16

// Vulkan with Float16 and 16-bit storage: f16 computes; bf16 has no
// arithmetic, but its 16-bit words can still be stored and moved.
module attributes {spirv.target_env = #spirv.target_env<
    #spirv.vce<v1.3, [Shader, Float16, StorageBuffer16BitAccess], [SPV_KHR_16bit_storage]>,
    #spirv.resource_limits<>>} {
  // F16-LABEL: func.func @vulkan_fp16
  // F16-NEXT: arith.addf follow model acc=- data=(0, 1)->(0) compute=yes
  // F16-NEXT: math.tanh follow model acc=- data=(0)->(0) compute=yes
  // F16-NEXT: linalg.matmul allow model acc=sum/8/wide data=(0, 1, 2)->(0) compute=yes
  // F16:      tensor.extract_slice follow model acc=- data=(0)->(0) compute=yes
  // BF16-LABEL: func.func @vulkan_fp16
  // BF16-NEXT: arith.addf follow model acc=- data=(0, 1)->(0) compute=no
  // BF16-NEXT: math.tanh follow model acc=- data=(0)->(0) compute=no
  // BF16-NEXT: linalg.matmul allow model acc=sum/8/wide data=(0, 1, 2)->(0) compute=no
  // BF16:      tensor.extract_slice follow model acc=- data=(0)->(0) compute=yes
  func.func @vulkan_fp16(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) {
    %0 = arith.addf %a, %a : tensor<4x8xf32>
    %1 = math.tanh %a : tensor<4x8xf32>
    %2 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
    %3 = tensor.extract_slice %a[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
    return
  }
}

// -----

// Vulkan without Float16 or 16-bit storage: nothing runs low.
module attributes {spirv.target_env = #spirv.target_env<
    #spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>} {
  // F16-LABEL: func.func @vulkan_plain
  // F16-NEXT: arith.addf follow model acc=- data=(0, 1)->(0) compute=no
  // F16-NEXT: tensor.extract_slice follow model acc=- data=(0)->(0) compute=no
  func.func @vulkan_plain(%a: tensor<4x8xf32>) {
    %0 = arith.addf %a, %a : tensor<4x8xf32>
    %1 = tensor.extract_slice %a[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
    return
  }
}

// -----

// NVIDIA: f16 arithmetic from sm_53, bf16 from sm_80.
module attributes {gpu.container_module} {
  gpu.module @volta [#nvvm.target<chip = "sm_70">] {
    // F16-LABEL: func.func @on_volta
    // F16-NEXT: arith.mulf follow model acc=- data=(0, 1)->(0) compute=yes
    // BF16-LABEL: func.func @on_volta
    // BF16-NEXT: arith.mulf follow model acc=- data=(0, 1)->(0) compute=no
    func.func @on_volta(%a: f32) {
      %0 = arith.mulf %a, %a : f32
      return
    }
  }
  gpu.module @hopper [#nvvm.target<chip = "sm_90">] {
    // F16-LABEL: func.func @on_hopper
    // F16-NEXT: arith.mulf follow model acc=- data=(0, 1)->(0) compute=yes
    // BF16-LABEL: func.func @on_hopper
    // BF16-NEXT: arith.mulf follow model acc=- data=(0, 1)->(0) compute=yes
    func.func @on_hopper(%a: f32) {
      %0 = arith.mulf %a, %a : f32
      return
    }
  }
}

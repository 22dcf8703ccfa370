// RUN: amp-opt %s --mixed-precision="precision=bf16 target=vulkan placement=greedy keep-io-types=false explain=true" --mlir-print-op-on-diagnostic=false -o %t.vk-bf16.mlir 2>&1 | FileCheck %s --check-prefix=VKBF16-REMARK
// RUN: FileCheck %s --check-prefix=VKBF16 < %t.vk-bf16.mlir
// RUN: amp-opt %s --mixed-precision="precision=f16 target=vulkan placement=greedy" | FileCheck %s --check-prefix=VKF16
// RUN: amp-opt %s --mixed-precision="precision=f16 target=vulkan-storage16 placement=greedy explain=true" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=ST16
// RUN: amp-opt %s --mixed-precision="precision=bf16 target=sm_70 placement=greedy explain=true" --mlir-print-op-on-diagnostic=false -o %t.sm70.mlir 2>&1 | FileCheck %s --check-prefix=SM70-REMARK
// RUN: FileCheck %s --check-prefix=SM70 < %t.sm70.mlir
// RUN: amp-opt %s --mixed-precision="precision=bf16 target=sm_80 placement=greedy" | FileCheck %s --check-prefix=SM80
// RUN: amp-opt %s --mixed-precision="precision=bf16 target=cpu placement=greedy" | FileCheck %s --check-prefix=%if bf16-dot-pays %{SM80%} %else %{SM70%}
// RUN: not amp-opt %s --mixed-precision="target=tpu" 2>&1 | FileCheck %s --check-prefix=BAD

// `target=` names the target for code that carries no target attribute
// (an enclosing #spirv.target_env or gpu.module target still wins). Per op
// there are three outcomes, each with its remark: compute low; storage-only
// (the target stores the low type but cannot compute the op in it: the op
// computes in f32 on widened values, while data movement keeps the values
// low in memory); or f32 (the target can do neither).

// Vulkan has no bf16 arithmetic but stores 16-bit words. With a bf16
// signature (keep-io-types=false), the inputs are stored as bf16 and moved
// as bf16 (the transpose), while the matmul and the tanh compute in f32 on
// widened values (storage-only) and return f32.
// VKBF16-REMARK: remark: amp: linalg.matmul stays f32 (never, target): storage-only: the target stores bf16 but cannot compute this op in it
// VKBF16-REMARK: remark: amp: linalg.transpose runs in 'bf16'
// VKBF16-REMARK: remark: amp: math.tanh stays f32 (never, target): storage-only: the target stores bf16 but cannot compute this op in it
// VKBF16-LABEL: func.func @layer
// VKBF16-SAME: tensor<4x8xbf16>, %{{.+}}: tensor<8x4xbf16>, %{{.+}}: tensor<4x4xbf16>, %{{.+}}: tensor<4x4xbf16>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
// VKBF16: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<8x4xf32>)
// VKBF16: linalg.transpose ins(%{{.+}} : tensor<4x4xbf16>)
// VKBF16: arith.extf %{{.+}} : tensor<4x4xbf16> to tensor<4x4xf32>
// VKBF16: math.tanh %{{.+}} : tensor<4x4xf32>
// VKBF16: return %{{.+}}, %{{.+}} : tensor<4x4xf32>, tensor<4x4xf32>
// f16 computes on the same Vulkan target (Float16):
// VKF16-LABEL: func.func @layer
// VKF16: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xf16>, tensor<8x4xf16>)
// Without Float16, f16 is storage-only too:
// ST16: remark: amp: linalg.matmul stays f32 (never, target): storage-only: the target stores f16 but cannot compute this op in it
// bf16 arithmetic needs sm_80:
// SM70-REMARK: remark: amp: linalg.matmul stays f32 (never, target): storage-only: the target stores bf16 but cannot compute this op in it
// SM70-LABEL: func.func @layer
// SM70: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<8x4xf32>)
// SM80-LABEL: func.func @layer
// SM80: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xbf16>, tensor<8x4xbf16>)
// The host (`cpu`) computes bf16 contractions where its bf16 dot product
// outruns f32 fused multiply-adds, as sm_80 does; elsewhere they are
// storage-only, as on sm_70.
// BAD: error: mixed-precision: unsupported target 'tpu'; expected cpu, vulkan, vulkan-storage16 or sm_<N>
func.func @layer(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) permutation = [1, 0]
  %h = math.tanh %t : tensor<4x4xf32>
  return %m, %h : tensor<4x4xf32>, tensor<4x4xf32>
}

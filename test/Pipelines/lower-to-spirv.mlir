// Mixed precision to Vulkan compute kernels: every kernel becomes a SPIR-V
// module with Float16 and 16-bit storage that serialises and passes
// spirv-val.
// REQUIRES: spirv-val
// RUN: amp-opt %s -p 'builtin.module(mixed-precision,amp-lower-to-spirv)' -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=F16 < %t.mlir
// RUN: %python %S/validate_spirv.py mlir-translate spirv-val %t.mlir | FileCheck %s --check-prefix=VALID
// VALID: {{[1-9][0-9]*}} SPIR-V modules valid (vulkan1.1)

// CHECK: spirv.module @{{.+}} Logical GLSL450
// CHECK: spirv.EntryPoint "GLCompute"
// Kernels that compute in f16 require Float16 (and 16-bit storage where
// they load or store f16):
// F16: spirv.module @{{.+}} Logical GLSL450 requires #spirv.vce<{{.*}}Float16
// F16: spirv.FConvert %{{.+}} : f32 to f16

#bias = affine_map<(b, n) -> (n)>
#id = affine_map<(b, n) -> (b, n)>
func.func @mlp(%x: tensor<8x64xf32>, %w1: tensor<64x128xf32>, %b1: tensor<128xf32>,
               %w2: tensor<128x10xf32>) -> tensor<8x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x128xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x64xf32>, tensor<64x128xf32>)
                     outs(%z1 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %a = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<8x128xf32>, tensor<128xf32>) outs(%e1 : tensor<8x128xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x128xf32>
  %e2 = tensor.empty() : tensor<8x10xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x10xf32>) -> tensor<8x10xf32>
  %l = linalg.matmul ins(%a, %w2 : tensor<8x128xf32>, tensor<128x10xf32>)
                     outs(%z2 : tensor<8x10xf32>) -> tensor<8x10xf32>
  %p = linalg.softmax dimension(1) ins(%l : tensor<8x10xf32>) outs(%e2 : tensor<8x10xf32>) -> tensor<8x10xf32>
  return %p : tensor<8x10xf32>
}

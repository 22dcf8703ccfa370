// The kernel structure amp-lower-to-spirv gives contractions and row
// reductions: operand tiles (and the reductions' partial results) in
// Workgroup variables, with workgroup barriers between their writers and
// readers. The Vulkan target env fixes no subgroup size, so reductions
// combine through workgroup memory (a tree, one barrier per level) rather
// than with subgroup shuffles. test/Runner/gpu-contractions.py runs these
// kernels on lavapipe against the CPU backend.
//
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16},amp-lower-to-spirv)' -o %t.f16.mlir
// RUN: FileCheck %s < %t.f16.mlir
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16},amp-lower-to-spirv)' -o %t.bf16.mlir
// RUN: FileCheck %s --check-prefix=BF16 < %t.bf16.mlir
// Every module serialises and passes spirv-val.
// RUN: %if spirv-val %{ %python %S/validate_spirv.py mlir-translate spirv-val %t.f16.mlir | FileCheck %s --check-prefix=VALID %}
// RUN: %if spirv-val %{ %python %S/validate_spirv.py mlir-translate spirv-val %t.bf16.mlir | FileCheck %s --check-prefix=VALID %}
// VALID: {{[1-9][0-9]*}} SPIR-V modules valid

// CHECK-LABEL: spirv.module
// CHECK:         spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<{{[0-9]+}} x f16>)>, Workgroup>
// CHECK:         spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<{{[0-9]+}} x f16>)>, Workgroup>
// CHECK:         spirv.func @matmul_kernel
// CHECK:           spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
// CHECK:           spirv.mlir.loop
// CHECK:             spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
// CHECK:         spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32>)>, Workgroup>
// CHECK:         spirv.func @softmax_kernel
// CHECK-COUNT-9:   spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
// CHECK-NOT:       spirv.GroupNonUniform

// bf16 tiles are kept as their bits (i16), as every bf16 buffer on Vulkan.
// BF16:          spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<{{[0-9]+}} x i16>)>, Workgroup>

func.func @matmul(%a: tensor<1000x129xf32>, %b: tensor<129x63xf32>) -> tensor<1000x63xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000x63xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x63xf32>) -> tensor<1000x63xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1000x129xf32>, tensor<129x63xf32>) outs(%f : tensor<1000x63xf32>) -> tensor<1000x63xf32>
  return %r : tensor<1000x63xf32>
}

func.func @softmax(%x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %e = tensor.empty() : tensor<64x1000xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<64x1000xf32>) outs(%e : tensor<64x1000xf32>) -> tensor<64x1000xf32>
  return %r : tensor<64x1000xf32>
}

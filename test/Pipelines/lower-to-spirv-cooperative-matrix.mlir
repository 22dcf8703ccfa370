// f16 contractions on a Vulkan device's cooperative matrices:
// amp-lower-to-spirv{cooperative-matrix=true subgroup-size=N} builds them
// with amp-tile-contractions-for-cooperative-matrices (the tensor-core
// strategy with gpu.subgroup_mma_* ops) and targets SPIR-V 1.6 with
// CooperativeMatrixKHR, where convert-gpu-to-spirv makes them
// spirv.KHR.CooperativeMatrix{Load,MulAdd,Store}. What is checked here is
// their structure and that each kernel survives a SPIR-V serialization
// round trip: Mesa 22's lavapipe runs no cooperative matrices and
// spirv-val 2023.1 rejects the capability, so they are neither run nor
// validated on this machine.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-spirv{cooperative-matrix=true subgroup-size=32})' -o %t/lowered.mlir
// RUN: FileCheck %s < %t/lowered.mlir
// RUN: %python %S/Inputs/spirv_modules_of.py < %t/lowered.mlir > %t/kernels.mlir
// RUN: mlir-translate -no-implicit-module -split-input-file -test-spirv-roundtrip %t/kernels.mlir | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: not amp-opt %s -p 'builtin.module(amp-lower-to-spirv{cooperative-matrix=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSIZE
// NOSIZE: amp-tile-contractions-for-cooperative-matrices: min-workgroups must be at least 1 and subgroup-size a power of two, got 128 and 0
//
// Each kernel: SPIR-V 1.6 with the capability; per 16 k, each subgroup
// loads its A and B fragments from workgroup memory and multiplies into
// its f32 accumulator matrices; the results go back through workgroup
// memory to each thread's guarded stores.
// CHECK:      spirv.module @__spv__matmul_kernel Logical GLSL450 requires #spirv.vce<v1.6, [{{.*}}CooperativeMatrixKHR{{.*}}], [{{.*}}SPV_KHR_cooperative_matrix{{.*}}]>
// CHECK:        spirv.KHR.CooperativeMatrixLoad {{.*}} : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
// CHECK:        spirv.KHR.CooperativeMatrixLoad {{.*}} : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
// CHECK:        spirv.KHR.CooperativeMatrixMulAdd {{.*}} : !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
// CHECK:        spirv.KHR.CooperativeMatrixStore {{.*}} : !spirv.ptr<f32, Workgroup>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32
// CHECK:      spirv.module @__spv__batch_matmul_kernel Logical GLSL450 requires #spirv.vce<v1.6, [{{.*}}CooperativeMatrixKHR
// CHECK:        spirv.KHR.CooperativeMatrixMulAdd
// The convolution's filter tile (stored k-major for B: [k][n]) is read
// row-major, its image tile (A, channels innermost) too.
// CHECK:      spirv.module @__spv__conv3x3_kernel Logical GLSL450 requires #spirv.vce<v1.6, [{{.*}}CooperativeMatrixKHR
// CHECK:        spirv.KHR.CooperativeMatrixMulAdd
// bf16 stays on the workgroup-memory kernel (gpu.subgroup_mma_* has no
// bf16, and amp's SPIR-V keeps bf16 as storage only).
// CHECK:      spirv.module @__spv__matmul_bf16_kernel Logical GLSL450 requires #spirv.vce<v1.0,
// CHECK-NOT:    spirv.KHR.Cooperative
// CHECK:      gpu.module @matmul_bf16_kernel
//
// ROUNDTRIP-COUNT-3: spirv.KHR.CooperativeMatrixMulAdd
// ROUNDTRIP-NOT: error

func.func @matmul(%a: tensor<1024x1024xf16>, %b: tensor<1024x1024xf16>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}

func.func @batch_matmul(%a: tensor<16x256x64xf16>, %b: tensor<16x64x256xf16>) -> tensor<16x256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<16x256x64xf16>, tensor<16x64x256xf16>) outs(%f : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
  return %r : tensor<16x256x256xf32>
}

func.func @conv3x3(%x: tensor<8x34x34x64xf16>, %w: tensor<3x3x64x64xf16>) -> tensor<8x32x32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32x32x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32x32x64xf32>) -> tensor<8x32x32x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<8x34x34x64xf16>, tensor<3x3x64x64xf16>) outs(%f : tensor<8x32x32x64xf32>) -> tensor<8x32x32x64xf32>
  return %r : tensor<8x32x32x64xf32>
}

func.func @matmul_bf16(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

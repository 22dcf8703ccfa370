// amp-run's Vulkan backend runs a small CNN: two 3x3 convolutions with ReLU,
// a 2x2 max pool, a global average pool written as sums over the middle
// (spatial) axes, and a dense layer (matmul + bias). The sums over axis 1
// and 2 of NHWC tensors are the reductions that come before parallel loop
// dimensions, which amp-lower-to-vulkan used to leave as an unmappable
// scf.parallel (amp-reduction-loops-innermost moves them inside).
//
// The program runs in f32 and after mixed-precision to f16 and bf16 (the
// convolutions, ReLUs and the max pool in the low type, the sums and the
// matmul's accumulator in f32), and each Vulkan result is compared with the
// f32 result of the CPU backend on the same inputs. Every SPIR-V binary the
// runtime loads passes spirv-val.
//
// REQUIRES: vulkan, spirv-val
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %s --entry=cnn --seed=5 --save-inputs=%t/in --output=%t/f32.npy
// DEFINE: %{inputs} = --entry=cnn --input=%t/in/arg0.npy,%t/in/arg1.npy,%t/in/arg2.npy,%t/in/arg3.npy,%t/in/arg4.npy,%t/in/arg5.npy,%t/in/arg6.npy
// DEFINE: %{validate} = %python %S/../Pipelines/Inputs/validate_spirv_files.py spirv-val
//
// f32: the device sums every element's terms in the CPU's order (lavapipe:
// measured bit-exact); atol 1e-4 leaves room for a CPU lowering that
// reorders sums (outputs are up to ~18).
// RUN: mkdir -p %t/spv-f32
// RUN: env AMP_VULKAN_DUMP_SPIRV=%t/spv-f32 amp-run %s %{inputs} --backend=vulkan --compare=%t/f32.npy --rtol=0 --atol=1e-4 | FileCheck %s --check-prefix=OK
// RUN: %{validate} %t/spv-f32 | FileCheck %s --check-prefix=VALID
//
// Low types (u = 2^-11 for f16, 2^-8 for bf16). Every term of an output
// passes through about six roundings of relative error <= u (the input,
// the weights, each convolution's result, the pooled features read by the
// matmul, the matmul's weights); on outputs up to |y| = 18 that is at most
// about 6u * 18, and the roundings partly cancel: measured 8.3e-3 (f16) and
// 6.7e-2 (bf16), about u * 18. Tolerance atol = 3u * 18: f16 2.6e-2,
// bf16 0.21; rtol = 0 (outputs near zero are cancelling sums).
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16})' -o %t/f16.mlir
// RUN: FileCheck %s --check-prefix=IR -DLOW=f16 < %t/f16.mlir
// RUN: mkdir -p %t/spv-f16
// RUN: env AMP_VULKAN_DUMP_SPIRV=%t/spv-f16 amp-run %t/f16.mlir %{inputs} --backend=vulkan --compare=%t/f32.npy --rtol=0 --atol=2.6e-2 | FileCheck %s --check-prefix=OK
// RUN: %{validate} %t/spv-f16 | FileCheck %s --check-prefix=VALID
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16})' -o %t/bf16.mlir
// RUN: FileCheck %s --check-prefix=IR -DLOW=bf16 < %t/bf16.mlir
// RUN: mkdir -p %t/spv-bf16
// RUN: env AMP_VULKAN_DUMP_SPIRV=%t/spv-bf16 amp-run %t/bf16.mlir %{inputs} --backend=vulkan --compare=%t/f32.npy --rtol=0 --atol=0.21 | FileCheck %s --check-prefix=OK
// RUN: %{validate} %t/spv-bf16 | FileCheck %s --check-prefix=VALID
//
// The low types were really used on the device: the results differ from
// f32 by more than 2u somewhere (an f32 run differs by less than 1e-4).
// RUN: not amp-run %t/f16.mlir %{inputs} --backend=vulkan --compare=%t/f32.npy --rtol=0 --atol=1e-3 2>&1 | FileCheck %s --check-prefix=LOW
// RUN: not amp-run %t/bf16.mlir %{inputs} --backend=vulkan --compare=%t/f32.npy --rtol=0 --atol=8e-3 2>&1 | FileCheck %s --check-prefix=LOW
//
// OK: compare result 0 (1x8x10xf32) with '{{.*}}f32.npy': max_abs_err={{.*}} out_of_tolerance=0/80 {{.*}} OK
// LOW: out_of_tolerance={{[1-9][0-9]*}}/80 {{.*}} FAIL
// VALID: {{[1-9][0-9]*}} SPIR-V binaries valid (vulkan1.1)
//
// IR-LABEL: func.func @cnn(
// IR:         tosa.conv2d {{.*}} -> tensor<8x8x8x8x[[LOW]]>
// IR:         tosa.max_pool2d {{.*}} : (tensor<8x8x8x8x[[LOW]]>) -> tensor<8x4x4x8x[[LOW]]>
// IR:         tosa.conv2d {{.*}} -> tensor<8x4x4x16x[[LOW]]>
// IR:         tosa.reduce_sum {{.*}} : (tensor<8x4x4x16xf32>) -> tensor<8x1x4x16xf32>
// IR:         tosa.matmul {{.*}} : (tensor<1x8x16x[[LOW]]>, tensor<1x16x10x[[LOW]]>, {{.*}}) -> tensor<1x8x10xf32>

func.func @cnn(%x: tensor<8x8x8x3xf32>, %w1: tensor<8x3x3x3xf32>, %b1: tensor<8xf32>,
               %w2: tensor<16x3x3x8xf32>, %b2: tensor<16xf32>,
               %w3: tensor<1x16x10xf32>, %b3: tensor<1x1x10xf32>) -> tensor<1x8x10xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c1 = tosa.conv2d %x, %w1, %b1, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<8x8x8x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8x8xf32>
  // ReLU; the bound is the largest f16 so that the clamp can run in f16.
  %r1 = tosa.clamp %c1 {min_val = 0.0 : f32, max_val = 65504.0 : f32} : (tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xf32>
  %p1 = tosa.max_pool2d %r1 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}
      : (tensor<8x8x8x8xf32>) -> tensor<8x4x4x8xf32>
  %c2 = tosa.conv2d %p1, %w2, %b2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<8x4x4x8xf32>, tensor<16x3x3x8xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x4x4x16xf32>
  %r2 = tosa.clamp %c2 {min_val = 0.0 : f32, max_val = 65504.0 : f32} : (tensor<8x4x4x16xf32>) -> tensor<8x4x4x16xf32>
  // Global average pool: the mean over H (axis 1) and W (axis 2).
  %s1 = tosa.reduce_sum %r2 {axis = 1 : i32} : (tensor<8x4x4x16xf32>) -> tensor<8x1x4x16xf32>
  %s2 = tosa.reduce_sum %s1 {axis = 2 : i32} : (tensor<8x1x4x16xf32>) -> tensor<8x1x1x16xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %sixteenth = "tosa.const"() {values = dense<0.0625> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %gap = tosa.mul %s2, %sixteenth, %shift : (tensor<8x1x1x16xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<8x1x1x16xf32>
  %shape = tosa.const_shape {values = dense<[1, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %flat = tosa.reshape %gap, %shape : (tensor<8x1x1x16xf32>, !tosa.shape<3>) -> tensor<1x8x16xf32>
  %mm = tosa.matmul %flat, %w3, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x10xf32>
  %y = tosa.add %mm, %b3 : (tensor<1x8x10xf32>, tensor<1x1x10xf32>) -> tensor<1x8x10xf32>
  return %y : tensor<1x8x10xf32>
}

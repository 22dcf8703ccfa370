// amp-run's Vulkan backend runs an LSTM cell whose four gates are slices of
// one matmul result (tosa.slice at column offsets 0, 64, 128 and 192 of an
// 8x256 tensor). The slices are strided views with offsets; Vulkan kernels
// take bare buffers, so amp-contiguous-kernel-buffers copies each view into
// an identity-layout buffer on the host before the kernel that reads it
// (without it, the kernel read the first 8x64 elements of the matmul's
// buffer for every gate, silently).
//
// The cell runs in f32 and after mixed-precision to f16 and bf16, and each
// Vulkan result is compared with the f32 result of the CPU backend on the
// same inputs. Every SPIR-V binary the runtime loads passes spirv-val.
//
// REQUIRES: vulkan, spirv-val
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %s --entry=cell --seed=1 --save-inputs=%t/in --output=%t/f32.npy
// DEFINE: %{inputs} = --entry=cell --input=%t/in/arg0.npy,%t/in/arg1.npy,%t/in/arg2.npy
// DEFINE: %{validate} = %python %S/../Pipelines/Inputs/validate_spirv_files.py spirv-val
//
// f32: the device's exp and tanh differ from the CPU's by an f32 rounding or
// two (measured 1.8e-7 on outputs below 1).
// RUN: mkdir -p %t/spv-f32
// RUN: env AMP_VULKAN_DUMP_SPIRV=%t/spv-f32 amp-run %s %{inputs} --backend=vulkan --compare=%t/f32.npy --rtol=0 --atol=1e-6 | FileCheck %s --check-prefix=OK
// RUN: %{validate} %t/spv-f32 | FileCheck %s --check-prefix=VALID
//
// Low types (u = 2^-11 for f16, 2^-8 for bf16). A gate is a 16-term dot
// product of inputs in [-1, 1) rounded once each (error 2u|xw| per term,
// about 2u * sqrt(16) * 1/3 = 2.7u in all), then rounded again and passed
// through sigmoid or tanh (slope <= 1); the cell's three products and one
// sum each round once more. Outputs are below 1: measured 6.5e-4 (f16,
// 1.3u) and 6.3e-3 (bf16, 1.6u). Tolerance atol = 6u: f16 2.9e-3,
// bf16 2.3e-2.
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16})' -o %t/f16.mlir
// RUN: mkdir -p %t/spv-f16
// RUN: env AMP_VULKAN_DUMP_SPIRV=%t/spv-f16 amp-run %t/f16.mlir %{inputs} --backend=vulkan --compare=%t/f32.npy --rtol=0 --atol=2.9e-3 | FileCheck %s --check-prefix=OK
// RUN: %{validate} %t/spv-f16 | FileCheck %s --check-prefix=VALID
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16})' -o %t/bf16.mlir
// RUN: mkdir -p %t/spv-bf16
// RUN: env AMP_VULKAN_DUMP_SPIRV=%t/spv-bf16 amp-run %t/bf16.mlir %{inputs} --backend=vulkan --compare=%t/f32.npy --rtol=0 --atol=2.3e-2 | FileCheck %s --check-prefix=OK
// RUN: %{validate} %t/spv-bf16 | FileCheck %s --check-prefix=VALID
//
// The low types were really used on the device: the results differ from
// f32 by more than u/8 somewhere (an f32 run differs by less than 1e-6).
// RUN: not amp-run %t/f16.mlir %{inputs} --backend=vulkan --compare=%t/f32.npy --rtol=0 --atol=6e-5 2>&1 | FileCheck %s --check-prefix=LOW
// RUN: not amp-run %t/bf16.mlir %{inputs} --backend=vulkan --compare=%t/f32.npy --rtol=0 --atol=5e-4 2>&1 | FileCheck %s --check-prefix=LOW
//
// The kernels get the gates as identity-layout copies:
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-spirv)' | FileCheck %s --check-prefix=LAUNCH
//
// OK: compare result 0 (8x64xf32) with '{{.*}}f32.npy': max_abs_err={{.*}} out_of_tolerance=0/512 {{.*}} OK
// LOW: out_of_tolerance={{[1-9][0-9]*}}/512 {{.*}} FAIL
// VALID: {{[1-9][0-9]*}} SPIR-V binaries valid (vulkan1.1)
//
// LAUNCH-LABEL: func.func @cell(
// LAUNCH-COUNT-4: memref.copy %{{.+}}, %{{.+}} : memref<8x64xf32, strided<[256, 1]{{(, offset: [0-9]+)?}}>> to memref<8x64xf32>
// LAUNCH-NOT:     strided
// LAUNCH:         return

func.func @cell(%x: tensor<1x8x16xf32>, %w: tensor<1x16x256xf32>, %c0: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %gates3 = tosa.matmul %x, %w, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x256xf32>
  %shape = tosa.const_shape {values = dense<[8, 256]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %gates = tosa.reshape %gates3, %shape : (tensor<1x8x256xf32>, !tosa.shape<2>) -> tensor<8x256xf32>
  %size = tosa.const_shape {values = dense<[8, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s0 = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s1 = tosa.const_shape {values = dense<[0, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s2 = tosa.const_shape {values = dense<[0, 128]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s3 = tosa.const_shape {values = dense<[0, 192]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %gi = tosa.slice %gates, %s0, %size : (tensor<8x256xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<8x64xf32>
  %gf = tosa.slice %gates, %s1, %size : (tensor<8x256xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<8x64xf32>
  %gg = tosa.slice %gates, %s2, %size : (tensor<8x256xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<8x64xf32>
  %go = tosa.slice %gates, %s3, %size : (tensor<8x256xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<8x64xf32>
  %i = tosa.sigmoid %gi : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %f = tosa.sigmoid %gf : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %g = tosa.tanh %gg : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %o = tosa.sigmoid %go : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %fc = tosa.mul %f, %c0, %shift : (tensor<8x64xf32>, tensor<8x64xf32>, tensor<1xi8>) -> tensor<8x64xf32>
  %ig = tosa.mul %i, %g, %shift : (tensor<8x64xf32>, tensor<8x64xf32>, tensor<1xi8>) -> tensor<8x64xf32>
  %c = tosa.add %fc, %ig : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %tc = tosa.tanh %c : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %h = tosa.mul %o, %tc, %shift : (tensor<8x64xf32>, tensor<8x64xf32>, tensor<1xi8>) -> tensor<8x64xf32>
  return %h : tensor<8x64xf32>
}

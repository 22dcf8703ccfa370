// amp-run's Vulkan backend runs a bilinear 2x upsampling (tosa.resize with
// a negative offset, so that the kernel's source indices are rounding
// divisions of negative numbers, arith.floordivsi, which SPIR-V lacks and
// amp-expand-floor-ceil-div rewrites). The result equals the CPU's: the
// same interpolation weights and sums (measured bit-exact; atol 1e-6 on
// values below 1). mixed-precision keeps tosa.resize in f32, so only f32
// is run. Every SPIR-V binary passes spirv-val.
//
// REQUIRES: vulkan, spirv-val
// RUN: rm -rf %t && mkdir -p %t/spv
// RUN: amp-run %s --entry=upsample --seed=3 --save-inputs=%t/in --output=%t/cpu.npy
// RUN: env AMP_VULKAN_DUMP_SPIRV=%t/spv amp-run %s --entry=upsample --backend=vulkan --input=%t/in/arg0.npy --compare=%t/cpu.npy --rtol=0 --atol=1e-6 | FileCheck %s
// RUN: %python %S/../Pipelines/Inputs/validate_spirv_files.py spirv-val %t/spv | FileCheck %s --check-prefix=VALID
//
// CHECK: compare result 0 (2x16x16x4xf32) with '{{.*}}cpu.npy': max_abs_err={{.*}} out_of_tolerance=0/2048 {{.*}} OK
// VALID: {{[1-9][0-9]*}} SPIR-V binaries valid (vulkan1.1)

func.func @upsample(%x: tensor<2x8x8x4xf32>) -> tensor<2x16x16x4xf32> {
  %scale = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.resize %x, %scale, %offset, %border {mode = BILINEAR} : (tensor<2x8x8x4xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x16x16x4xf32>
  return %y : tensor<2x16x16x4xf32>
}

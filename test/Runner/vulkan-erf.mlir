// amp-run's Vulkan backend evaluates tosa.erf (math.erf, GELU's function),
// which SPIR-V's GLSL instructions lack, with amp-approximate-math's
// polynomial, on arguments covering [-6, 6) (every interval of the
// approximation, and the saturation at +-1). The CPU backend calls libm's
// erf; the polynomial agrees with it to 2 f32 units in the last place
// (measured 2.4e-7 on results of magnitude up to 1; libm itself is within
// 3.7e-8 of the exact values here). mixed-precision keeps erf and its
// argument in f32, so only f32 is run. Every SPIR-V binary passes spirv-val.
//
// REQUIRES: vulkan, spirv-val
// RUN: rm -rf %t && mkdir -p %t/spv
// RUN: amp-run %s --entry=erf --seed=4 --save-inputs=%t/in --output=%t/cpu.npy
// RUN: env AMP_VULKAN_DUMP_SPIRV=%t/spv amp-run %s --entry=erf --backend=vulkan --input=%t/in/arg0.npy --compare=%t/cpu.npy --rtol=0 --atol=5e-7 | FileCheck %s
// RUN: %python %S/../Pipelines/Inputs/validate_spirv_files.py spirv-val %t/spv | FileCheck %s --check-prefix=VALID
// The device really evaluates its own erf (it is not libm's bit for bit):
// RUN: not amp-run %s --entry=erf --backend=vulkan --input=%t/in/arg0.npy --compare=%t/cpu.npy --rtol=0 --atol=0 2>&1 | FileCheck %s --check-prefix=DIFF
//
// CHECK: compare result 0 (64x64xf32) with '{{.*}}cpu.npy': max_abs_err={{.*}} out_of_tolerance=0/4096 {{.*}} OK
// VALID: {{[1-9][0-9]*}} SPIR-V binaries valid (vulkan1.1)
// DIFF: out_of_tolerance={{[1-9][0-9]*}}/4096 {{.*}} FAIL

func.func @erf(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %six = "tosa.const"() {values = dense<6.0> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %s = tosa.mul %x, %six, %shift : (tensor<64x64xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<64x64xf32>
  %y = tosa.erf %s : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

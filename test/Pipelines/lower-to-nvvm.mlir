// Mixed precision to NVIDIA GPU kernels: PTX for sm_80 and sm_90 in f16 and
// bf16, and cubins that the CUDA Toolkit's ptxas accepts when it is there.
// RUN: amp-opt %s -p 'builtin.module(mixed-precision,amp-lower-to-nvvm{chip=sm_90 format=isa})' | FileCheck %s --check-prefix=PTX90
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16},amp-lower-to-nvvm{chip=sm_80 format=isa})' | FileCheck %s --check-prefix=PTX80
// RUN: %if ptxas %{ amp-opt %s -p 'builtin.module(mixed-precision,amp-lower-to-nvvm{chip=sm_90})' | FileCheck %s --check-prefix=CUBIN90 %}
// RUN: %if ptxas %{ amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16},amp-lower-to-nvvm{chip=sm_80})' | FileCheck %s --check-prefix=CUBIN80 %}
// Chips are named as everywhere in amp (sm_<N>[a|f]).
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{target=sm_90a},amp-lower-to-nvvm{chip=sm_90a format=isa})' | FileCheck %s --check-prefix=SM90A
// SM90A: .target sm_90a
// Bad options are errors, not warnings.
// RUN: not amp-opt %s -p 'builtin.module(amp-lower-to-nvvm{chip=sm_xx})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADCHIP
// RUN: not amp-opt %s -p 'builtin.module(amp-lower-to-nvvm{format=cubin})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADFORMAT
// RUN: not amp-opt %s -p 'builtin.module(amp-lower-to-nvvm{chip=sm_75 tf32=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADTF32
// RUN: not amp-opt %s -p 'builtin.module(amp-lower-to-nvvm{libdevice=%t.missing.bc})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADLIBDEVICE
// BADCHIP: error: amp-lower-to-nvvm: chip must be sm_<N>[a|f] with N >= 20, got 'sm_xx'
// BADLIBDEVICE: error: amp-lower-to-nvvm: libdevice '{{.*}}missing.bc' is not a file
// BADFORMAT: for the --format option: expected bin, isa or fatbin, got 'cubin'
// BADFORMAT: error: failed to add `amp-lower-to-nvvm` with options `format=cubin`
// BADTF32: error: amp-lower-to-nvvm: tf32 computes on tensor cores, which need tensor-cores, kernel-strategies and sm_80 or later

// Every kernel is outlined into a gpu.binary; the host side launches them.
// PTX90: gpu.launch_func
// PTX90: gpu.binary @{{.+}} [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80"{{[^>]*}}>, {{.*}}assembly = "
// PTX90-SAME: .target sm_90
// PTX90: cvt.rn.f16.f32
// PTX80: gpu.binary @{{.+}} [#gpu.object<#nvvm.target<chip = "sm_80", features = "+ptx80"{{[^>]*}}>, {{.*}}assembly = "
// PTX80: cvt.rn.bf16.f32
// CUBIN90: gpu.binary @{{.+}} [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80"{{[^>]*}}>, properties = {ISAToBinaryTimeInMs = {{[0-9]+}} : i64{{.*}}}, bin = "
// CUBIN80: gpu.binary @{{.+}} [#gpu.object<#nvvm.target<chip = "sm_80", features = "+ptx80"{{[^>]*}}>, properties = {{.*}}, bin = "

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
  return %l : tensor<8x10xf32>
}

// REQUIRES: vulkan
// The compile cache holds GPU programs too: the host code and the SPIR-V
// kernels it embeds. The second run loads them without lowering, and the
// kernels compute the same result bit for bit.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env AMP_CACHE_DIR=%t/c amp-run %s --entry=f --backend=vulkan --seed=2 --output=%t/cold.npy --time-phases 2>&1 | FileCheck %s --check-prefix=COLD
// COLD: amp-run: time: parse {{.*}}, lower {{.*}}, compile
// RUN: env AMP_CACHE_DIR=%t/c amp-run %s --entry=f --backend=vulkan --seed=2 --output=%t/warm.npy --time-phases 2>&1 | FileCheck %s --check-prefix=WARM
// WARM-NOT: , lower {{[0-9]}}
// WARM: amp-run: time: parse {{[0-9.]+}} s, compile {{.*}} (0 partitions)
// RUN: cmp %t/cold.npy %t/warm.npy
// The CPU program of the same file is another entry.
// RUN: env AMP_CACHE_DIR=%t/c amp-run %s --entry=f --seed=2 --output=%t/cpu.npy
// RUN: %python %S/Inputs/cache_entries.py count %t/c | FileCheck %s --check-prefix=TWO
// TWO: {{^2$}}

func.func @f(%a: tensor<64x48xf16>, %b: tensor<48x32xf16>) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %z = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x48xf16>, tensor<48x32xf16>) outs(%acc : tensor<64x32xf32>) {
  ^bb0(%x: f16, %y: f16, %s: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  } -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}

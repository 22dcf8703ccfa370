// amp-run keeps what it compiled in a cache ($AMP_CACHE_DIR here): the
// second run of a program loads it without lowering or compiling, with the
// same result bit for bit; a damaged entry is reported, removed and
// compiled again; --no-cache and AMP_NO_CACHE=1 bypass the cache.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env AMP_CACHE_DIR=%t/c amp-run %s --entry=f --seed=3 --output=%t/cold.npy --time-phases 2>&1 | FileCheck %s --check-prefix=COLD
// COLD-NOT: warning
// COLD: amp-run: time: parse {{.*}}, lower {{.*}}, compile
// RUN: %python %S/Inputs/cache_entries.py count %t/c | FileCheck %s --check-prefix=ONE
// ONE: {{^1$}}
// RUN: env AMP_CACHE_DIR=%t/c amp-run %s --entry=f --seed=3 --output=%t/warm.npy --time-phases 2>&1 | FileCheck %s --check-prefix=WARM
// WARM-NOT: warning
// WARM-NOT: , lower {{[0-9]}}
// WARM: amp-run: time: parse {{[0-9.]+}} s, compile {{.*}} (0 partitions)
// RUN: cmp %t/cold.npy %t/warm.npy
// Kernels inline, LLVM free to unroll, one compile thread: the same result.
// RUN: amp-run %s --entry=f --seed=3 --no-cache --compile-threads=1 --pipeline-options="outline-kernels=false bound-llvm-unrolling=false" --output=%t/serial.npy
// RUN: cmp %t/cold.npy %t/serial.npy
//
// Bypassed: compiled again, nothing stored.
// RUN: env AMP_CACHE_DIR=%t/n amp-run %s --entry=f --no-cache --time-phases 2>&1 | FileCheck %s --check-prefix=BYPASS
// RUN: env AMP_CACHE_DIR=%t/n AMP_NO_CACHE=1 amp-run %s --entry=f --time-phases 2>&1 | FileCheck %s --check-prefix=BYPASS
// BYPASS: amp-run: time: parse {{.*}}, lower
// RUN: %python %S/Inputs/cache_entries.py count %t/n | FileCheck %s --check-prefix=NONE
// NONE: {{^0$}}
//
// Another pipeline option is another program: a second entry.
// RUN: env AMP_CACHE_DIR=%t/c amp-run %s --entry=f --no-excess-precision > /dev/null
// RUN: %python %S/Inputs/cache_entries.py count %t/c | FileCheck %s --check-prefix=TWO
// TWO: {{^2$}}
//
// Kernels are named after their ops' locations (amp-outline-kernels), so a
// program whose locations name other ops is another entry.
// RUN: sed 's/"mm"/"matmul_2"/' %s > %t/renamed.mlir
// RUN: env AMP_CACHE_DIR=%t/c amp-run %t/renamed.mlir --entry=f > /dev/null
// RUN: %python %S/Inputs/cache_entries.py count %t/c | FileCheck %s --check-prefix=THREE
// THREE: {{^3$}}
//
// LLVM's own options may change the code without changing the key: given
// any, amp-run neither loads nor stores.
// RUN: env AMP_CACHE_DIR=%t/c amp-run %s --entry=f --unroll-threshold=0 --time-phases 2>&1 | FileCheck %s --check-prefix=BYPASS
// RUN: %python %S/Inputs/cache_entries.py count %t/c | FileCheck %s --check-prefix=THREE
//
// Damaged entries: a flipped byte, a truncated file, a file of something
// else are never loaded.
// RUN: rm -rf %t/d && env AMP_CACHE_DIR=%t/d amp-run %s --entry=f --seed=3 > /dev/null
// RUN: %python %S/Inputs/cache_entries.py flip %t/d
// RUN: env AMP_CACHE_DIR=%t/d amp-run %s --entry=f --seed=3 --output=%t/flip.npy 2>&1 | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: amp-run: warning: the compile cache entry '{{.*}}.amp' is corrupt; it is removed and the program compiled again
// RUN: cmp %t/cold.npy %t/flip.npy
// RUN: env AMP_CACHE_DIR=%t/d amp-run %s --entry=f --seed=3 2>&1 | FileCheck %s --check-prefix=REPAIRED
// REPAIRED-NOT: warning
// RUN: %python %S/Inputs/cache_entries.py truncate %t/d
// RUN: env AMP_CACHE_DIR=%t/d amp-run %s --entry=f 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: warning: the compile cache entry '{{.*}}' is truncated;
// RUN: %python %S/Inputs/cache_entries.py replace %t/d "not a cache entry"
// RUN: env AMP_CACHE_DIR=%t/d amp-run %s --entry=f 2>&1 | FileCheck %s --check-prefix=FOREIGN
// FOREIGN: warning: the compile cache entry '{{.*}}' is not an amp cache entry;
//
// Several processes filling one cache at once: one entry, no warning, one
// result.
// RUN: rm -rf %t/p && mkdir %t/p
// RUN: for i in 1 2 3 4; do env AMP_CACHE_DIR=%t/p amp-run %s --entry=f --seed=3 --output=%t/p$i.npy 2>%t/p$i.err & done; wait
// RUN: not grep -i "warning\|error" %t/p1.err %t/p2.err %t/p3.err %t/p4.err
// RUN: cmp %t/cold.npy %t/p1.npy && cmp %t/cold.npy %t/p4.npy
// RUN: %python %S/Inputs/cache_entries.py count %t/p | FileCheck %s --check-prefix=ONE
//
// The size limit: the least recently used entries go.
// RUN: rm -rf %t/l && env AMP_CACHE_DIR=%t/l amp-run %s --entry=f > /dev/null
// RUN: env AMP_CACHE_DIR=%t/l AMP_CACHE_MAX_SIZE=$(( $(%python %S/Inputs/cache_entries.py size %t/l) * 3 / 2 )) amp-run %s --entry=f --no-excess-precision > /dev/null
// RUN: %python %S/Inputs/cache_entries.py count %t/l | FileCheck %s --check-prefix=ONE
// RUN: env AMP_CACHE_DIR=%t/l AMP_CACHE_MAX_SIZE=1K amp-run %s --entry=f > /dev/null
// RUN: %python %S/Inputs/cache_entries.py count %t/l | FileCheck %s --check-prefix=NONE
//
// RUN: env AMP_CACHE_MAX_SIZE=12Q not amp-run %s --entry=f 2>&1 | FileCheck %s --check-prefix=BADSIZE
// BADSIZE: amp-run: AMP_CACHE_MAX_SIZE must be a size in bytes with an optional K, M or G suffix, got '12Q'

func.func @f(%a: tensor<64x96xbf16>, %b: tensor<96x32xbf16>) -> tensor<64x32xbf16> {
  %e = tensor.empty() : tensor<64x32xf32>
  %z = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x96xbf16>, tensor<96x32xbf16>) outs(%acc : tensor<64x32xf32>) {
  ^bb0(%x: bf16, %y: bf16, %s: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  } -> tensor<64x32xf32> loc("mm")
  %t = tensor.empty() : tensor<64x32xbf16>
  %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<64x32xf32>) outs(%t : tensor<64x32xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %c = arith.truncf %x : f32 to bf16
    linalg.yield %c : bf16
  } -> tensor<64x32xbf16>
  return %out : tensor<64x32xbf16>
}

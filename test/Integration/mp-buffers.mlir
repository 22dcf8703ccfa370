// A program on buffers (memrefs), as a user who bufferized first would give
// amp: an MLP layer pair with temporaries from memref.alloc, a scalar loop
// of loads and stores on a view of a temporary, and an exp that must stay
// f32. Run on the CPU in f32 and after --mixed-precision (f16, bf16; greedy
// placement so that the temporaries go low, and the default optimal one);
// the results must agree within the tolerances below.
//
//   h = relu(x W1)       (8x64 * 64x32; temporaries h and t are allocs)
//   t[i][i] = h[i][i]^2  for i < 8 (loads/stores through a subview)
//   y = tanh(t W2) * exp(-|t W2|)  (exp stays f32: it runs on an f32 copy)
//
// REQUIRES: mlir-runner
// DEFINE: %{run} = mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so
// RUN: bash %S/lower.sh mlir-opt %s | %{run} > %t.f32.txt
//
// What the pass makes of it: the temporaries are f16 storage, the matmuls
// read f16 copies of the f32 argument buffers, the exp reads an f32 copy.
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16 placement=greedy})' -o %t.f16.mlir
// RUN: FileCheck %s --check-prefix=IR -DLOW=f16 < %t.f16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.f16.mlir | %{run} > %t.f16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.f16.txt --atol 1.2e-3 --rtol 7.8e-3 --rel-floor 0.5 --min-abs-err 5e-5 | FileCheck %s --check-prefix=NUM
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16 placement=greedy})' -o %t.bf16.mlir
// RUN: FileCheck %s --check-prefix=IR -DLOW=bf16 < %t.bf16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.bf16.mlir | %{run} > %t.bf16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.bf16.txt --atol 9.4e-3 --rtol 6.2e-2 --rel-floor 0.5 --min-abs-err 5e-4 | FileCheck %s --check-prefix=NUM
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16})' -o %t.opt.mlir
// RUN: bash %S/lower.sh mlir-opt %t.opt.mlir | %{run} > %t.opt.txt
// RUN: %python %S/compare.py %t.f32.txt %t.opt.txt --atol 1.2e-3 --rtol 7.8e-3 --rel-floor 0.5 | FileCheck %s --check-prefix=NUM
//
// Tolerances. u = 2^-11 (f16), 2^-8 (bf16). Inputs are 0.5 sin(.), the
// output's largest magnitude is 0.30. Each matmul rounds its inputs and its
// result (~3u relative per product, summed over 64 and 32 mixed-sign terms
// that partly cancel), the square doubles a relative error, tanh and the
// exp factor damp it: atol = 8u * 0.3 (f16 1.2e-3, bf16 9.4e-3; measured
// 7.3e-4 and 3.4e-3). Cancelling sums leave small outputs with the error of
// their large terms, so the relative error (rtol = 16u: f16 7.8e-3, bf16
// 6.2e-2; measured 3.3e-3 and 2.2e-2) is checked on elements >= 50% of the
// maximum. --min-abs-err asserts that low precision was used.
//
// NUM: max_abs_err={{.*}} OK
// IR-LABEL: func.func @compute
// IR-SAME: memref<8x32xf32>) {
// IR: memref.alloc() : memref<8x32x[[LOW]]>
// IR: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<8x64x[[LOW]]>, memref<64x32x[[LOW]]>) outs(%{{.+}} : memref<8x32xf32>)
// IR: memref.subview {{.*}} : memref<8x32x[[LOW]]> to memref<8x8x[[LOW]], strided<[32, 1]>>
// IR: memref.load {{.*}} : memref<8x8x[[LOW]], strided<[32, 1]>>
// IR: math.exp %{{.+}} : f32

#id = affine_map<(i, j) -> (i, j)>
func.func @compute(%x: memref<8x64xf32>, %w1: memref<64x32xf32>, %w2: memref<32x32xf32>, %y: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %h = memref.alloc() : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%h : memref<8x32xf32>)
  linalg.matmul ins(%x, %w1 : memref<8x64xf32>, memref<64x32xf32>) outs(%h : memref<8x32xf32>)
  %t = memref.alloc() : memref<8x32xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : memref<8x32xf32>) outs(%t : memref<8x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  }
  %d = memref.subview %t[0, 0] [8, 8] [1, 1] : memref<8x32xf32> to memref<8x8xf32, strided<[32, 1]>>
  scf.for %i = %c0 to %c8 step %c1 {
    %l = memref.load %d[%i, %i] : memref<8x8xf32, strided<[32, 1]>>
    %sq = arith.mulf %l, %l : f32
    memref.store %sq, %t[%i, %i] : memref<8x32xf32>
  }
  %u = memref.alloc() : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%u : memref<8x32xf32>)
  linalg.matmul ins(%t, %w2 : memref<8x32xf32>, memref<32x32xf32>) outs(%u : memref<8x32xf32>)
  %e = memref.alloc() : memref<8x32xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%u : memref<8x32xf32>) outs(%e : memref<8x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %a = math.absf %v : f32
    %n = arith.negf %a : f32
    %ex = math.exp %n : f32
    linalg.yield %ex : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%u, %e : memref<8x32xf32>, memref<8x32xf32>) outs(%y : memref<8x32xf32>) {
  ^bb0(%v: f32, %ex: f32, %o: f32):
    %th = math.tanh %v : f32
    %m = arith.mulf %th, %ex : f32
    linalg.yield %m : f32
  }
  memref.dealloc %h : memref<8x32xf32>
  memref.dealloc %t : memref<8x32xf32>
  memref.dealloc %u : memref<8x32xf32>
  memref.dealloc %e : memref<8x32xf32>
  return
}

// Inputs: 0.5 sin(a i + b j + c), written by a public helper whose buffer
// argument keeps f32.
func.func @fill2d(%m: memref<?x?xf32>, %a: f32, %b: f32, %c: f32) {
  %s = arith.constant 0.5 : f32
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%m : memref<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fj = arith.sitofp %jj : i32 to f32
    %x = arith.mulf %fi, %a : f32
    %y = arith.mulf %fj, %b : f32
    %xy = arith.addf %x, %y : f32
    %z = arith.addf %xy, %c : f32
    %t = math.sin %z : f32
    %r = arith.mulf %t, %s : f32
    linalg.yield %r : f32
  }
  return
}

func.func @main() {
  %x = memref.alloc() : memref<8x64xf32>
  %w1 = memref.alloc() : memref<64x32xf32>
  %w2 = memref.alloc() : memref<32x32xf32>
  %y = memref.alloc() : memref<8x32xf32>
  %dx = memref.cast %x : memref<8x64xf32> to memref<?x?xf32>
  %dw1 = memref.cast %w1 : memref<64x32xf32> to memref<?x?xf32>
  %dw2 = memref.cast %w2 : memref<32x32xf32> to memref<?x?xf32>
  %a1 = arith.constant 0.37 : f32
  %b1 = arith.constant 0.11 : f32
  %c1 = arith.constant 0.3 : f32
  %a2 = arith.constant 0.23 : f32
  %b2 = arith.constant -0.41 : f32
  %c2 = arith.constant 0.5 : f32
  %a3 = arith.constant 0.19 : f32
  %b3 = arith.constant 0.53 : f32
  %c3 = arith.constant -0.2 : f32
  call @fill2d(%dx, %a1, %b1, %c1) : (memref<?x?xf32>, f32, f32, f32) -> ()
  call @fill2d(%dw1, %a2, %b2, %c2) : (memref<?x?xf32>, f32, f32, f32) -> ()
  call @fill2d(%dw2, %a3, %b3, %c3) : (memref<?x?xf32>, f32, f32, f32) -> ()
  call @compute(%x, %w1, %w2, %y) : (memref<8x64xf32>, memref<64x32xf32>, memref<32x32xf32>, memref<8x32xf32>) -> ()
  %uy = memref.cast %y : memref<8x32xf32> to memref<*xf32>
  call @printMemrefF32(%uy) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<8x64xf32>
  memref.dealloc %w1 : memref<64x32xf32>
  memref.dealloc %w2 : memref<32x32xf32>
  memref.dealloc %y : memref<8x32xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)

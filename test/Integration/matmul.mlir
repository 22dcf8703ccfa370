// linalg.matmul 64x128 * 128x64 run on the CPU in f32 and again after
// amp-test-convert-ops has moved it to f16 (then bf16) inputs with an f32
// accumulator; the results must agree within the tolerances below. With an
// f16 accumulator the error must be clearly larger.
//
// REQUIRES: mlir-runner
// DEFINE: %{run} = mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so
//
// f32 reference: the program as written.
// RUN: bash %S/lower.sh mlir-opt %s | %{run} > %t.f32.txt
//
// f16 inputs, f32 accumulator. Only the inputs are rounded (relative u =
// 2^-11 = 4.9e-4 each); products of two f16 values are exact in f32 and
// 128-term f32 sums add ~1e-5 relative. |a|, |b| <= 1, so each product is
// off by at most 2u and the K = 128 errors partly cancel: expected ~2u *
// sqrt(128) * E|ab| ~ 3e-3 absolute (the worst case, 2u * 128 = 0.125, needs
// all errors aligned). max |c| is ~9. atol 1e-2; rtol 2e-3 (4u) on the
// elements >= 50% of the maximum (smaller ones are sums that cancel, whose
// relative error says nothing; atol covers them).
// RUN: amp-opt %s -p 'builtin.module(amp-test-convert-ops{low=f16 accumulate=f32})' -o %t.f16.mlir
// RUN: FileCheck %s --check-prefixes=IR,IR-F16 < %t.f16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.f16.mlir | %{run} > %t.f16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.f16.txt --atol 1e-2 --rtol 2e-3 --rel-floor 0.5 --min-abs-err 1e-5 | FileCheck %s --check-prefix=NUM
//
// bf16 inputs, f32 accumulator: u = 2^-8, eight times larger: atol 8e-2,
// rtol 1.6e-2 (4u).
// RUN: amp-opt %s -p 'builtin.module(amp-test-convert-ops{low=bf16 accumulate=f32})' -o %t.bf16.mlir
// RUN: FileCheck %s --check-prefixes=IR,IR-BF16 < %t.bf16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.bf16.mlir | %{run} > %t.bf16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.bf16.txt --atol 8e-2 --rtol 1.6e-2 --rel-floor 0.5 --min-abs-err 1e-4 | FileCheck %s --check-prefix=NUM
//
// f16 inputs and f16 accumulator: every partial sum (up to ~10 in
// magnitude, where the f16 spacing is 2^-7) is rounded, so the error must
// exceed what the f32 accumulator allows (--min-abs-err 1e-2, the atol above);
// it stays below 0.25.
// RUN: amp-opt %s -p 'builtin.module(amp-test-convert-ops{low=f16 accumulate=f16})' -o %t.f16acc.mlir
// RUN: FileCheck %s --check-prefix=IR-F16ACC < %t.f16acc.mlir
// RUN: bash %S/lower.sh mlir-opt %t.f16acc.mlir | %{run} > %t.f16acc.txt
// RUN: %python %S/compare.py %t.f32.txt %t.f16acc.txt --atol 0.25 --rtol 1 --min-abs-err 1e-2 | FileCheck %s --check-prefix=NUM
//
// NUM: max_abs_err={{.*}} OK

#id = affine_map<(i, j) -> (i, j)>

// IR-LABEL:     func.func @compute(
// IR-SAME:        tensor<64x128xf32>{{.*}}tensor<128x64xf32>{{.*}} -> tensor<64x64xf32>
// IR-F16:         linalg.matmul ins({{.*}} : tensor<64x128xf16>, tensor<128x64xf16>) outs({{.*}} : tensor<64x64xf32>)
// IR-BF16:        linalg.matmul ins({{.*}} : tensor<64x128xbf16>, tensor<128x64xbf16>) outs({{.*}} : tensor<64x64xf32>)
// IR-F16ACC:      linalg.matmul ins({{.*}} : tensor<64x128xf16>, tensor<128x64xf16>) outs({{.*}} : tensor<64x64xf16>)
// IR:             return {{.*}} : tensor<64x64xf32>
func.func @compute(%a: tensor<64x128xf32>, %b: tensor<128x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x64xf32>)
                     outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// The driver. Its inputs are built by linalg.generic ops on memrefs, which
// the test pass leaves in f32 (only ops on tensors can be cast), so all runs
// see the same inputs:
//   a[i][k] = sin(0.37 i + 0.11 k),  b[k][j] = cos(0.23 k - 0.41 j).
// IR-LABEL:     func.func @main(
// IR:             math.sin {{.*}} : f32
// IR:             math.cos {{.*}} : f32
// IR:             call @compute({{.*}}) : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
func.func @main() {
  %ma = memref.alloc() : memref<64x128xf32>
  %mb = memref.alloc() : memref<128x64xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%ma : memref<64x128xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %kk = arith.index_cast %k : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fk = arith.sitofp %kk : i32 to f32
    %c1 = arith.constant 0.37 : f32
    %c2 = arith.constant 0.11 : f32
    %x = arith.mulf %fi, %c1 : f32
    %y = arith.mulf %fk, %c2 : f32
    %s = arith.addf %x, %y : f32
    %v = math.sin %s : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%mb : memref<128x64xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %j = linalg.index 1 : index
    %kk = arith.index_cast %k : index to i32
    %jj = arith.index_cast %j : index to i32
    %fk = arith.sitofp %kk : i32 to f32
    %fj = arith.sitofp %jj : i32 to f32
    %c1 = arith.constant 0.23 : f32
    %c2 = arith.constant 0.41 : f32
    %x = arith.mulf %fk, %c1 : f32
    %y = arith.mulf %fj, %c2 : f32
    %s = arith.subf %x, %y : f32
    %v = math.cos %s : f32
    linalg.yield %v : f32
  }
  %a = bufferization.to_tensor %ma restrict : memref<64x128xf32> to tensor<64x128xf32>
  %b = bufferization.to_tensor %mb restrict : memref<128x64xf32> to tensor<128x64xf32>
  %r = call @compute(%a, %b) : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
  // Stored into ranked f32 memrefs, which no conversion can retype, and
  // printed from there (see README.md in this directory).
  %mr = memref.alloc() : memref<64x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %mr
      : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
  %mu = memref.cast %mr : memref<64x64xf32> to memref<*xf32>
  call @printMemrefF32(%mu) : (memref<*xf32>) -> ()
  memref.dealloc %ma : memref<64x128xf32>
  memref.dealloc %mb : memref<128x64xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)

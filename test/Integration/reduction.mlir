// Sum reductions, run on the CPU in f32 and again after amp-test-convert-ops
// with all=true has moved them to f16 (then bf16) inputs with an f32
// accumulator (a sum is in the "never" category, so all=true is needed);
// the results must agree within the tolerances below. With an f16
// accumulator the error must be clearly larger.
//   row sums:    linalg.reduce over 512 elements (64 results)
//   column sums: linalg.generic reducing over 64 elements (512 results)
//
// REQUIRES: mlir-runner
// DEFINE: %{run} = mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so
//
// f32 reference: the program as written.
// RUN: bash %S/lower.sh mlir-opt %s | %{run} > %t.f32.txt
//
// Without all=true the sums are left alone.
// RUN: amp-opt %s -p 'builtin.module(amp-test-convert-ops{low=f16 accumulate=f32})' | FileCheck %s --check-prefix=NEVER
//
// f16 inputs, f32 accumulator. The inputs are all positive (0.25 to 1.25),
// so a sum cannot cancel and the error has a strict bound: each input is
// rounded by at most u = 2^-11 relative and each of the N - 1 f32 additions
// by 2^-24, i.e. |err| <= (2^-11 + 512 * 2^-24) * sum = 5.2e-4 * sum.
// rtol 5.2e-4 holds for every element (rel-floor 0); atol 0.21 is that
// bound for the largest sum (391).
// RUN: amp-opt %s -p 'builtin.module(amp-test-convert-ops{low=f16 accumulate=f32 all=true})' -o %t.f16.mlir
// RUN: FileCheck %s --check-prefixes=IR,IR-F16 < %t.f16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.f16.mlir | %{run} > %t.f16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.f16.txt --atol 0.21 --rtol 5.2e-4 --rel-floor 0 --min-abs-err 1e-6 | FileCheck %s --check-prefix=NUM
//
// bf16 inputs, f32 accumulator: u = 2^-8, so rtol 4e-3 (2^-8 + 512 *
// 2^-24 = 3.94e-3), atol 1.6 (3.94e-3 * 391).
// RUN: amp-opt %s -p 'builtin.module(amp-test-convert-ops{low=bf16 accumulate=f32 all=true})' -o %t.bf16.mlir
// RUN: FileCheck %s --check-prefixes=IR,IR-BF16 < %t.bf16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.bf16.mlir | %{run} > %t.bf16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.bf16.txt --atol 1.6 --rtol 4e-3 --rel-floor 0 --min-abs-err 1e-5 | FileCheck %s --check-prefix=NUM
//
// f16 inputs and f16 accumulator: a running sum of ~380 has an f16 spacing
// of 0.25, so the error must exceed the f32-accumulator bound (--min-abs-err
// 0.2); the bound here is the one for rounding after each of the N - 1
// additions, (N - 1) * 2^-11 relative ~ 0.25 for the row sums.
// RUN: amp-opt %s -p 'builtin.module(amp-test-convert-ops{low=f16 accumulate=f16 all=true})' -o %t.f16acc.mlir
// RUN: FileCheck %s --check-prefix=IR-F16ACC < %t.f16acc.mlir
// RUN: bash %S/lower.sh mlir-opt %t.f16acc.mlir | %{run} > %t.f16acc.txt
// RUN: %python %S/compare.py %t.f32.txt %t.f16acc.txt --atol 100 --rtol 0.25 --rel-floor 0 --min-abs-err 0.2 | FileCheck %s --check-prefix=NUM
//
// NUM: max_abs_err={{.*}} OK

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>

// NEVER-LABEL:   func.func @compute(
// NEVER:           linalg.reduce ins({{.*}} : tensor<64x512xf32>) outs({{.*}} : tensor<64xf32>)
// NEVER:           linalg.generic
// NEVER-SAME:        ins({{.*}} : tensor<64x512xf32>) outs({{.*}} : tensor<512xf32>)
//
// IR-LABEL:      func.func @compute(
// IR-SAME:         tensor<64x512xf32>{{.*}} -> (tensor<64xf32>, tensor<512xf32>)
// IR-F16:          linalg.reduce ins({{.*}} : tensor<64x512xf16>) outs({{.*}} : tensor<64xf32>)
// IR-F16:            arith.extf {{.*}} : f16 to f32
// IR-F16:            arith.addf {{.*}} : f32
// IR-F16:          linalg.generic
// IR-F16-SAME:       ins({{.*}} : tensor<64x512xf16>) outs({{.*}} : tensor<512xf32>)
// IR-F16:            arith.extf {{.*}} : f16 to f32
// IR-F16:            arith.addf {{.*}} : f32
// IR-BF16:         linalg.reduce ins({{.*}} : tensor<64x512xbf16>) outs({{.*}} : tensor<64xf32>)
// IR-BF16:           arith.extf {{.*}} : bf16 to f32
// IR-BF16:           arith.addf {{.*}} : f32
// IR-BF16:         linalg.generic
// IR-BF16-SAME:      ins({{.*}} : tensor<64x512xbf16>) outs({{.*}} : tensor<512xf32>)
// IR-BF16:           arith.extf {{.*}} : bf16 to f32
// IR-BF16:           arith.addf {{.*}} : f32
// IR-F16ACC:       linalg.reduce ins({{.*}} : tensor<64x512xf16>) outs({{.*}} : tensor<64xf16>)
// IR-F16ACC:         arith.addf {{.*}} : f16
// IR-F16ACC:       linalg.generic
// IR-F16ACC-SAME:    ins({{.*}} : tensor<64x512xf16>) outs({{.*}} : tensor<512xf16>)
// IR-F16ACC:         arith.addf {{.*}} : f16
// IR:              return {{.*}} : tensor<64xf32>, tensor<512xf32>
func.func @compute(%x: tensor<64x512xf32>) -> (tensor<64xf32>, tensor<512xf32>) {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<64xf32>
  %ec = tensor.empty() : tensor<512xf32>
  %accr = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %accc = linalg.fill ins(%zero : f32) outs(%ec : tensor<512xf32>) -> tensor<512xf32>
  %rows = linalg.reduce ins(%x : tensor<64x512xf32>) outs(%accr : tensor<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %cols = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<64x512xf32>) outs(%accc : tensor<512xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<512xf32>
  return %rows, %cols : tensor<64xf32>, tensor<512xf32>
}

// The driver. Its input is built by a linalg.generic on a memref, which the
// test pass leaves in f32 even with all=true (only ops on tensors can be
// cast), so all runs see the same input:
//   x[i][j] = 0.75 + 0.5 sin(0.37 i + 0.13 j).
// IR-LABEL:      func.func @main(
// IR:              math.sin {{.*}} : f32
// IR:              call @compute({{.*}}) : (tensor<64x512xf32>) -> (tensor<64xf32>, tensor<512xf32>)
func.func @main() {
  %mx = memref.alloc() : memref<64x512xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%mx : memref<64x512xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fj = arith.sitofp %jj : i32 to f32
    %c1 = arith.constant 0.37 : f32
    %c2 = arith.constant 0.13 : f32
    %half = arith.constant 0.5 : f32
    %off = arith.constant 0.75 : f32
    %a = arith.mulf %fi, %c1 : f32
    %b = arith.mulf %fj, %c2 : f32
    %s = arith.addf %a, %b : f32
    %sin = math.sin %s : f32
    %m = arith.mulf %sin, %half : f32
    %v = arith.addf %m, %off : f32
    linalg.yield %v : f32
  }
  %x = bufferization.to_tensor %mx restrict : memref<64x512xf32> to tensor<64x512xf32>
  %rows, %cols = call @compute(%x) : (tensor<64x512xf32>) -> (tensor<64xf32>, tensor<512xf32>)
  // Stored into ranked f32 memrefs, which no conversion can retype, and
  // printed from there (see README.md in this directory).
  %mr = memref.alloc() : memref<64xf32>
  bufferization.materialize_in_destination %rows in restrict writable %mr
      : (tensor<64xf32>, memref<64xf32>) -> ()
  %mc = memref.alloc() : memref<512xf32>
  bufferization.materialize_in_destination %cols in restrict writable %mc
      : (tensor<512xf32>, memref<512xf32>) -> ()
  %ur = memref.cast %mr : memref<64xf32> to memref<*xf32>
  %uc = memref.cast %mc : memref<512xf32> to memref<*xf32>
  call @printMemrefF32(%ur) : (memref<*xf32>) -> ()
  call @printMemrefF32(%uc) : (memref<*xf32>) -> ()
  memref.dealloc %mx : memref<64x512xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)

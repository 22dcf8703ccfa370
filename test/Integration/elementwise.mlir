// Elementwise chain (add, mul, relu via max, tanh, sub) on tensor<64x64xf32>,
// run on the CPU in f32 and again after amp-test-convert-ops has moved every
// op to f16 (then bf16); the results must agree within the tolerances below.
//
// REQUIRES: mlir-runner
// DEFINE: %{run} = mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so
//
// f32 reference: the program as written.
// RUN: bash %S/lower.sh mlir-opt %s | %{run} > %t.f32.txt
//
// f16. Unit roundoff u = 2^-11 = 4.9e-4. Inputs are rounded once and every op
// rounds its result once; |a| <= 2, |a + b| <= 3 and |(a + b) * a| <= 6 is
// where the error grows (about 3u relative, ~1e-2 absolute before tanh); tanh
// then squashes large values (sech^2 is small there) and the final
// subtraction may cancel, so the error is bounded absolutely: a few u of the
// O(1) result. atol 4e-3 (~8u); rtol 4e-3 on the elements >= 25% of the
// maximum |result| (~2), where cancellation cannot amplify it.
// RUN: amp-opt %s -p 'builtin.module(amp-test-convert-ops{low=f16 accumulate=f32})' -o %t.f16.mlir
// RUN: FileCheck %s --check-prefixes=IR,IR-F16 < %t.f16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.f16.mlir | %{run} > %t.f16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.f16.txt --atol 4e-3 --rtol 4e-3 --rel-floor 0.25 --min-abs-err 1e-5 | FileCheck %s --check-prefix=NUM
//
// bf16. u = 2^-8 = 3.9e-3, eight times f16's: atol 3e-2 (~8u), rtol 4e-2
// (~10u; measured 2e-2: tanh and the product are rounded several times).
// RUN: amp-opt %s -p 'builtin.module(amp-test-convert-ops{low=bf16 accumulate=f32})' -o %t.bf16.mlir
// RUN: FileCheck %s --check-prefixes=IR,IR-BF16 < %t.bf16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.bf16.mlir | %{run} > %t.bf16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.bf16.txt --atol 3e-2 --rtol 4e-2 --rel-floor 0.25 --min-abs-err 1e-4 | FileCheck %s --check-prefix=NUM
//
// NUM: max_abs_err={{.*}} OK

#id = affine_map<(i, j) -> (i, j)>

// The program under test.
// IR-LABEL:   func.func @compute(
// IR-SAME:      tensor<64x64xf32>{{.*}} -> tensor<64x64xf32>
// IR-F16:       linalg.add ins({{.*}} : tensor<64x64xf16>, tensor<64x64xf16>)
// IR-F16:       linalg.mul ins({{.*}} : tensor<64x64xf16>, tensor<64x64xf16>)
// IR-F16:       linalg.max ins({{.*}} : tensor<64x64xf16>, tensor<64x64xf16>)
// IR-F16:       math.tanh {{.*}} : tensor<64x64xf16>
// IR-F16:       arith.subf {{.*}} : tensor<64x64xf16>
// IR-BF16:      linalg.add ins({{.*}} : tensor<64x64xbf16>, tensor<64x64xbf16>)
// IR-BF16:      linalg.mul ins({{.*}} : tensor<64x64xbf16>, tensor<64x64xbf16>)
// IR-BF16:      linalg.max ins({{.*}} : tensor<64x64xbf16>, tensor<64x64xbf16>)
// IR-BF16:      math.tanh {{.*}} : tensor<64x64xbf16>
// IR-BF16:      arith.subf {{.*}} : tensor<64x64xbf16>
// IR:           return {{.*}} : tensor<64x64xf32>
func.func @compute(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %0 = linalg.add ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = linalg.mul ins(%0, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = linalg.max ins(%1, %zero : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = math.tanh %2 : tensor<64x64xf32>
  %4 = arith.subf %3, %b : tensor<64x64xf32>
  return %4 : tensor<64x64xf32>
}

// The driver. Its inputs are built by a linalg.generic on memrefs, which the
// test pass leaves in f32 (only ops on tensors can be cast), so both runs see
// the same inputs:  a = 2 sin(0.37 i + 0.11 j),  b = cos(0.37 i - 0.11 j).
// IR-LABEL:   func.func @main(
// IR:           linalg.generic
// IR-SAME:        outs({{.*}} : memref<64x64xf32>, memref<64x64xf32>)
// IR:           math.sin {{.*}} : f32
// IR:           math.cos {{.*}} : f32
// IR:           call @compute({{.*}}) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
func.func @main() {
  %ma = memref.alloc() : memref<64x64xf32>
  %mb = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      outs(%ma, %mb : memref<64x64xf32>, memref<64x64xf32>) {
  ^bb0(%oa: f32, %ob: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fj = arith.sitofp %jj : i32 to f32
    %c037 = arith.constant 0.37 : f32
    %c011 = arith.constant 0.11 : f32
    %c2 = arith.constant 2.0 : f32
    %x = arith.mulf %fi, %c037 : f32
    %y = arith.mulf %fj, %c011 : f32
    %s = arith.addf %x, %y : f32
    %sin = math.sin %s : f32
    %va = arith.mulf %sin, %c2 : f32
    %d = arith.subf %x, %y : f32
    %vb = math.cos %d : f32
    linalg.yield %va, %vb : f32, f32
  }
  %a = bufferization.to_tensor %ma restrict : memref<64x64xf32> to tensor<64x64xf32>
  %b = bufferization.to_tensor %mb restrict : memref<64x64xf32> to tensor<64x64xf32>
  %r = call @compute(%a, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  // Stored into ranked f32 memrefs, which no conversion can retype, and
  // printed from there (see README.md in this directory).
  %mr = memref.alloc() : memref<64x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %mr
      : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
  %mu = memref.cast %mr : memref<64x64xf32> to memref<*xf32>
  call @printMemrefF32(%mu) : (memref<*xf32>) -> ()
  memref.dealloc %ma : memref<64x64xf32>
  memref.dealloc %mb : memref<64x64xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)

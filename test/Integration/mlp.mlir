// A small MLP, y = relu(x * W1 + b1) * W2 with x: 32x64, W1: 64x128,
// b1: 128, W2: 128x16, run on the CPU in f32 and again after
// amp-test-convert-ops has moved every op to f16 (then bf16), with f32
// accumulators in the matmuls; the results must agree within the tolerances
// below.
//
// REQUIRES: mlir-runner
// DEFINE: %{run} = mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so
//
// f32 reference: the program as written.
// RUN: bash %S/lower.sh mlir-opt %s | %{run} > %t.f32.txt
//
// f16 (u = 2^-11 = 4.9e-4). Every op rounds its inputs to f16 (the test pass
// casts each op's results back to f32 and the next op's operands to f16), so
// the hidden layer h carries ~3u relative error (matmul output, bias add and
// relu each rounded) and W2 one u; the second matmul sums 128 such products
// in f32: expected error ~4u * sqrt(128) * E|h w2| ~ 1e-3, |y| <= ~1.2.
// atol 4e-3; rtol 4e-3 on the elements >= 50% of the maximum |y| (smaller
// ones are sums that cancel, whose relative error says nothing; atol covers
// them).
// RUN: amp-opt %s -p 'builtin.module(amp-test-convert-ops{low=f16 accumulate=f32})' -o %t.f16.mlir
// RUN: FileCheck %s --check-prefixes=IR,IR-F16 < %t.f16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.f16.mlir | %{run} > %t.f16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.f16.txt --atol 4e-3 --rtol 4e-3 --rel-floor 0.5 --min-abs-err 1e-5 | FileCheck %s --check-prefix=NUM
//
// bf16 (u = 2^-8, eight times f16's): atol 3e-2, rtol 3e-2.
// RUN: amp-opt %s -p 'builtin.module(amp-test-convert-ops{low=bf16 accumulate=f32})' -o %t.bf16.mlir
// RUN: FileCheck %s --check-prefixes=IR,IR-BF16 < %t.bf16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.bf16.mlir | %{run} > %t.bf16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.bf16.txt --atol 3e-2 --rtol 3e-2 --rel-floor 0.5 --min-abs-err 1e-4 | FileCheck %s --check-prefix=NUM
//
// NUM: max_abs_err={{.*}} OK

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(j) -> (j)>

// IR-LABEL:     func.func @compute(
// IR-SAME:        -> tensor<32x16xf32>
// IR-F16:         linalg.matmul ins({{.*}} : tensor<32x64xf16>, tensor<64x128xf16>) outs({{.*}} : tensor<32x128xf32>)
// IR-F16:         linalg.broadcast ins({{.*}} : tensor<128xf16>) outs({{.*}} : tensor<32x128xf16>)
// IR-F16:         linalg.add ins({{.*}} : tensor<32x128xf16>, tensor<32x128xf16>)
// IR-F16:         linalg.max ins({{.*}} : tensor<32x128xf16>, tensor<32x128xf16>)
// IR-F16:         linalg.matmul ins({{.*}} : tensor<32x128xf16>, tensor<128x16xf16>) outs({{.*}} : tensor<32x16xf32>)
// IR-BF16:        linalg.matmul ins({{.*}} : tensor<32x64xbf16>, tensor<64x128xbf16>) outs({{.*}} : tensor<32x128xf32>)
// IR-BF16:        linalg.broadcast ins({{.*}} : tensor<128xbf16>) outs({{.*}} : tensor<32x128xbf16>)
// IR-BF16:        linalg.add ins({{.*}} : tensor<32x128xbf16>, tensor<32x128xbf16>)
// IR-BF16:        linalg.max ins({{.*}} : tensor<32x128xbf16>, tensor<32x128xbf16>)
// IR-BF16:        linalg.matmul ins({{.*}} : tensor<32x128xbf16>, tensor<128x16xbf16>) outs({{.*}} : tensor<32x16xf32>)
// IR:             return {{.*}} : tensor<32x16xf32>
func.func @compute(%x: tensor<32x64xf32>, %w1: tensor<64x128xf32>, %b1: tensor<128xf32>,
                   %w2: tensor<128x16xf32>) -> tensor<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %zeros = arith.constant dense<0.0> : tensor<32x128xf32>
  %eh = tensor.empty() : tensor<32x128xf32>
  %ey = tensor.empty() : tensor<32x16xf32>
  %acch = linalg.fill ins(%zero : f32) outs(%eh : tensor<32x128xf32>) -> tensor<32x128xf32>
  %accy = linalg.fill ins(%zero : f32) outs(%ey : tensor<32x16xf32>) -> tensor<32x16xf32>
  %xw = linalg.matmul ins(%x, %w1 : tensor<32x64xf32>, tensor<64x128xf32>)
                      outs(%acch : tensor<32x128xf32>) -> tensor<32x128xf32>
  %bias = linalg.broadcast ins(%b1 : tensor<128xf32>) outs(%eh : tensor<32x128xf32>) dimensions = [0]
  %pre = linalg.add ins(%xw, %bias : tensor<32x128xf32>, tensor<32x128xf32>)
                    outs(%eh : tensor<32x128xf32>) -> tensor<32x128xf32>
  %h = linalg.max ins(%pre, %zeros : tensor<32x128xf32>, tensor<32x128xf32>)
                  outs(%eh : tensor<32x128xf32>) -> tensor<32x128xf32>
  %y = linalg.matmul ins(%h, %w2 : tensor<32x128xf32>, tensor<128x16xf32>)
                     outs(%accy : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %y : tensor<32x16xf32>
}

// The driver. Its inputs are built by linalg.generic ops on memrefs, which
// the test pass leaves in f32 (only ops on tensors can be cast), so both runs
// see the same inputs:
//   x[i][k]  = sin(0.37 i + 0.11 k)          W1[k][j] = 0.2 cos(0.23 k - 0.41 j)
//   b1[j]    = 0.1 sin(0.7 j)                W2[k][j] = 0.15 sin(0.19 k + 0.53 j)
// IR-LABEL:     func.func @main(
// IR:             call @compute({{.*}}) : (tensor<32x64xf32>, tensor<64x128xf32>, tensor<128xf32>, tensor<128x16xf32>) -> tensor<32x16xf32>
func.func @main() {
  %mx = memref.alloc() : memref<32x64xf32>
  %mw1 = memref.alloc() : memref<64x128xf32>
  %mb1 = memref.alloc() : memref<128xf32>
  %mw2 = memref.alloc() : memref<128x16xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%mx : memref<32x64xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fj = arith.sitofp %jj : i32 to f32
    %p = arith.constant 0.37 : f32
    %q = arith.constant 0.11 : f32
    %scale = arith.constant 1.0 : f32
    %a = arith.mulf %fi, %p : f32
    %b = arith.mulf %fj, %q : f32
    %s = arith.addf %a, %b : f32
    %t = math.sin %s : f32
    %v = arith.mulf %t, %scale : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%mw1 : memref<64x128xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fj = arith.sitofp %jj : i32 to f32
    %p = arith.constant 0.23 : f32
    %q = arith.constant 0.41 : f32
    %scale = arith.constant 0.2 : f32
    %a = arith.mulf %fi, %p : f32
    %b = arith.mulf %fj, %q : f32
    %s = arith.subf %a, %b : f32
    %t = math.cos %s : f32
    %v = arith.mulf %t, %scale : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%mw2 : memref<128x16xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fj = arith.sitofp %jj : i32 to f32
    %p = arith.constant 0.19 : f32
    %q = arith.constant 0.53 : f32
    %scale = arith.constant 0.15 : f32
    %a = arith.mulf %fi, %p : f32
    %b = arith.mulf %fj, %q : f32
    %s = arith.addf %a, %b : f32
    %t = math.sin %s : f32
    %v = arith.mulf %t, %scale : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#row], iterator_types = ["parallel"]}
      outs(%mb1 : memref<128xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %jj = arith.index_cast %j : index to i32
    %fj = arith.sitofp %jj : i32 to f32
    %q = arith.constant 0.7 : f32
    %scale = arith.constant 0.1 : f32
    %b = arith.mulf %fj, %q : f32
    %t = math.sin %b : f32
    %v = arith.mulf %t, %scale : f32
    linalg.yield %v : f32
  }
  %x = bufferization.to_tensor %mx restrict : memref<32x64xf32> to tensor<32x64xf32>
  %w1 = bufferization.to_tensor %mw1 restrict : memref<64x128xf32> to tensor<64x128xf32>
  %b1 = bufferization.to_tensor %mb1 restrict : memref<128xf32> to tensor<128xf32>
  %w2 = bufferization.to_tensor %mw2 restrict : memref<128x16xf32> to tensor<128x16xf32>
  %y = call @compute(%x, %w1, %b1, %w2)
      : (tensor<32x64xf32>, tensor<64x128xf32>, tensor<128xf32>, tensor<128x16xf32>) -> tensor<32x16xf32>
  // Stored into a ranked f32 memref, which no conversion can retype, and
  // printed from there (see README.md in this directory).
  %my = memref.alloc() : memref<32x16xf32>
  bufferization.materialize_in_destination %y in restrict writable %my
      : (tensor<32x16xf32>, memref<32x16xf32>) -> ()
  %mu = memref.cast %my : memref<32x16xf32> to memref<*xf32>
  call @printMemrefF32(%mu) : (memref<*xf32>) -> ()
  memref.dealloc %mx : memref<32x64xf32>
  memref.dealloc %mw1 : memref<64x128xf32>
  memref.dealloc %mb1 : memref<128xf32>
  memref.dealloc %mw2 : memref<128x16xf32>
  memref.dealloc %my : memref<32x16xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// RUN: amp-opt %s --mixed-precision="precision=bf16 keep-io-types=false" | FileCheck %s
// RUN: amp-opt %s --mixed-precision="precision=bf16 keep-io-types=false" | amp-opt --mixed-precision="precision=bf16 keep-io-types=false" | FileCheck %s

// With a bf16 signature, the argument is widened for its one f32 user, an
// element extracted for a branch condition (the rest reads it in bf16).
// Folding moves that cast after the extract: one element is widened, not
// the tensor. The fold only applies once the other casts of the argument
// have folded away, so cast folding runs until nothing changes: the first
// run prints what a second run would (amp-fuzz found a program where
// converting the output again moved the cast). The module is for a Zen 4,
// where the matmul computes bf16 and the comparison, storage-only, in f32.

// CHECK-LABEL: func.func @condition_on_an_element(
// CHECK-SAME:      %[[ARG:.*]]: tensor<16x16xbf16>
// CHECK-NOT:     arith.extf %[[ARG]] :
// CHECK:         %[[ELT:.*]] = tensor.extract %[[ARG]][{{.*}}] : tensor<16x16xbf16>
// CHECK:         %[[WIDE:.*]] = arith.extf %[[ELT]] : bf16 to f32
// CHECK:         arith.cmpf ogt, %[[WIDE]]
// CHECK:         scf.if
// CHECK-NEXT:      scf.yield %[[ARG]] : tensor<16x16xbf16>
module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "znver4", features = #llvm.target_features<["+avx512bf16", "+avx512f", "+f16c"]>>} {
func.func @condition_on_an_element(%arg0: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.extract %arg0[%c0, %c1] : tensor<16x16xf32>
  %zero = arith.constant 0.0 : f32
  %cond = arith.cmpf ogt, %e, %zero : f32
  %picked = scf.if %cond -> (tensor<16x16xf32>) {
    scf.yield %arg0 : tensor<16x16xf32>
  } else {
    scf.yield %arg0 : tensor<16x16xf32>
  }
  %abs = math.absf %arg0 : tensor<16x16xf32>
  %te = tensor.empty() : tensor<16x16xf32>
  %t = linalg.transpose ins(%picked : tensor<16x16xf32>) outs(%te : tensor<16x16xf32>) permutation = [1, 0]
  %me = tensor.empty() : tensor<16x16xf32>
  %fz = arith.constant 0.0 : f32
  %init = linalg.fill ins(%fz : f32) outs(%me : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = linalg.matmul ins(%abs, %t : tensor<16x16xf32>, tensor<16x16xf32>) outs(%init : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
}

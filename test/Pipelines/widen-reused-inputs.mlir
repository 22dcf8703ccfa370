// amp-lower-to-llvm widens the f16 operands that contractions read many
// times once (amp-widen-reused-inputs), right before bufferization: a
// weight that two matmuls read (as each step of an unrolled recurrence
// reads its weights) is widened once for both, and a computed operand is
// widened by the kernel that computes it.
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm)' -mlir-print-ir-after=amp-pad-in-place -o /dev/null 2>&1 | FileCheck %s
// Without it, the matmuls read f16.
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm{widen-reused-inputs=false})' -mlir-print-ir-after=amp-pad-in-place -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: func.func @two_steps
// CHECK:     %[[W:.+]] = linalg.generic {{.+}} ins(%arg1 : tensor<32x16xf16>) outs(%{{.+}} : tensor<32x16xf32>)
// CHECK-NOT: ins(%arg1
// The scaled operand: computed in f16 and widened in one kernel.
// CHECK:     %[[X:.+]] = linalg.generic {{.+}} ins(%arg0 : tensor<64x32xf16>) outs(%{{.+}} : tensor<64x32xf32>)
// CHECK:       arith.mulf %{{.+}}, %{{.+}} : f16
// CHECK-NEXT:  arith.extf %{{.+}} : f16 to f32
// CHECK:     ins(%[[X]], %[[W]] : tensor<64x32xf32>, tensor<32x16xf32>)
// CHECK:     ins(%{{.+}}, %[[W]] : tensor<64x32xf32>, tensor<32x16xf32>)
// CHECK-NOT: ins(%arg1
// OFF-LABEL: func.func @two_steps
// OFF-NOT:   tensor<32x16xf32>
// OFF:       ins(%{{.+}}, %arg1 : tensor<64x32xf16>, tensor<32x16xf16>)
// OFF:       ins(%arg2, %arg1 : tensor<64x32xf16>, tensor<32x16xf16>)
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, k) -> (m, k)>
func.func @two_steps(%x: tensor<64x32xf16>, %w: tensor<32x16xf16>, %y: tensor<64x32xf16>) -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %e = tensor.empty() : tensor<64x32xf16>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x32xf16>) outs(%e : tensor<64x32xf16>) {
  ^bb0(%v: f16, %o: f16):
    %two = arith.constant 2.0 : f16
    %s = arith.mulf %v, %two : f16
    linalg.yield %s : f16
  } -> tensor<64x32xf16>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<64x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x16xf32>) -> tensor<64x16xf32>
  %r0 = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%scaled, %w : tensor<64x32xf16>, tensor<32x16xf16>) outs(%acc : tensor<64x16xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %aw = arith.extf %a : f16 to f32
    %bw = arith.extf %b : f16 to f32
    %p = arith.mulf %aw, %bw : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  %r1 = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%y, %w : tensor<64x32xf16>, tensor<32x16xf16>) outs(%acc : tensor<64x16xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %aw = arith.extf %a : f16 to f32
    %bw = arith.extf %b : f16 to f32
    %p = arith.mulf %aw, %bw : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  return %r0, %r1 : tensor<64x16xf32>, tensor<64x16xf32>
}

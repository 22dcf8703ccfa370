// With amp's dialect plugin, the stock mlir-opt's --canonicalize folds casts
// exactly as amp-fold-casts does: loading arith loads amp, whose
// canonicalization patterns are amp's cast folding. Without the plugin the
// round trip around the transpose stays.
// RUN: mlir-opt --load-dialect-plugin=%amp_plugin %s --canonicalize | FileCheck %s
// RUN: mlir-opt %s --canonicalize | FileCheck %s --check-prefix=STOCK

// CHECK-LABEL: func.func @transpose_round_trip
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf16>)
// CHECK-NOT: f32
// CHECK: linalg.transpose ins(%[[X]] : tensor<4x8xf16>) outs(%{{.+}} : tensor<8x4xf16>) permutation = [1, 0]
// CHECK-NOT: f32
// STOCK-LABEL: func.func @transpose_round_trip
// STOCK: arith.extf
// STOCK: linalg.transpose
// STOCK: arith.truncf
func.func @transpose_round_trip(%x: tensor<4x8xf16>) -> tensor<8x4xf16> {
  %e = arith.extf %x : tensor<4x8xf16> to tensor<4x8xf32>
  %init = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%e : tensor<4x8xf32>) outs(%init : tensor<8x4xf32>) permutation = [1, 0]
  %r = arith.truncf %t : tensor<8x4xf32> to tensor<8x4xf16>
  return %r : tensor<8x4xf16>
}

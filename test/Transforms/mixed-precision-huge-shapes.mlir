// Shapes far beyond any memory are analysed and rewritten like others: the
// placement's byte costs and the report's counts saturate instead of
// overflowing (they would turn negative and sway the minimum cut).
// RUN: amp-opt %s --mixed-precision="report=-" | FileCheck %s
// CHECK: "casts-inserted": 2,
// CHECK-NEXT: "cast-bytes": {{[1-9][0-9]*}},
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<100000000000x100000000000xf16>, tensor<100000000000x4xf16>)
// CHECK: math.exp %{{.+}} : tensor<100000000000x4xf32>
func.func @huge(%a: tensor<100000000000x100000000000xf32>, %w: tensor<100000000000x4xf32>, %c: tensor<100000000000x4xf32>) -> tensor<100000000000x4xf32> {
  %0 = linalg.matmul ins(%a, %w : tensor<100000000000x100000000000xf32>, tensor<100000000000x4xf32>) outs(%c : tensor<100000000000x4xf32>) -> tensor<100000000000x4xf32>
  %1 = math.exp %0 : tensor<100000000000x4xf32>
  return %1 : tensor<100000000000x4xf32>
}

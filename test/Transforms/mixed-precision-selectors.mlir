// RUN: amp-opt %s --mixed-precision="policy-file=%S/Inputs/selectors.yaml" --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s
// RUN: not amp-opt %s --mixed-precision="policy-file=%S/Inputs/selectors-unmatched.yaml" 2>&1 | FileCheck %s --check-prefix=UNMATCHED
// RUN: not amp-opt %s --mixed-precision="policy-file=%S/Inputs/selectors-bad.yaml" 2>&1 | FileCheck %s --check-prefix=BAD

// Policy rules select individual ops by the names in their locations
// (`loc`, exact or a glob) and by the region they are in (`in`): names that
// survive re-import, as the precision tuner writes them.

// CHECK-LABEL: func.func @encoder
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf32>, tensor<8x8xf32>) {{.*}}loc("p2o.MatMul.0")
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf16>, tensor<8x8xf16>) {{.*}}loc("p2o.MatMul.1"
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf32>, tensor<8x8xf32>) {{.*}}loc("block2.MatMul.0")
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf32>, tensor<8x8xf32>) {{.*}}loc("model.mlir":12:5)
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf16>, tensor<8x8xf16>) {{.*}}loc("model.mlir":13:5)
func.func @encoder(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32> loc("p2o.MatMul.0")
  // A name with a file location inside it matches by the name.
  %1 = linalg.matmul ins(%0, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32> loc("p2o.MatMul.1"("model.mlir":3:1))
  %2 = linalg.matmul ins(%1, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32> loc("block2.MatMul.0")
  %3 = linalg.matmul ins(%2, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32> loc("model.mlir":12:5)
  %4 = linalg.matmul ins(%3, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32> loc("model.mlir":13:5)
  return %4 : tensor<8x8xf32>
}

// CHECK-LABEL: func.func @head
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf32>, tensor<8x8xf32>)
func.func @head(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32> loc("p2o.MatMul.7")
  return %0 : tensor<8x8xf32>
}

// A selector that selects nothing is a stale or misspelt policy: an error
// per rule, with its place in the file.
// UNMATCHED-NOT: p2o.MatMul.0
// UNMATCHED: error: policy file: {{.*}}selectors-unmatched.yaml:4:5: loc 'p2o.Conv.99' matches no op
// UNMATCHED: error: policy file: {{.*}}selectors-unmatched.yaml:6:5: in '@decoder' matches no op

// BAD: error: mixed-precision: {{.*}}selectors-bad.yaml:2:10: bad pattern in 'loc': invalid glob pattern, unmatched '['

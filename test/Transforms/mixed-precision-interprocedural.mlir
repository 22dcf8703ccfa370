// RUN: amp-opt %s --mixed-precision=placement=greedy --verify-each | FileCheck %s
// RUN: amp-opt %s --mixed-precision="keep-io-types=false placement=greedy" --verify-each | FileCheck %s --check-prefix=NOKEEP
// Nested on functions, signatures never change: calls are cast at the call.
// RUN: amp-opt %s --pass-pipeline='builtin.module(func.func(mixed-precision{placement=greedy}))' --verify-each | FileCheck %s --check-prefix=NESTED

// On a module, a private function's signature follows its body and every
// call is updated with it; public signatures stay f32 unless
// keep-io-types=false (TVM #9357).

// CHECK-LABEL: func.func private @helper
// CHECK-SAME: (%{{.+}}: tensor<4x4xf16>, %{{.+}}: tensor<4x4xf16>, %{{.+}}: tensor<4x4xf32>) -> tensor<4x4xf16>
// CHECK: math.tanh %{{.+}} : tensor<4x4xf16>
// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[A:.+]]: tensor<4x4xf32>, %[[W:.+]]: tensor<4x4xf32>, %[[O:.+]]: tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-DAG: %[[W16:.+]] = arith.truncf %[[W]]
// CHECK-DAG: %[[A16:.+]] = arith.truncf %[[A]]
// CHECK: %[[R0:.+]] = call @helper(%[[A16]], %[[W16]], %[[O]]) : (tensor<4x4xf16>, tensor<4x4xf16>, tensor<4x4xf32>) -> tensor<4x4xf16>
// CHECK: %[[R1:.+]] = call @helper(%[[R0]], %[[W16]], %[[O]])
// CHECK: %[[OUT:.+]] = arith.extf %[[R1]] : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK: return %[[OUT]]
// CHECK-LABEL: func.func private @external
// CHECK-SAME: (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-LABEL: func.func @calls_external
// CHECK: %[[E:.+]] = arith.extf %{{.+}} : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK: call @external(%[[E]]) : (tensor<4x4xf32>) -> tensor<4x4xf32>

// NOKEEP-LABEL: func.func @caller
// NOKEEP-SAME: (%[[A:.+]]: tensor<4x4xf16>, %[[W:.+]]: tensor<4x4xf16>, %{{.+}}: tensor<4x4xf32>) -> tensor<4x4xf16>
// NOKEEP-NOT: arith.truncf
// NOKEEP: call @helper(%[[A]], %[[W]], %{{.+}})

// NESTED-LABEL: func.func private @helper
// NESTED-SAME: (%{{.+}}: tensor<4x4xf32>, %{{.+}}: tensor<4x4xf32>, %{{.+}}: tensor<4x4xf32>) -> tensor<4x4xf32>
// NESTED-LABEL: func.func @caller
// NESTED: call @helper(%{{.+}}, %{{.+}}, %{{.+}}) : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>

func.func private @helper(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>, %o: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.matmul ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%o : tensor<4x4xf32>) -> tensor<4x4xf32>
  %t = math.tanh %m : tensor<4x4xf32>
  return %t : tensor<4x4xf32>
}
func.func @caller(%a: tensor<4x4xf32>, %w: tensor<4x4xf32>, %o: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = func.call @helper(%a, %w, %o) : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = func.call @helper(%0, %w, %o) : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}
func.func private @external(tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @calls_external(%a: tensor<4x4xf32>, %w: tensor<4x4xf32>, %o: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.matmul ins(%a, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%o : tensor<4x4xf32>) -> tensor<4x4xf32>
  %t = math.tanh %m : tensor<4x4xf32>
  %0 = func.call @external(%t) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

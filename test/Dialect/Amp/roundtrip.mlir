// RUN: amp-opt %s --split-input-file | amp-opt | FileCheck %s

// A per-op policy on one op.
// CHECK-LABEL: func.func @per_op
// CHECK: math.exp %{{.*}} {amp.precision = #amp.precision<policy = never>}
func.func @per_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.exp %a {amp.precision = #amp.precision<policy = never>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A scope on a function; fields print in a fixed order whatever the input
// order.
// CHECK-LABEL: func.func @scope
// CHECK-SAME: amp.scope = #amp.precision<policy = follow, low = bf16, accumulate = f32>
func.func @scope(%a: tensor<4xf32>) -> tensor<4xf32>
    attributes {amp.scope = #amp.precision<accumulate = f32, low = bf16, policy = follow>} {
  return %a : tensor<4xf32>
}

// -----

// A scope on a loop (like an autocast region) nested in a function scope.
// CHECK-LABEL: func.func @nested_scopes
// CHECK-SAME: amp.scope = #amp.precision<low = f16>
// CHECK: scf.for
// CHECK: amp.scope = #amp.precision<policy = never>
func.func @nested_scopes(%a: f32) -> f32
    attributes {amp.scope = #amp.precision<low = f16>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %a) -> f32 {
    %s = arith.addf %acc, %a : f32
    scf.yield %s : f32
  } {amp.scope = #amp.precision<policy = never>}
  return %r : f32
}

// -----

// Low precision accumulation is stated explicitly.
// CHECK-LABEL: func.func @low_accumulate
// CHECK: #amp.precision<policy = allow, low = f16, accumulate = f16>
func.func @low_accumulate(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul {amp.precision = #amp.precision<policy = allow, low = f16, accumulate = f16>}
      ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// The enum attribute on its own.
// CHECK-LABEL: func.func @policy_enum
// CHECK-SAME: test.policy = #amp.policy<allow>
func.func @policy_enum() attributes {test.policy = #amp.policy<allow>} {
  return
}

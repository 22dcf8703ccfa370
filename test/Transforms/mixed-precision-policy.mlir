// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --mixed-precision=placement=greedy --verify-each | FileCheck %s
// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --mixed-precision="never=linalg.matmul follow=math.exp placement=greedy" --verify-each | FileCheck %s --check-prefix=OPTS
// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --mixed-precision="policy-file=%S/Inputs/policy.json placement=greedy" --verify-each | FileCheck %s --check-prefix=FILE
// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --mixed-precision="policy-file=%S/Inputs/policy.yaml placement=greedy" --verify-each | FileCheck %s --check-prefix=FILE
// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --mixed-precision="missing-op=follow placement=greedy" --verify-each | FileCheck %s --check-prefix=MISSING

// Precedence: amp.precision on the op > amp.scope on an enclosing op >
// options > policy file > the model > traits.

// The model: the matmul runs low, exp stays f32.
// CHECK-LABEL: func.func @defaults
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x4xf16>, tensor<4x4xf16>)
// CHECK: math.exp %{{.+}} : tensor<4x4xf32>
// Options override the model.
// OPTS-LABEL: func.func @defaults
// OPTS: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x4xf32>, tensor<4x4xf32>)
// OPTS: math.exp %{{.+}} : tensor<4x4xf32>
// The policy file: exp follows; the matmul, with 16 elements, stays f32.
// FILE-LABEL: func.func @defaults
// FILE: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x4xf32>, tensor<4x4xf32>)
// FILE: math.exp %{{.+}} : tensor<4x4xf32>
func.func @defaults(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = math.exp %0 : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

// With a follow exp (from options or the file), exp runs low after a low
// contraction.
// OPTS-LABEL: func.func @exp_follows
// OPTS: linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<1x8x8xf16>, tensor<1x8x8xf16>)
// OPTS: math.exp %{{.+}} : tensor<1x8x8xf16>
// FILE-LABEL: func.func @exp_follows
// FILE: linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<1x8x8xf16>, tensor<1x8x8xf16>)
// FILE: math.exp %{{.+}} : tensor<1x8x8xf16>
// CHECK-LABEL: func.func @exp_follows
// CHECK: math.exp %{{.+}} : tensor<1x8x8xf32>
func.func @exp_follows(%a: tensor<1x8x8xf32>, %b: tensor<1x8x8xf32>, %c: tensor<1x8x8xf32>) -> tensor<1x8x8xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<1x8x8xf32>, tensor<1x8x8xf32>) outs(%c : tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  %1 = math.exp %0 : tensor<1x8x8xf32>
  return %1 : tensor<1x8x8xf32>
}

// -----

// Attributes beat everything: the op's own attribute, then the scope.
// CHECK-LABEL: func.func @attributes
// CHECK: linalg.matmul {amp.precision = #amp.precision<policy = never>} ins(%{{.+}}, %{{.+}} : tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK: math.exp %{{.+}} {amp.precision = #amp.precision<policy = follow>} : tensor<8x8xf32>
// OPTS-LABEL: func.func @attributes
// OPTS: math.exp %{{.+}} {amp.precision = #amp.precision<policy = never>} : tensor<8x8xf32>
func.func @attributes(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = linalg.matmul {amp.precision = #amp.precision<policy = never>} ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = math.exp %0 {amp.precision = #amp.precision<policy = follow>} : tensor<8x8xf32>
  %2 = math.exp %1 {amp.precision = #amp.precision<policy = never>} : tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A scope like an autocast region: everything in the function runs bf16,
// and an inner scope can switch conversion off.
// CHECK-LABEL: func.func @scoped
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xbf16>, tensor<8x8xbf16>) outs(%{{.+}} : tensor<8x8xf32>)
// CHECK: scf.execute_region
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf32>, tensor<8x8xf32>)
func.func @scoped(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
    attributes {amp.scope = #amp.precision<low = bf16>} {
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = scf.execute_region -> tensor<8x8xf32> {
    %2 = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %2 : tensor<8x8xf32>
  } {amp.scope = #amp.precision<policy = never>}
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// The policy file's accumulate rule: a reduction of at most 64 elements
// accumulates low; a longer one keeps f32.
// FILE-LABEL: func.func @file_accumulate
// FILE: linalg.reduce { arith.addf } ins(%{{.+}} : tensor<4x64xf16>) outs(%{{.+}} : tensor<4xf16>)
// FILE: linalg.reduce ins(%{{.+}} : tensor<4x512xf16>) outs(%{{.+}} : tensor<4xf32>)
func.func @file_accumulate(%x: tensor<4x64xf32>, %y: tensor<4x512xf32>, %r: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %tx = math.tanh %x {amp.precision = #amp.precision<policy = allow>} : tensor<4x64xf32>
  %ty = math.tanh %y {amp.precision = #amp.precision<policy = allow>} : tensor<4x512xf32>
  %0 = linalg.reduce { arith.addf } ins(%tx : tensor<4x64xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
  %1 = linalg.reduce { arith.addf } ins(%ty : tensor<4x512xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// An op of a dialect amp has never seen stays f32 with casts at its
// boundary; missing-op=follow lets it follow its inputs.
// CHECK-LABEL: func.func @unknown_op
// CHECK: %[[M:.+]] = linalg.matmul {{.*}} -> tensor<4x4xf32>
// CHECK: "foo.compute"(%[[M]]) : (tensor<4x4xf32>) -> tensor<4x4xf32>
// MISSING-LABEL: func.func @unknown_op
// MISSING: %[[M:.+]] = linalg.matmul {{.*}} -> tensor<4x4xf32>
// MISSING: %[[ML:.+]] = arith.truncf %[[M]]
// MISSING: "foo.compute"(%[[ML]]) : (tensor<4x4xf16>) -> tensor<4x4xf16>
func.func @unknown_op(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = "foo.compute"(%0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

// A policy on an op inside a body applies to the op that owns the body: a
// never body op keeps the generic f32, and with every body op allowed to run
// low (exp made follow) the generic follows its low input.
#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @body_policy
// CHECK: linalg.generic
// CHECK: math.exp %{{.+}} : f32
// OPTS-LABEL: func.func @body_policy
// OPTS: math.tanh %{{.+}} : f16
// OPTS: math.exp %{{.+}} : f16
// FILE-LABEL: func.func @body_policy
// FILE: math.exp %{{.+}} : f16
func.func @body_policy(%a: tensor<1x4x8xf32>, %b: tensor<1x8x4xf32>, %z: tensor<1x4x4xf32>, %e: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.batch_matmul ins(%a, %b : tensor<1x4x8xf32>, tensor<1x8x4xf32>) outs(%z : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %c = tensor.collapse_shape %m [[0, 1], [2]] : tensor<1x4x4xf32> into tensor<4x4xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    %y = math.exp %t : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  return %g : tensor<4x4xf32>
}

// -----

// An attribute on a body op counts too.
#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @body_attribute
// CHECK: math.tanh %{{.+}} {amp.precision = #amp.precision<policy = never>} : f32
func.func @body_attribute(%a: tensor<1x4x8xf32>, %b: tensor<1x8x4xf32>, %z: tensor<1x4x4xf32>, %e: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.batch_matmul ins(%a, %b : tensor<1x4x8xf32>, tensor<1x8x4xf32>) outs(%z : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %c = tensor.collapse_shape %m [[0, 1], [2]] : tensor<1x4x4xf32> into tensor<4x4xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x {amp.precision = #amp.precision<policy = never>} : f32
    linalg.yield %t : f32
  } -> tensor<4x4xf32>
  return %g : tensor<4x4xf32>
}

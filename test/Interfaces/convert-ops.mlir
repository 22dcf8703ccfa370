// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --amp-test-convert-ops --verify-diagnostics | FileCheck %s
// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --amp-test-convert-ops=low=bf16 2>/dev/null | FileCheck %s --check-prefix=BF16

// Elementwise arithmetic: operands cast down once per value, the op computes
// low, its result is cast back for f32 users.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>)
// CHECK: %[[T:.+]] = arith.truncf %[[A]] : tensor<4xf32> to tensor<4xf16>
// CHECK-NOT: arith.truncf %[[A]]
// CHECK: %[[M:.+]] = arith.mulf %[[T]], %[[T]] : tensor<4xf16>
// CHECK: %[[E:.+]] = arith.extf %[[M]] : tensor<4xf16> to tensor<4xf32>
// CHECK: return %[[E]]
// BF16-LABEL: func.func @elementwise
// BF16: arith.mulf %{{.+}}, %{{.+}} : tensor<4xbf16>
func.func @elementwise(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.mulf %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Constants are converted at compile time, never with a runtime cast.
// CHECK-LABEL: func.func @constants
// CHECK-DAG: arith.constant 5.000000e-01 : f16
// CHECK-DAG: arith.constant dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf16>
// BF16-LABEL: func.func @constants
// BF16-DAG: arith.constant 5.000000e-01 : bf16
func.func @constants() -> (f32, tensor<2xf32>) {
  %0 = arith.constant 0.5 : f32
  %1 = arith.constant dense<[1.0, 2.5]> : tensor<2xf32>
  return %0, %1 : f32, tensor<2xf32>
}

// -----

// A constant that overflows f16 is never clamped: it stays f32. bf16 has
// f32's range and takes it.
// CHECK-LABEL: func.func @overflow
// CHECK: arith.constant 1.280000e+05 : f32
// BF16-LABEL: func.func @overflow
// BF16: arith.constant 1.280000e+05 : bf16
func.func @overflow() -> f32 {
  // expected-remark @+1 {{amp: not converted to 'f16'}}
  %0 = arith.constant 128000.0 : f32
  return %0 : f32
}

// -----

// A matmul reads f16 and accumulates into its f32 outs; no cast on the
// result.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8x16xf32>, %[[C:.+]]: tensor<4x16xf32>)
// CHECK-DAG: %[[A16:.+]] = arith.truncf %[[A]] : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK-DAG: %[[B16:.+]] = arith.truncf %[[B]] : tensor<8x16xf32> to tensor<8x16xf16>
// CHECK: %[[R:.+]] = linalg.matmul ins(%[[A16]], %[[B16]] : tensor<4x8xf16>, tensor<8x16xf16>) outs(%[[C]] : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NOT: arith.extf
// CHECK: return %[[R]]
// BF16-LABEL: func.func @matmul
// BF16: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xbf16>, tensor<8x16xbf16>) outs(%{{.+}} : tensor<4x16xf32>)
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// A parallel generic computes its body in low precision.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @generic_elementwise
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}} : tensor<8xf16>) outs(%{{.+}} : tensor<8xf16>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT: %[[C:.+]] = arith.constant 2.000000e+00 : f16
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[IN]], %[[C]] : f16
// CHECK-NEXT: %[[T:.+]] = math.tanh %[[M]] : f16
// CHECK-NEXT: linalg.yield %[[T]] : f16
// CHECK: arith.extf %{{.+}} : tensor<8xf16> to tensor<8xf32>
func.func @generic_elementwise(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %c = arith.constant 2.0 : f32
    %m = arith.mulf %in, %c : f32
    %t = math.tanh %m : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A sum is left alone by default; with all=true it reads f16 and
// accumulates in f32 (see convert-ops-all.mlir).
// CHECK-LABEL: func.func @sum_untouched
// CHECK-NOT: f16
// CHECK: return
func.func @sum_untouched(%a: tensor<4x256xf32>, %r: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.reduce { arith.addf } ins(%a : tensor<4x256xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
  return %0 : tensor<4xf32>
}

// -----

// A max pool is exact, so its accumulator goes low too; the window is only
// a shape and keeps its type.
// CHECK-LABEL: func.func @max_pool
// CHECK: linalg.pooling_nhwc_max
// CHECK-SAME: ins(%{{.+}}, %{{.+}} : tensor<1x8x8x3xf16>, tensor<2x2xf32>) outs(%{{.+}} : tensor<1x4x4x3xf16>)
func.func @max_pool(%in: tensor<1x8x8x3xf32>, %k: tensor<2x2xf32>, %out: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  %0 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %k : tensor<1x8x8x3xf32>, tensor<2x2xf32>) outs(%out : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

// tensor.pad converts its yielded padding value.
// CHECK-LABEL: func.func @pad
// CHECK: tensor.pad %{{.+}} low[1] high[1]
// CHECK: tensor.yield %{{.+}} : f16
// CHECK: } : tensor<4xf16> to tensor<6xf16>
func.func @pad(%t: tensor<4xf32>, %v: f32) -> tensor<6xf32> {
  %p = tensor.pad %t low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %p : tensor<6xf32>
}

// -----

// Ops on buffers are left alone unless asked for (buffers=true, tested in
// convert-ops-buffers.mlir), so that memref test harnesses stay as written.
// CHECK-LABEL: func.func @memref_matmul
// CHECK-NOT: arith.truncf
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<4x8xf32>, memref<8x4xf32>)
func.func @memref_matmul(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  return
}

// -----

// Integer operands, casts, bitcasts and calls are never touched.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: f16
// CHECK: return
func.func @untouched(%i: i32, %a: f32) -> (i32, f32, i32) {
  %0 = arith.addi %i, %i : i32
  %1 = arith.bitcast %a : f32 to i32
  %2 = func.call @ext(%a) : (f32) -> f32
  return %0, %2, %1 : i32, f32, i32
}
func.func private @ext(f32) -> f32

// -----

// arith casts reject unranked tensors and memrefs: an op whose results could
// not be cast back for its users is left alone.
// CHECK-LABEL: func.func @uncastable_results
// CHECK-NOT: f16
// CHECK: return
func.func @uncastable_results(%a: tensor<4xf32>) -> tensor<*xf32> {
  // expected-remark @+1 {{amp: not converted to 'f16'}}
  %u = tensor.cast %a : tensor<4xf32> to tensor<*xf32>
  return %u : tensor<*xf32>
}

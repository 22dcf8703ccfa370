// RUN: amp-opt %s --amp-emulate-precision="precision=bf16 excess-precision=true" | FileCheck %s
// RUN: amp-opt %s --amp-emulate-precision="precision=bf16" | FileCheck %s --check-prefix=PEROP

// With excess precision (amp's CPU backend for bf16), a chain of low
// elementwise ops computes in f32: between the add and the mul a value is
// rounded only when exactly one of them is low (the xor of their gates);
// where it leaves the chain (into the matmul) it is rounded behind the
// mul's gate.

// CHECK-LABEL: func.func @main
// CHECK: arith.cmpf une
// CHECK: %[[ADDON:.+]] = arith.cmpf une
// CHECK: %[[MULON:.+]] = arith.cmpf une
// CHECK: %[[ADD:.+]] = arith.addf
// CHECK-NOT: arith.truncf
// CHECK: %[[EITHER:.+]] = arith.xori %[[ADDON]], %[[MULON]] : i1
// CHECK: %[[IN:.+]] = linalg.generic {{.*}} ins(%[[ADD]] : tensor<4x4xf32>)
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK: arith.select %[[EITHER]]
// CHECK-NOT: arith.xori
// CHECK: %[[MUL:.+]] = arith.mulf %[[IN]], %[[IN]] : tensor<4x4xf32>
// CHECK: %[[OUT:.+]] = linalg.generic {{.*}} ins(%[[MUL]] : tensor<4x4xf32>)
// CHECK: arith.select %[[MULON]]
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x4xf32>, tensor<4x4xf32>)

// Without it, every low op rounds its result (behind its own gate).
// PEROP-LABEL: func.func @main
// PEROP-NOT: arith.xori
// PEROP: arith.addf
// PEROP: linalg.generic
// PEROP: arith.mulf
func.func @main(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32> loc("mm")
  %b = arith.constant dense<0.3> : tensor<4x4xf32>
  %a = arith.addf %m, %b : tensor<4x4xf32> loc("add")
  %c = arith.mulf %a, %a : tensor<4x4xf32> loc("mul")
  %m2 = linalg.matmul ins(%c, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32> loc("mm2")
  return %m2 : tensor<4x4xf32>
}

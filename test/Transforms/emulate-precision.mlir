// RUN: amp-opt %s --split-input-file --amp-emulate-precision="gates=%t.json" | FileCheck %s
// RUN: FileCheck %s --input-file=%t.json --check-prefix=GATES
// RUN: not amp-opt %s --split-input-file --amp-emulate-precision="entry=nothing" 2>&1 | FileCheck %s --check-prefix=ENTRY
// With gates-only, the decisions under a policy and nothing changed.
// RUN: amp-opt %s --amp-emulate-precision="gates-only=true never=linalg.matmul gates=%t.only.json" | FileCheck %s --check-prefix=ONLY
// RUN: FileCheck %s --input-file=%t.only.json --check-prefix=ONLYGATES
// ONLY: func.func @main(%{{.+}}: tensor<4x8xf32>, %{{.+}}: tensor<8x4xf32>) -> tensor<4x4xf32>
// ONLY-NOT: truncf
// ONLYGATES: "argument": -1,
// ONLYGATES: "loc": "p2o.MatMul.0",
// ONLYGATES-NEXT: "op": "linalg.matmul",
// ONLYGATES-NEXT: "mode": "f32",
// The add, between two f32 matmuls, follows them.
// ONLYGATES: "loc": "p2o.Add.1",
// ONLYGATES-NEXT: "op": "arith.addf",
// ONLYGATES-NEXT: "mode": "f32",

// The program stays f32; where the converted program would hold a value in
// f16, it is rounded (truncf then extf, selected by the gate of the op that
// computes low) in an elementwise generic. Gates come from a new last
// argument, one per location name.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[W:.+]]: tensor<8x4xf32>, %[[GATEARG:.+]]: tensor<4xf32>) -> tensor<4x4xf32>
// CHECK: %[[G0:.+]] = tensor.extract %[[GATEARG]][%c0]
// CHECK: %[[ON0:.+]] = arith.cmpf une, %[[G0]], %[[ZERO:.+]] : f32
// CHECK: %[[G1:.+]] = tensor.extract %[[GATEARG]][%c1]
// CHECK: %[[ON1:.+]] = arith.cmpf une, %[[G1]], %[[ZERO]] : f32
// The matmul reads f16 operands; its f32 accumulator (outs) is not rounded.
// CHECK: %[[RX:.+]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:   %[[T:.+]] = arith.truncf %[[IN]] : f32 to f16
// CHECK-NEXT:   %[[E:.+]] = arith.extf %[[T]] : f16 to f32
// CHECK-NEXT:   %[[S:.+]] = arith.select %[[ON0]], %[[E]], %[[IN]] : f32
// CHECK-NEXT:   linalg.yield %[[S]]
// CHECK: %[[RW:.+]] = linalg.generic {{.*}} ins(%[[W]] : tensor<8x4xf32>)
// CHECK: arith.select %[[ON0]]
// CHECK: %[[MM:.+]] = linalg.matmul ins(%[[RX]], %[[RW]] : tensor<4x8xf32>, tensor<8x4xf32>) outs(%[[ACC:.+]] : tensor<4x4xf32>)
// The add reads the accumulator rounded and stores its result in f16 for
// the next matmul, behind its own gate.
// CHECK: %[[RMM:.+]] = linalg.generic {{.*}} ins(%[[MM]] : tensor<4x4xf32>)
// CHECK: arith.select %[[ON1]]
// CHECK: %[[ADD:.+]] = arith.addf %[[RMM]], %{{.+}} : tensor<4x4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[ADD]] : tensor<4x4xf32>)
// CHECK: arith.select %[[ON1]]
// CHECK: linalg.matmul
// exp reads the second matmul's f32 accumulator and stays f32: no gate, no
// rounding.
// CHECK: math.exp %{{.+}} : tensor<4x4xf32>
// CHECK-NOT: arith.truncf
// CHECK: return
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32> loc("p2o.MatMul.0")
  %b = arith.constant dense<0.5> : tensor<4x4xf32>
  %a = arith.addf %m, %b : tensor<4x4xf32> loc("p2o.Add.1")
  %m2 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32> loc("p2o.MatMul.3")
  %r = math.exp %m2 : tensor<4x4xf32> loc("p2o.Exp.2")
  return %r : tensor<4x4xf32>
}

// The gates file lists every op that computes, in program order, whatever
// its mode (so that the list is the same under any policy): its location
// name, which a policy rule selects (`loc: p2o.MatMul.0`), its mode, whether
// it is low by its own category, and its FLOPs; the exp's gate is unused.
// GATES: "entry": "main",
// GATES: "argument": 2,
// GATES: "total-flops": 416,
// GATES: "loc": "p2o.MatMul.0",
// GATES-NEXT: "op": "linalg.matmul",
// GATES-NEXT: "mode": "low",
// GATES-NEXT: "allow": true,
// GATES-NEXT: "flops": 256
// GATES: "loc": "p2o.Add.1",
// GATES-NEXT: "op": "arith.addf",
// GATES-NEXT: "mode": "low",
// GATES-NEXT: "allow": false,
// GATES-NEXT: "flops": 16
// GATES: "loc": "p2o.MatMul.3",
// GATES: "flops": 128
// GATES: "loc": "p2o.Exp.2",
// GATES-NEXT: "op": "math.exp",
// GATES-NEXT: "mode": "f32",

// ENTRY: error: amp-emulate-precision: no function @nothing with a body (entry=nothing)

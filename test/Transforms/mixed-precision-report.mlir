// The JSON report lists every op's decision with its source and reason.
// RUN: amp-opt %s --mixed-precision="report=%t.json placement=greedy" -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// `report=-` writes it to stdout.
// RUN: amp-opt %s --mixed-precision="report=- placement=greedy" -o /dev/null | FileCheck %s --check-prefix=JSON
// Remarks explain each decision at the op.
// RUN: amp-opt %s --mixed-precision="explain=true placement=greedy" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// The pass also declares MLIR statistics with the same counts; Debian's
// release build of MLIR compiles statistics out, so with explain=true the
// pass states them in a summary remark on the root, equal to the JSON
// summary (checked after the ops' remarks, below).
// Running the pass twice gives the same IR as running it once.
// RUN: amp-opt %s --mixed-precision=placement=greedy -o %t.once.mlir
// RUN: amp-opt %t.once.mlir --mixed-precision=placement=greedy -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// JSON: "precision": "f16",
// JSON: "summary": {
// JSON-NEXT: "ops-low": 3,
// JSON-NEXT: "ops-f32": 1,
// JSON-NEXT: "ops-wide-accumulator": 1,
// JSON-NEXT: "placement": "greedy",
// JSON-NEXT: "casts-inserted": 3,
// JSON-NEXT: "cast-bytes": 480,
// JSON-NEXT: "constant-bytes-saved": 32
// JSON: "op": "linalg.matmul",
// JSON-NEXT: "loc": "{{.*}}mixed-precision-report.mlir:{{[0-9]+}}:8",
// JSON-NEXT: "mode": "low",
// JSON-NEXT: "category": "allow",
// JSON-NEXT: "source": "model",
// JSON-NEXT: "reason": "contraction: low-precision inputs, accumulator kept in the accumulate type",
// JSON-NEXT: "low": "f16",
// JSON-NEXT: "accumulate": "f32"
// JSON: "op": "linalg.reduce",
// JSON: "mode": "wide-accumulator",
// JSON: "op": "math.exp",
// JSON: "mode": "f32",
// JSON-NEXT: "category": "never",
// JSON-NEXT: "source": "model",
// JSON-NEXT: "reason": "exp overflows f16 (max 65504) for inputs above 11",

// REMARK-DAG: remark: amp: linalg.matmul runs in 'f16' (allow, model): contraction: low-precision inputs, accumulator kept in the accumulate type
// REMARK-DAG: remark: amp: math.tanh runs in 'f16' (follow, model): bounded or slowly varying: accurate in low precision; its inputs are low
// REMARK-DAG: remark: amp: arith.mulf runs in 'f16' (follow, model): elementwise arithmetic is accurate in low precision; its inputs are low
// REMARK-DAG: remark: amp: math.exp stays f32 (never, model): exp overflows f16 (max 65504) for inputs above 11
// REMARK-DAG: remark: amp: linalg.reduce reads 'f16', accumulates in 'f32' (never, model): sum reduction loses accuracy when accumulated in low precision
// REMARK: remark: amp: summary: 3 ops low, 1 ops f32, 1 ops with a wide accumulator, 3 casts inserted (480 bytes), 32 constant bytes saved

func.func @block(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>, %c: tensor<4x4xf32>, %r: tensor<4xf32>) -> (tensor<4xf32>, tensor<4x4xf32>) {
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %t = math.tanh %m : tensor<4x4xf32>
  %k = arith.constant dense<0.5> : tensor<4x4xf32>
  %s = arith.mulf %t, %k : tensor<4x4xf32>
  %sum = linalg.reduce { arith.addf } ins(%s : tensor<4x4xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
  %e = math.exp %m : tensor<4x4xf32>
  return %sum, %e : tensor<4xf32>, tensor<4x4xf32>
}

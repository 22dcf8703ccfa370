// RUN: amp-opt %s --split-input-file --mixed-precision --verify-each | FileCheck %s
// RUN: amp-opt %s --split-input-file --mixed-precision="input-range=0=-14:14" --verify-each | FileCheck %s --check-prefix=RANGE
// RUN: amp-opt %s --split-input-file --mixed-precision="precision=bf16" --verify-each | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %s --split-input-file --mixed-precision="explain" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: amp-opt %s --split-input-file --mixed-precision="report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: amp-opt %s --split-input-file --mixed-precision="policy-file=%S/Inputs/ranges-policy.json explain" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=POLICY

// What values can be decides. exp stays f32 because it overflows f16; its
// result may reach inf (the argument is only assumed to fit f16), and so
// may everything computed from it before a bounded op: those ops compute in
// f32 and nothing rounds their results to f16. A program with no op that
// gains from f16 stays as it is.
// CHECK-LABEL: func.func @exp_chain
// CHECK-NOT: f16
// CHECK: return
// EXPLAIN: remark: amp: arith.maximumf stays f32 (follow, range): reads operand 0, which may exceed f16: math.exp at {{.*}} of values assumed in [-65504, 65504] may reach inf, beyond f16's largest value 65504
// EXPLAIN: remark: amp: math.sqrt stays f32 (follow, range): reads operand 0, which may exceed f16: in [0, inf], computed from math.exp
func.func @exp_chain(%x: tensor<64xf32>) -> tensor<64xf32> {
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %e = math.exp %x : tensor<64xf32>
  %m = arith.maximumf %e, %zero : tensor<64xf32>
  %s = math.sqrt %m : tensor<64xf32>
  %r = arith.maximumf %s, %zero : tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// The same chain before a contraction. Unbounded, sqrt's result may exceed
// f16 and the matmul reads it in f32. Given the argument's range (|x| <= 14:
// exp <= 1.2e6, sqrt <= 1097), exp's result still stays f32 but sqrt's
// fits: it is rounded once for the matmul. In bf16, which has f32's range,
// the ops after exp follow the contraction into bf16.
// CHECK-LABEL: func.func @exp_chain_matmul
// CHECK: %[[E:.+]] = math.exp %{{.+}} : tensor<8x8xf32>
// CHECK: %[[S:.+]] = math.sqrt %{{.+}} : tensor<8x8xf32>
// CHECK: linalg.matmul ins(%[[S]], %{{.+}} : tensor<8x8xf32>, tensor<8x8xf32>)
// RANGE-LABEL: func.func @exp_chain_matmul
// RANGE: math.exp %{{.+}} : tensor<8x8xf32>
// RANGE: %[[S:.+]] = math.sqrt %{{.+}} : tensor<8x8xf32>
// RANGE: %[[SL:.+]] = arith.truncf %[[S]] : tensor<8x8xf32> to tensor<8x8xf16>
// RANGE: linalg.matmul ins(%[[SL]], %{{.+}} : tensor<8x8xf16>, tensor<8x8xf16>)
// BF16-LABEL: func.func @exp_chain_matmul
// BF16: math.exp %{{.+}} : tensor<8x8xf32>
// BF16: math.sqrt %{{.+}} : tensor<8x8xbf16>
// BF16: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xbf16>, tensor<8x8xbf16>)
// EXPLAIN: remark: amp: linalg.matmul stays f32 (allow, range): reads operand 0, which may exceed f16
// A policy file's rule may state the range of an op's results:
// POLICY-LABEL: func.func @exp_chain_matmul
// POLICY: %[[S:.+]] = math.sqrt %{{.+}} : tensor<8x8xf16>
// POLICY: linalg.matmul ins(%[[S]], %{{.+}} : tensor<8x8xf16>, tensor<8x8xf16>)
// REPORT: "op": "linalg.matmul",
// REPORT-NEXT: "loc": {{.*}}
// REPORT-NEXT: "mode": "f32",
// REPORT-NEXT: "category": "allow",
// REPORT-NEXT: "source": "range",
// REPORT-NEXT: "reason": "reads operand 0, which may exceed f16: in [0, inf], computed from math.exp at {{.*}} of values assumed in [-65504, 65504], which may reach inf, beyond f16's largest value 65504",
func.func @exp_chain_matmul(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant dense<0.0> : tensor<8x8xf32>
  %e = math.exp %x : tensor<8x8xf32>
  %m = arith.maximumf %e, %zero : tensor<8x8xf32>
  %s = math.sqrt %m : tensor<8x8xf32>
  %y = linalg.matmul ins(%s, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

// Attention: a softmax's output is in [0, 1], not a sum that may exceed
// f16. The probabilities x V contraction reads it in f16; the residual add
// after it is free to go either way (here f32 moves fewer bytes), and the
// output projection reads its result in f16.
// CHECK-LABEL: func.func @attention
// CHECK: %[[P:.+]] = linalg.softmax
// CHECK: %[[PL:.+]] = arith.truncf %[[P]] : tensor<4x16xf32> to tensor<4x16xf16>
// CHECK: linalg.matmul ins(%[[PL]], %{{.+}} : tensor<4x16xf16>, tensor<16x8xf16>)
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xf16>, tensor<8x8xf16>)
// The report gives each op's result ranges:
// REPORT: "op": "linalg.softmax",
// REPORT: "ranges": [
// REPORT-NEXT: "result 0 in [0, 1]: output of linalg.softmax at mixed-precision-ranges.mlir:{{[0-9]+}}:8"
// EXPLAIN: remark: amp: linalg.matmul runs in 'f16' (allow, model)
// EXPLAIN: remark: amp: arith.addf stays f32 (follow, model): elementwise arithmetic is accurate in low precision; f32: fewest bytes moved
func.func @attention(%s: tensor<4x16xf32>, %v: tensor<16x8xf32>, %res: tensor<4x8xf32>, %wo: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  %a = linalg.matmul ins(%p, %v : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = arith.addf %a, %res : tensor<4x8xf32>
  %z = linalg.matmul ins(%y, %wo : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %z : tensor<4x8xf32>
}

// -----

// A value whose nonzero elements would all be subnormal in f16 stays f32
// (a scale by 1e-6 of values in [-1, 1]); in bf16 it would fit
// (test/Analysis/float-ranges.mlir).
// CHECK-LABEL: func.func @underflow
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf16>, tensor<8x8xf16>)
// CHECK: arith.mulf %{{.+}}, %{{.+}} : tensor<8x8xf32>
// EXPLAIN: remark: amp: arith.mulf stays f32 (follow, range): result 0 underflows f16: in [-1e-06, 1e-06]: every nonzero value is below f16's smallest normal 6.10352e-05 (subnormal or zero)
// REPORT: "op": "arith.mulf",
// REPORT-NEXT: "loc": {{.*}}
// REPORT-NEXT: "mode": "f32",
// REPORT-NEXT: "category": "follow",
// REPORT-NEXT: "source": "range",
// REPORT-NEXT: "reason": "result 0 underflows f16: in [-1e-06, 1e-06]
func.func @underflow(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t = math.tanh %m : tensor<8x8xf32>
  %k = arith.constant dense<1.0e-6> : tensor<8x8xf32>
  %y = arith.mulf %t, %k : tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

// An argument's own range (amp.range) is a fact: values of up to 1e6 cannot
// be f16, so the contraction reading them stays f32; an op the user allows
// explicitly keeps that policy.
// CHECK-LABEL: func.func @argument_range
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK: linalg.matmul {amp.precision = {{.+}}} ins(%{{.+}}, %{{.+}} : tensor<8x8xf16>, tensor<8x8xf16>)
// EXPLAIN: remark: amp: linalg.matmul stays f32 (allow, range): reads operand 0, which may exceed f16: in [-1e+06, 1e+06]: the range given for the argument, beyond f16's largest value 65504
func.func @argument_range(%x: tensor<8x8xf32> {amp.range = [-1.0e6, 1.0e6]}, %w: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %a = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  %b = linalg.matmul {amp.precision = #amp.precision<policy = allow>} ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %a, %b : tensor<8x8xf32>, tensor<8x8xf32>
}

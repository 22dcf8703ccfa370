// The optimal placement (the default) is checked against every labelling on
// small functions: the minimum cut's cost, the cost of its labelling and the
// best cost found by brute force are the same.
// RUN: amp-opt %s --split-input-file --amp-test-check-optimality=limit=16 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BRUTE
// RUN: amp-opt %s --split-input-file --mixed-precision --verify-each | FileCheck %s --check-prefix=OPT
// RUN: amp-opt %s --split-input-file --mixed-precision=placement=greedy --verify-each | FileCheck %s --check-prefix=GREEDY
// RUN: amp-opt %s --split-input-file --mixed-precision=placement=naive --verify-each | FileCheck %s --check-prefix=NAIVE
// Cast bytes: optimal <= greedy <= naive on each case, with optimal strictly
// better than greedy on @select_after_matmul.
// RUN: amp-opt %s --split-input-file --mixed-precision=report=- -o /dev/null | FileCheck %s --check-prefix=OPTREPORT
// RUN: amp-opt %s --split-input-file --mixed-precision="placement=greedy report=-" -o /dev/null | FileCheck %s --check-prefix=GREEDYREPORT
// RUN: not amp-opt %s --mixed-precision=placement=best -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: for the --placement option: Cannot find option named 'best'!
// BAD-NOT: func.func

// BRUTE: remark: amp: optimal placement moves [[C1:[0-9]+]] bytes (cut [[C1]]); the best of {{[0-9]+}} labellings moves [[C1]]
// BRUTE: remark: amp: optimal placement moves [[C2:[0-9]+]] bytes (cut [[C2]]); the best of {{[0-9]+}} labellings moves [[C2]]
// BRUTE: remark: amp: optimal placement moves [[C3:[0-9]+]] bytes (cut [[C3]]); the best of {{[0-9]+}} labellings moves [[C3]]
// BRUTE: remark: amp: optimal placement moves [[C4:[0-9]+]] bytes (cut [[C4]]); the best of {{[0-9]+}} labellings moves [[C4]]
// BRUTE: remark: amp: optimal placement moves [[C5:[0-9]+]] bytes (cut [[C5]]); the best of {{[0-9]+}} labellings moves [[C5]]

// A chain between two contractions runs low under every strategy but the
// naive one, which keeps everything between allow ops in f32.
// OPT-LABEL: func.func @chain
// OPT: math.tanh %{{.+}} : tensor<16x16xf16>
// OPT: arith.mulf %{{.+}}, %{{.+}} : tensor<16x16xf16>
// GREEDY-LABEL: func.func @chain
// GREEDY: math.tanh %{{.+}} : tensor<16x16xf16>
// NAIVE-LABEL: func.func @chain
// NAIVE: math.tanh %{{.+}} : tensor<16x16xf32>
// NAIVE: arith.mulf %{{.+}}, %{{.+}} : tensor<16x16xf32>
// OPTREPORT: "placement": "optimal",
// OPTREPORT-NEXT: "casts-inserted": 4,
// OPTREPORT-NEXT: "cast-bytes": 6144,
// GREEDYREPORT: "placement": "greedy",
// GREEDYREPORT-NEXT: "casts-inserted": 4,
// GREEDYREPORT-NEXT: "cast-bytes": 6144,
func.func @chain(%a: tensor<16x16xf32>, %w1: tensor<16x16xf32>, %w2: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = linalg.matmul ins(%a, %w1 : tensor<16x16xf32>, tensor<16x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  %1 = math.tanh %0 : tensor<16x16xf32>
  %2 = arith.mulf %1, %1 : tensor<16x16xf32>
  %3 = linalg.matmul ins(%2, %w2 : tensor<16x16xf32>, tensor<16x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %3 : tensor<16x16xf32>
}

// -----

// After a contraction whose f32 result leaves the function, greedy rounds
// the result to run the elementwise tail low and widens it again at exit;
// optimal reads the f32 accumulator directly: no cast at all.
// OPT-LABEL: func.func @select_after_matmul
// OPT: %[[M:.+]] = linalg.matmul {{.*}} -> tensor<16x16xf32>
// OPT-NOT: arith.truncf %[[M]]
// OPT: math.tanh %[[M]] : tensor<16x16xf32>
// OPT-NOT: arith.extf
// GREEDY-LABEL: func.func @select_after_matmul
// GREEDY: math.tanh %{{.+}} : tensor<16x16xf16>
// GREEDY: arith.extf
// OPTREPORT: "placement": "optimal",
// OPTREPORT-NEXT: "casts-inserted": 2,
// OPTREPORT-NEXT: "cast-bytes": 3072,
// GREEDYREPORT: "placement": "greedy",
// GREEDYREPORT-NEXT: "casts-inserted": 4,
// GREEDYREPORT-NEXT: "cast-bytes": 6144,
func.func @select_after_matmul(%a: tensor<16x16xf32>, %w: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = linalg.matmul ins(%a, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  %1 = math.tanh %0 : tensor<16x16xf32>
  %2 = arith.cmpf olt, %0, %1 : tensor<16x16xf32>
  %3 = arith.select %2, %0, %1 : tensor<16x16xi1>, tensor<16x16xf32>
  return %3 : tensor<16x16xf32>
}

// -----

// A value used by both a low and an f32 consumer is cast once. (The
// argument's range bounds exp's result, which may then be rounded to f16.)
// OPTREPORT: "placement": "optimal",
// OPTREPORT-NEXT: "casts-inserted": 2,
// OPTREPORT-NEXT: "cast-bytes": 3072,
// GREEDYREPORT: "placement": "greedy",
// GREEDYREPORT-NEXT: "casts-inserted": 2,
// GREEDYREPORT-NEXT: "cast-bytes": 3072,
// OPT-LABEL: func.func @shared_value
// OPT-COUNT-1: arith.truncf %{{.+}} : tensor<16x16xf32> to tensor<16x16xf16>
func.func @shared_value(%a: tensor<16x16xf32> {amp.range = [-4.0, 4.0]}, %w: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %0 = math.exp %a : tensor<16x16xf32>
  %1 = linalg.matmul ins(%0, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  %2 = math.log %0 : tensor<16x16xf32>
  return %1, %2 : tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// A loop-carried state between contractions.
// OPTREPORT: "placement": "optimal",
// OPTREPORT-NEXT: "casts-inserted": 4,
// OPTREPORT-NEXT: "cast-bytes": 1536,
// GREEDYREPORT: "placement": "greedy",
// GREEDYREPORT-NEXT: "casts-inserted": 4,
// GREEDYREPORT-NEXT: "cast-bytes": 1536,
// OPT-LABEL: func.func @loop
// OPT: scf.for {{.*}} -> (tensor<8x8xf16>)
func.func @loop(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %m0 = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t0 = math.tanh %m0 : tensor<8x8xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %t0) -> tensor<8x8xf32> {
    %m = linalg.matmul ins(%h, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
    %t = math.tanh %m : tensor<8x8xf32>
    scf.yield %t : tensor<8x8xf32>
  }
  %o = linalg.matmul ins(%r, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %o : tensor<8x8xf32>
}

// -----

// A sum after a contraction: greedy rounds the contraction's result so that
// tanh runs low and the sum reads f16; optimal sees that the f32
// accumulator is already there and rounding the whole tensor costs more
// than it saves, and keeps the tail in f32, moving about half the bytes.
// OPTREPORT: "placement": "optimal",
// OPTREPORT-NEXT: "casts-inserted": 2,
// OPTREPORT-NEXT: "cast-bytes": 7680,
// GREEDYREPORT: "placement": "greedy",
// GREEDYREPORT-NEXT: "casts-inserted": 3,
// GREEDYREPORT-NEXT: "cast-bytes": 13824,
// OPT-LABEL: func.func @sum_of_low
// OPT: math.tanh %{{.+}} : tensor<16x64xf32>
// OPT: linalg.reduce { arith.addf } ins(%{{.+}} : tensor<16x64xf32>) outs(%{{.+}} : tensor<16xf32>)
// GREEDY-LABEL: func.func @sum_of_low
// GREEDY: linalg.reduce ins(%{{.+}} : tensor<16x64xf16>) outs(%{{.+}} : tensor<16xf32>)
func.func @sum_of_low(%a: tensor<16x16xf32>, %w: tensor<16x64xf32>, %c: tensor<16x64xf32>, %r: tensor<16xf32>) -> tensor<16xf32> {
  %0 = linalg.matmul ins(%a, %w : tensor<16x16xf32>, tensor<16x64xf32>) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  %1 = math.tanh %0 : tensor<16x64xf32>
  %2 = linalg.reduce { arith.addf } ins(%1 : tensor<16x64xf32>) outs(%r : tensor<16xf32>) dimensions = [1]
  return %2 : tensor<16xf32>
}

// -----

// An scf.if yields a contraction's result on one side and its square on
// the other. The square may exceed f16 (the contraction reaches 640) and
// stays f32, so the if's result is f32 under every placement, and the
// contraction's low result is widened for it. The naive placement once
// typed the whole group f16 because the contraction produces into it,
// squaring in f16 (found by amp-fuzz).
// OPT-LABEL: func.func @branch_joins_f32_op
// OPT: arith.mulf %{{.+}}, %{{.+}} : tensor<16x16xf32>
// OPT: scf.if %{{.+}} -> (tensor<16x16xf32>)
// GREEDY-LABEL: func.func @branch_joins_f32_op
// GREEDY: arith.mulf %{{.+}}, %{{.+}} : tensor<16x16xf32>
// GREEDY: scf.if %{{.+}} -> (tensor<16x16xf32>)
// NAIVE-LABEL: func.func @branch_joins_f32_op
// NAIVE: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<16x16xf16>, tensor<16x16xf16>)
// NAIVE: arith.mulf %{{.+}}, %{{.+}} : tensor<16x16xf32>
// NAIVE: scf.if %{{.+}} -> (tensor<16x16xf32>)
func.func @branch_joins_f32_op(%a: tensor<16x16xf32> {amp.range = [-10.0, 10.0]}, %w: tensor<16x16xf32> {amp.range = [-4.0, 4.0]}, %p: i1) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  %1 = arith.mulf %0, %0 : tensor<16x16xf32>
  %2 = scf.if %p -> tensor<16x16xf32> {
    scf.yield %1 : tensor<16x16xf32>
  } else {
    scf.yield %0 : tensor<16x16xf32>
  }
  return %2 : tensor<16x16xf32>
}

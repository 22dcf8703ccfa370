// RUN: amp-opt %s --split-input-file -amp-test-print-ranges --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | grep "remark: range" | FileCheck %s
// RUN: amp-opt %s --split-input-file -amp-test-print-ranges="input-range=-14:14" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | grep "remark: range" | FileCheck %s --check-prefix=RANGE

// Arguments are assumed to fit f16. exp expands that assumption: its
// result may reach inf, and so may what is computed from it until a bounded
// op brings it back. With input-range=-14:14, exp is bounded by e^14 and
// the sqrt after it fits f16 again.
// CHECK: remark: range: result 0 [0, 0]; in [0, 0]; f16: fits; bf16: fits
// CHECK-NEXT: remark: range: result 0 [0, inf] expanded; math.exp at float-ranges.mlir:{{.*}} of values assumed in [-65504, 65504] may reach inf; f16: may overflow; bf16: fits
// CHECK-NEXT: remark: range: result 0 [0, inf] expanded; in [0, inf], computed from math.exp at {{.*}}, which may reach inf; f16: may overflow; bf16: fits
// CHECK-NEXT: remark: range: result 0 [0, inf] expanded; {{.*}} f16: may overflow
// CHECK-NEXT: remark: range: result 0 [0, 1]; in [0, 1]: output of math.tanh at {{.*}}; f16: fits; bf16: fits
// RANGE: remark: range: result 0 [0, 0]
// RANGE-NEXT: remark: range: result 0 [8.31529e-07, 1.2026e+06] expanded; math.exp at {{.*}} of values in [-14, 14] may reach 1.2026e+06; f16: may overflow; bf16: fits
// RANGE-NEXT: remark: range: result 0 [8.31529e-07, 1.2026e+06] expanded
// RANGE-NEXT: remark: range: result 0 [0.000911882, 1096.63]; in [0.000911882, 1096.63]; f16: fits
func.func @exp_chain(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %e = math.exp %x : tensor<64xf32>
  %m = arith.maximumf %e, %zero : tensor<64xf32>
  %s = math.sqrt %m : tensor<64xf32>
  %t = math.tanh %s : tensor<64xf32>
  return %s, %t : tensor<64xf32>, tensor<64xf32>
}

// -----

// A softmax's output is in [0, 1], whatever its input; a contraction of
// assumed values is assumed to fit (as its inputs were), a plain sum of
// many assumed values is not.
// CHECK: remark: range: result 0 [0, 1]; in [0, 1]: output of linalg.softmax
// CHECK: remark: range: result 0 [-65504, 65504] assumed; in [-65504, 65504], assumed (inputs are assumed to fit f16, |x| <= 65504); f16: fits
// CHECK: remark: range: result 0 [0, 16]; in [0, 16]; f16: fits
// CHECK-NEXT: remark: range: result 0 [-1.04806e+06, 1.04806e+06] expanded; linalg.reduce at {{.*}} of values assumed in [-65504, 65504] and in [0, 0] may reach 1.04806e+06; f16: may overflow; bf16: fits
func.func @bounded(%x: tensor<4x16xf32>, %v: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4x16xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c0 = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mm = linalg.matmul ins(%p, %v : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = tensor.empty() : tensor<4xf32>
  %rf = linalg.fill ins(%c0 : f32) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %sp = linalg.reduce { arith.addf } ins(%p : tensor<4x16xf32>) outs(%rf : tensor<4xf32>) dimensions = [1]
  %sx = linalg.reduce { arith.addf } ins(%x : tensor<4x16xf32>) outs(%rf : tensor<4xf32>) dimensions = [1]
  return %mm, %sp, %sx : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A softmax written out (as importers emit it): x - max(x) is at most 0, so
// its exp is in [0, 1], and e / sum(e) is a normalisation in [0, 1].
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK: remark: range: result 0 [-65504, 65504] assumed
// CHECK-NEXT: remark: range: result 0 [-65504, 0] assumed
// CHECK-NEXT: remark: range: result 0 [0, 1] assumed
// CHECK-NEXT: remark: range: result 0 [0, 0]
// CHECK-NEXT: remark: range: result 0 [0, 16] assumed
// CHECK-NEXT: remark: range: result 0 [0, 1]; in [0, 1]: output of linalg.generic
func.func @decomposed_softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %ninf = arith.constant -3.4e38 : f32
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<4xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x16xf32>) outs(%mi : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x16xf32>, tensor<4xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %ex = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<4x16xf32>
  %zi = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x16xf32>) outs(%zi : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<4x16xf32>, tensor<4xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %q = arith.divf %a, %b : f32
    linalg.yield %q : f32
  } -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// The same in TOSA: exp(x - reduce_max(x)) * reciprocal(reduce_sum(...)).
// CHECK: remark: range: result 0 [-65504, 0] assumed
// CHECK-NEXT: remark: range: result 0 [0, 1] assumed
// CHECK-NEXT: remark: range: result 0 [0, 16] assumed
// CHECK-NEXT: remark: range: result 0 [0.0625, inf] expanded; tosa.reciprocal at {{.*}} of values assumed in [0, 16] may reach inf
// CHECK-NEXT: remark: range: result 0 [0, 1]; in [0, 1]: output of tosa.mul
func.func @tosa_softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<4x16xf32>) -> tensor<4x1xf32>
  %d = tosa.sub %x, %m : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  %e = tosa.exp %d : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<4x16xf32>) -> tensor<4x1xf32>
  %r = tosa.reciprocal %s : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %y = tosa.mul %e, %r, %shift : (tensor<4x16xf32>, tensor<4x1xf32>, tensor<1xi8>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// Sources: an amp.range argument attribute (over input-range), constants,
// narrow integers. Values whose nonzero elements are all below f16's
// smallest normal underflow in f16 (not in bf16).
// CHECK: remark: range: result 0 [-128, 127]; in [-128, 127]: output of arith.sitofp
// CHECK: remark: range: result 0 [-2, 6]; in [-2, 6]; f16: fits
// CHECK-NEXT: remark: range: result 0 [-1.2e-05, 3.6e-05]; in [-1.2e-05, 3.6e-05]; f16: underflows; bf16: fits
// RANGE: remark: range: result 0 [-2, 6]; in [-2, 6]; f16: fits
func.func @sources(%x: tensor<8xf32> {amp.range = [-1.0, 3.0]}, %i: tensor<8xi8>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %f = arith.sitofp %i : tensor<8xi8> to tensor<8xf32>
  %two = arith.constant dense<2.0> : tensor<8xf32>
  %tiny = arith.constant dense<6.0e-6> : tensor<8xf32>
  %y = arith.mulf %x, %two : tensor<8xf32>
  %z = arith.mulf %y, %tiny : tensor<8xf32>
  return %f, %y, %z : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Loops: a value carried around a loop is widened until it is stable (x
// doubles each iteration: its bound grows to inf, and the analysis ends).
// scf.if joins its branches; calls of private functions join their callers'
// ranges.
// CHECK: remark: range: result 0 [2, inf] expanded; arith.mulf
// CHECK-NEXT: remark: range: result 0 [1, inf] expanded; in [1, inf], computed from arith.mulf
// CHECK-NEXT: remark: range: result 0 [-0.761594, 0.761594]; in [-0.761594, 0.761594]: output of math.tanh
// CHECK-NEXT: remark: range: result 0 [-1, 1] given; in [-1, 1]: the range given for the argument
// CHECK-NEXT: remark: range: result 0 [-0.5, 0.5]; in [-0.5, 0.5]; f16: fits
// CHECK-NEXT: remark: range: result 0 [0.5, 0.5]
// CHECK-NEXT: remark: range: result 0 [-0.5, 0.5]
func.func @control_flow(%x: f32 {amp.range = [-1.0, 1.0]}, %c: i1, %n: index) -> (f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %one) -> (f32) {
    %d = arith.mulf %a, %two : f32
    scf.yield %d : f32
  }
  %s = scf.if %c -> (f32) {
    %t = math.tanh %x : f32
    scf.yield %t : f32
  } else {
    scf.yield %x : f32
  }
  %h = func.call @half(%s) : (f32) -> f32
  return %r, %s, %h : f32, f32, f32
}
func.func private @half(%v: f32) -> f32 {
  %c = arith.constant 0.5 : f32
  %m = arith.mulf %v, %c : f32
  return %m : f32
}

// -----

// Complex values: the range of their parts. A product of parts within 2
// and 4 has parts within 2 * 2 * 4 = 16 (the constant's parts are 3 and
// -4); its modulus is at most sqrt(2) * 16; exp of parts up to 2 has
// parts of at most e^2, which fits.
// CHECK: remark: range: result 0 [-2, 2]; in [-2, 2]; f16: fits
// CHECK-NEXT: remark: range: result 0 [-4, 3]; in [-4, 3]
// CHECK-NEXT: remark: range: result 0 [-16, 16]; in [-16, 16]; f16: fits
// CHECK-NEXT: remark: range: result 0 [0, 22.6274]; in [0, 22.6274]
// CHECK-NEXT: remark: range: result 0 [-7.38906, 7.38906]; in [-7.38906, 7.38906]; f16: fits
func.func @complex_parts(%x: f32 {amp.range = [-1.0, 1.0]}, %y: f32 {amp.range = [-2.0, 2.0]}) -> (f32, complex<f32>, complex<f32>) {
  %c = complex.create %x, %y : complex<f32>
  %k = complex.constant [3.0 : f32, -4.0 : f32] : complex<f32>
  %m = complex.mul %c, %k : complex<f32>
  %a = complex.abs %m : complex<f32>
  %e = complex.exp %c : complex<f32>
  return %a, %m, %e : f32, complex<f32>, complex<f32>
}

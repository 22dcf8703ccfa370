// RUN: amp-opt %s --amp-excess-precision | FileCheck %s
// RUN: amp-opt %s --amp-excess-precision=f16=true | FileCheck %s --check-prefix=F16
// RUN: amp-opt %s --amp-excess-precision=bf16=false | FileCheck %s --check-prefix=OFF
// Idempotent: a second run finds no bf16 arithmetic left.
// RUN: amp-opt %s --amp-excess-precision -o %t.once
// RUN: amp-opt %t.once --amp-excess-precision -o %t.twice
// RUN: cmp %t.once %t.twice

// A convolution's epilogue: the cast of the f32 sum to bf16 stays (it is
// the program's), the chain of bf16 ops after it runs in f32, and its
// result is rounded once, for the store.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[ACC:.+]]: vector<16xf32>, %[[SCALE:.+]]: vector<16xbf16>, %[[M:.+]]: memref<16xbf16>)
// CHECK-DAG: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<16xbf16>
// CHECK-DAG: %[[WSCALE:.+]] = arith.extf %[[SCALE]] : vector<16xbf16> to vector<16xf32>
// CHECK-DAG: %[[T:.+]] = arith.truncf %[[ACC]] : vector<16xf32> to vector<16xbf16>
// CHECK-DAG: %[[WT:.+]] = arith.extf %[[T]] : vector<16xbf16> to vector<16xf32>
// CHECK-DAG: %[[WZERO:.+]] = arith.extf %[[ZERO]] : vector<16xbf16> to vector<16xf32>
// CHECK: %[[MUL:.+]] = arith.mulf %[[WT]], %[[WSCALE]] : vector<16xf32>
// CHECK: %[[ADD:.+]] = arith.addf %[[MUL]], %[[WSCALE]] fastmath<contract> : vector<16xf32>
// CHECK: %[[MAX:.+]] = arith.maximumf %[[ADD]], %[[WZERO]] : vector<16xf32>
// CHECK: %[[R:.+]] = arith.truncf %[[MAX]] : vector<16xf32> to vector<16xbf16>
// CHECK-NOT: arith.truncf
// CHECK: vector.transfer_write %[[R]], %[[M]]
// OFF-LABEL: func.func @chain
// OFF: arith.mulf %{{.+}}, %{{.+}} : vector<16xbf16>
func.func @chain(%acc: vector<16xf32>, %scale: vector<16xbf16>, %m: memref<16xbf16>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : vector<16xbf16>
  %t = arith.truncf %acc : vector<16xf32> to vector<16xbf16>
  %mul = arith.mulf %t, %scale : vector<16xbf16>
  %add = arith.addf %mul, %scale fastmath<contract> : vector<16xbf16>
  %max = arith.maximumf %add, %zero : vector<16xbf16>
  vector.transfer_write %max, %m[%c0] {in_bounds = [true]} : vector<16xbf16>, memref<16xbf16>
  return
}

// A result that other arithmetic takes in f32 and that is also stored is
// rounded for the store only; a value passed on (returned) is rounded too.
// CHECK-LABEL: func.func @stored_and_used
// CHECK-SAME: (%[[A:.+]]: bf16, %[[B:.+]]: bf16, %[[M:.+]]: memref<bf16>)
// CHECK-DAG: %[[WA:.+]] = arith.extf %[[A]] : bf16 to f32
// CHECK-DAG: %[[WB:.+]] = arith.extf %[[B]] : bf16 to f32
// CHECK: %[[SUM:.+]] = arith.addf %[[WA]], %[[WB]] : f32
// CHECK: %[[RSUM:.+]] = arith.truncf %[[SUM]] : f32 to bf16
// CHECK: %[[PROD:.+]] = arith.mulf %[[SUM]], %[[SUM]] : f32
// CHECK: %[[RPROD:.+]] = arith.truncf %[[PROD]] : f32 to bf16
// CHECK: memref.store %[[RSUM]], %[[M]][]
// CHECK: return %[[RPROD]] : bf16
func.func @stored_and_used(%a: bf16, %b: bf16, %m: memref<bf16>) -> bf16 {
  %sum = arith.addf %a, %b : bf16
  %prod = arith.mulf %sum, %sum : bf16
  memref.store %sum, %m[] : memref<bf16>
  return %prod : bf16
}

// Casts are exact boundaries: the result of a bf16 op widened by the
// program's extf is the rounded value, and a truncf of the program rounds
// (fake quantisation keeps its rounding).
// CHECK-LABEL: func.func @casts_round
// CHECK: %[[SUM:.+]] = arith.addf %{{.+}}, %{{.+}} : f32
// CHECK: %[[R:.+]] = arith.truncf %[[SUM]] : f32 to bf16
// CHECK: %[[W:.+]] = arith.extf %[[R]] : bf16 to f32
// CHECK: %[[Q:.+]] = arith.truncf %[[W]] : f32 to bf16
// CHECK: %[[WQ:.+]] = arith.extf %[[Q]] : bf16 to f32
// CHECK: %[[NEG:.+]] = arith.negf %[[WQ]] : f32
// CHECK: arith.truncf %[[NEG]] : f32 to bf16
func.func @casts_round(%a: bf16, %b: bf16) -> bf16 {
  %sum = arith.addf %a, %b : bf16
  %w = arith.extf %sum : bf16 to f32
  %q = arith.truncf %w : f32 to bf16
  %neg = arith.negf %q : bf16
  return %neg : bf16
}

// Comparisons, selects, math ops and vector.fma compute in f32 too; the
// comparison's i1 result and the select's condition are unchanged.
// CHECK-LABEL: func.func @compare_select_math
// CHECK: %[[WX:.+]] = arith.extf %{{.+}} : vector<8xbf16> to vector<8xf32>
// CHECK: %[[ABS:.+]] = math.absf %[[WX]] : vector<8xf32>
// CHECK: %[[FMA:.+]] = vector.fma %[[ABS]], %[[WX]], %[[WX]] : vector<8xf32>
// CHECK: %[[LT:.+]] = arith.cmpf olt, %[[FMA]], %[[WX]] : vector<8xf32>
// CHECK: %[[SEL:.+]] = arith.select %[[LT]], %[[FMA]], %[[ABS]] : vector<8xi1>, vector<8xf32>
// CHECK: %[[EXP:.+]] = math.exp %[[SEL]] : vector<8xf32>
// CHECK: arith.truncf %[[EXP]] : vector<8xf32> to vector<8xbf16>
func.func @compare_select_math(%x: vector<8xbf16>) -> vector<8xbf16> {
  %abs = math.absf %x : vector<8xbf16>
  %fma = vector.fma %abs, %x, %x : vector<8xbf16>
  %lt = arith.cmpf olt, %fma, %x : vector<8xbf16>
  %sel = arith.select %lt, %fma, %abs : vector<8xi1>, vector<8xbf16>
  %exp = math.exp %sel : vector<8xbf16>
  return %exp : vector<8xbf16>
}

// A value carried around a loop is rounded every iteration (the yield is
// not arithmetic); the body's chain runs in f32.
// CHECK-LABEL: func.func @loop_carried
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (bf16)
// CHECK: %[[WACC:.+]] = arith.extf %[[ACC]] : bf16 to f32
// CHECK: %[[ADD:.+]] = arith.addf %[[WACC]], %{{.+}} : f32
// CHECK: %[[MUL:.+]] = arith.mulf %[[ADD]], %{{.+}} : f32
// CHECK: %[[R:.+]] = arith.truncf %[[MUL]] : f32 to bf16
// CHECK: scf.yield %[[R]] : bf16
func.func @loop_carried(%init: bf16, %x: bf16, %n: index) -> bf16 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (bf16) {
    %add = arith.addf %acc, %x : bf16
    %mul = arith.mulf %add, %x : bf16
    scf.yield %mul : bf16
  }
  return %r : bf16
}

// f16 arithmetic, f32 arithmetic, ops that mix float types and tensor ops
// are left as they are by default; with f16=true the f16 chain runs in f32.
// CHECK-LABEL: func.func @left_alone
// CHECK-NEXT: arith.addf %{{.+}}, %{{.+}} : vector<4xf16>
// CHECK-NEXT: arith.mulf %{{.+}}, %{{.+}} : vector<4xf16>
// CHECK-NEXT: arith.addf %{{.+}}, %{{.+}} : f32
// CHECK-NEXT: arith.addf %{{.+}}, %{{.+}} : tensor<4xbf16>
// CHECK-NEXT: math.fpowi %{{.+}}, %{{.+}} : f16, i32
// CHECK-NEXT: return
// F16-LABEL: func.func @left_alone
// F16: %[[ADD:.+]] = arith.addf %{{.+}}, %{{.+}} : vector<4xf32>
// F16: %[[MUL:.+]] = arith.mulf %[[ADD]], %[[ADD]] : vector<4xf32>
// F16: arith.truncf %[[MUL]] : vector<4xf32> to vector<4xf16>
// F16: arith.addf %{{.+}}, %{{.+}} : tensor<4xbf16>
// F16: %[[POW:.+]] = math.fpowi %{{.+}}, %{{.+}} : f32, i32
// F16: arith.truncf %[[POW]] : f32 to f16
func.func @left_alone(%h: vector<4xf16>, %f: f32, %t: tensor<4xbf16>, %s: f16, %e: i32)
    -> (vector<4xf16>, f32, tensor<4xbf16>, f16) {
  %add = arith.addf %h, %h : vector<4xf16>
  %mul = arith.mulf %add, %add : vector<4xf16>
  %g = arith.addf %f, %f : f32
  %u = arith.addf %t, %t : tensor<4xbf16>
  %p = math.fpowi %s, %e : f16, i32
  return %mul, %g, %u, %p : vector<4xf16>, f32, tensor<4xbf16>, f16
}

// RUN: amp-opt %s --split-input-file --amp-test-print-policy -o /dev/null | FileCheck %s

// A loop that carries a sum is an accumulation of its trip count; bounds and
// the induction variable are never data.
// CHECK-LABEL: func.func @loop_sum
// CHECK: scf.for follow model acc=sum/128/wide data=(3)->(0) compute=yes "control flow: takes the precision of the values it carries"
// CHECK-NEXT: arith.addf follow
// CHECK-NEXT: scf.yield follow model acc=- data=(0)->()
func.func @loop_sum(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %iv = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> f32 {
    %n = arith.addf %acc, %x : f32
    scf.yield %n : f32
  }
  return %r : f32
}

// -----

// A strided loop with unknown bounds: the size is unknown. A carried max is
// exact; a carried value that is overwritten is no accumulation.
// CHECK-LABEL: func.func @loop_kinds
// CHECK: scf.for follow model acc=sum/?/wide data=(3, 4)->(0, 1)
// CHECK: scf.for follow model acc=max/50/wide data=(3)->(0)
// CHECK: scf.for follow model acc=- data=(3)->(0)
func.func @loop_kinds(%x: f32, %n: index) -> (f32, f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c100 = arith.constant 100 : index
  %r:2 = scf.for %iv = %c0 to %n step %c1 iter_args(%s = %x, %m = %x) -> (f32, f32) {
    %a = arith.addf %s, %x : f32
    %b = arith.maximumf %m, %x : f32
    scf.yield %a, %b : f32, f32
  }
  %q = scf.for %iv = %c0 to %c100 step %c2 iter_args(%m = %x) -> f32 {
    %b = arith.maximumf %m, %x : f32
    scf.yield %b : f32
  }
  %w = scf.for %iv = %c0 to %c100 step %c1 iter_args(%m = %x) -> f32 {
    %b = arith.mulf %x, %x : f32
    scf.yield %b : f32
  }
  return %r#0, %r#1, %q, %w : f32, f32, f32, f32
}

// -----

// if / while carry values; their conditions are never data.
// CHECK-LABEL: func.func @if_while
// CHECK: scf.if follow model acc=- data=()->(0) compute=yes "control flow: takes the precision of the values it carries"
// CHECK: scf.while follow model acc=- data=(0)->(0)
// CHECK: scf.condition follow model acc=- data=(1)->()
func.func @if_while(%c: i1, %a: f32, %b: f32) -> (f32, f32) {
  %0 = scf.if %c -> f32 {
    scf.yield %a : f32
  } else {
    scf.yield %b : f32
  }
  %1 = scf.while (%v = %a) : (f32) -> f32 {
    %lt = arith.cmpf olt, %v, %b : f32
    scf.condition(%lt) %v : f32
  } do {
  ^bb0(%v: f32):
    %n = arith.addf %v, %v : f32
    scf.yield %n : f32
  }
  return %0, %1 : f32, f32
}

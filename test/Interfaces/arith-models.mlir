// RUN: amp-opt %s --split-input-file --amp-test-print-policy -o /dev/null | FileCheck %s

// Elementwise arithmetic follows its neighbours, on scalars, vectors and
// tensors alike; every float operand and result is data.
// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT: arith.addf follow model acc=- data=(0, 1)->(0) compute=yes "elementwise arithmetic is accurate in low precision"
// CHECK-NEXT: arith.mulf follow model acc=- data=(0, 1)->(0)
// CHECK-NEXT: arith.divf follow model acc=- data=(0, 1)->(0)
// CHECK-NEXT: arith.remf follow model acc=- data=(0, 1)->(0)
// CHECK-NEXT: arith.maximumf follow model acc=- data=(0, 1)->(0)
// CHECK-NEXT: arith.minnumf follow model acc=- data=(0, 1)->(0)
// CHECK-NEXT: arith.negf follow model acc=- data=(0)->(0)
func.func @elementwise(%a: f32, %b: f32, %v: vector<4xf32>, %t: tensor<4xf32>) {
  %0 = arith.addf %a, %b : f32
  %1 = arith.mulf %v, %v : vector<4xf32>
  %2 = arith.divf %t, %t : tensor<4xf32>
  %3 = arith.remf %a, %b : f32
  %4 = arith.maximumf %a, %b : f32
  %5 = arith.minnumf %a, %b : f32
  %6 = arith.negf %a : f32
  return
}

// -----

// A comparison's i1 result and a select's condition are never data.
// CHECK-LABEL: func.func @compare_select
// CHECK-NEXT: arith.cmpf follow model acc=- data=(0, 1)->() compute=yes
// CHECK-NEXT: arith.select follow model acc=- data=(1, 2)->(0) compute=yes
func.func @compare_select(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.cmpf olt, %a, %b : tensor<4xf32>
  %s = arith.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// Constants follow their users; integer constants carry no float data.
// CHECK-LABEL: func.func @constants
// CHECK-NEXT: arith.constant follow model acc=- data=()->(0) compute=yes "constants take their users' precision and are converted at compile time"
// CHECK-NEXT: arith.constant follow model acc=- data=()->(0)
// CHECK-NEXT: arith.constant follow model acc=- data=()->()
func.func @constants() {
  %0 = arith.constant 1.0 : f32
  %1 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %2 = arith.constant 3 : i32
  return
}

// -----

// Casts are amp's own business; a bitcast's types are its meaning, so it
// stays f32 and has no data to retype. Integer conversions follow; their
// integer side is never data. Integer arithmetic has no model and needs
// none.
// CHECK-LABEL: func.func @casts
// CHECK-NEXT: arith.truncf follow model acc=- data=(0)->() compute=yes "a cast: amp places and folds casts itself"
// CHECK-NEXT: arith.extf follow model acc=- data=(0)->()
// CHECK-NEXT: arith.bitcast never model acc=- data=()->() compute=yes "its float type is part of what it computes"
// CHECK-NEXT: arith.sitofp follow model acc=- data=()->(0) compute=yes "integer conversion: takes its neighbours' precision"
// CHECK-NEXT: arith.fptosi follow model acc=- data=(0)->()
// CHECK-NEXT: arith.addi follow traits acc=- data=()->() compute=yes "no floating-point data"
func.func @casts(%a: f32, %h: f16, %i: i32) {
  %0 = arith.truncf %a : f32 to f16
  %1 = arith.extf %h : f16 to f32
  %2 = arith.bitcast %a : f32 to i32
  %3 = arith.sitofp %i : i32 to f32
  %4 = arith.fptosi %a : f32 to i32
  %5 = arith.addi %i, %i : i32
  return
}

// RUN: amp-opt %s --split-input-file --amp-test-print-policy -o /dev/null | FileCheck %s

// Functions, calls and returns carry values.
// CHECK-LABEL: func.func @caller follow model acc=- data=()->() compute=yes "control flow: takes the precision of the values it carries"
// CHECK-NEXT: func.call follow model acc=- data=(0)->(0)
// CHECK-NEXT: func.constant follow
// CHECK-NEXT: func.call_indirect follow model acc=- data=(1)->(0)
// CHECK-NEXT: func.return follow model acc=- data=(0, 1)->()
// CHECK: func.func @callee follow model
func.func @caller(%a: f32, %i: i32) -> (f32, f32) {
  %0 = func.call @callee(%a, %i) : (f32, i32) -> f32
  %f = func.constant @callee2 : (f32) -> f32
  %1 = func.call_indirect %f(%a) : (f32) -> f32
  return %0, %1 : f32, f32
}
func.func private @callee(f32, i32) -> f32
func.func private @callee2(f32) -> f32

// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --amp-test-print-policy -o /dev/null | FileCheck %s

// Ops without a model get a safe answer from their traits: unknown
// arithmetic (registered or not) stays f32; view-like ops and ops with no
// float data follow.
// CHECK-LABEL: func.func @no_model
// CHECK-NEXT: foo.compute never traits acc=- data=(0)->(0) compute=yes "unregistered op: its numerics are unknown"
// CHECK-NEXT: foo.indices follow traits acc=- data=()->() compute=yes "no floating-point data"
// CHECK-NEXT: memref.load never traits acc=- data=(0)->(0) compute=yes "no amp model: its numerics are unknown"
// CHECK-NEXT: memref.subview follow traits acc=- data=(0)->(0) compute=yes "moves or forwards values without arithmetic"
// CHECK-NEXT: vector.broadcast never traits acc=- data=(0)->(0)
func.func @no_model(%t: tensor<8xf32>, %i: index, %m: memref<8xf32>) {
  %0 = "foo.compute"(%t) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "foo.indices"(%i) : (index) -> index
  %2 = memref.load %m[%i] : memref<8xf32>
  %3 = memref.subview %m[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %4 = vector.broadcast %2 : f32 to vector<4xf32>
  return
}

// -----

// An unregistered op that carries regions and a terminator of its own: the
// terminator forwards values, the op itself stays f32.
// CHECK-LABEL: func.func @unregistered_region
// CHECK-NEXT: foo.region never traits
// CHECK-NEXT: foo.yield never traits
func.func @unregistered_region(%t: f32) {
  "foo.region"(%t) ({
  ^bb0(%a: f32):
    "foo.yield"(%a) : (f32) -> ()
  }) : (f32) -> ()
  return
}

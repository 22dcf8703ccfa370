// RUN: amp-opt %s --split-input-file --amp-test-print-policy -o /dev/null | FileCheck %s

// Data movement follows; its float operands and results change together,
// its index operands are never data.
// CHECK-LABEL: func.func @movement
// CHECK-NEXT: tensor.collapse_shape follow model acc=- data=(0)->(0) compute=yes "moves data without arithmetic"
// CHECK-NEXT: tensor.expand_shape follow model acc=- data=(0)->(0)
// CHECK-NEXT: tensor.extract follow model acc=- data=(0)->(0)
// CHECK-NEXT: tensor.insert follow model acc=- data=(0, 1)->(0)
// CHECK-NEXT: tensor.extract_slice follow model acc=- data=(0)->(0)
// CHECK-NEXT: tensor.insert_slice follow model acc=- data=(0, 1)->(0)
// CHECK-NEXT: tensor.concat follow model acc=- data=(0, 1)->(0)
// CHECK-NEXT: tensor.empty follow model acc=- data=()->(0)
// CHECK-NEXT: tensor.from_elements follow model acc=- data=(0, 1)->(0)
// CHECK-NEXT: tensor.splat follow model acc=- data=(0)->(0)
// CHECK-NEXT: tensor.cast follow model acc=- data=(0)->(0)
func.func @movement(%t: tensor<4x8xf32>, %s: f32, %i: index) {
  %0 = tensor.collapse_shape %t [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %1 = tensor.expand_shape %0 [[0, 1]] output_shape [8, 4] : tensor<32xf32> into tensor<8x4xf32>
  %2 = tensor.extract %t[%i, %i] : tensor<4x8xf32>
  %3 = tensor.insert %s into %t[%i, %i] : tensor<4x8xf32>
  %4 = tensor.extract_slice %t[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
  %5 = tensor.insert_slice %4 into %t[0, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<4x8xf32>
  %6 = tensor.concat dim(0) %t, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %7 = tensor.empty() : tensor<4x8xf32>
  %8 = tensor.from_elements %s, %s : tensor<2xf32>
  %9 = tensor.splat %s : tensor<4xf32>
  %10 = tensor.cast %t : tensor<4x8xf32> to tensor<?x8xf32>
  return
}

// -----

// tensor.pad and tensor.generate yield their elements from a body; the
// yield's value is data.
// CHECK-LABEL: func.func @bodies
// CHECK-NEXT: arith.constant follow
// CHECK-NEXT: tensor.pad follow model acc=- data=(0)->(0) compute=yes "moves data without arithmetic"
// CHECK-NEXT: tensor.yield follow model acc=- data=(0)->()
// CHECK-NEXT: tensor.generate follow model acc=- data=()->(0)
// CHECK-NEXT: tensor.yield follow model acc=- data=(0)->()
func.func @bodies(%t: tensor<4x8xf32>, %n: index) {
  %cst = arith.constant 0.5 : f32
  %p = tensor.pad %t low[1, 1] high[1, 1] {
  ^bb0(%a: index, %b: index):
    tensor.yield %cst : f32
  } : tensor<4x8xf32> to tensor<6x10xf32>
  %g = tensor.generate %n {
  ^bb0(%a: index):
    tensor.yield %cst : f32
  } : tensor<?xf32>
  return
}

// -----

// Shape queries read no elements; a bitcast's types are its meaning.
// CHECK-LABEL: func.func @fixed
// CHECK-NEXT: tensor.dim follow model acc=- data=()->() compute=yes "reads only the shape"
// CHECK-NEXT: tensor.rank follow model acc=- data=()->()
// CHECK-NEXT: tensor.bitcast never model acc=- data=()->() compute=yes "reinterprets bits: its float types are its meaning"
func.func @fixed(%t: tensor<4x8xf32>, %i: index) {
  %0 = tensor.dim %t, %i : tensor<4x8xf32>
  %1 = tensor.rank %t : tensor<4x8xf32>
  %2 = tensor.bitcast %t : tensor<4x8xf32> to tensor<4x8xi32>
  return
}

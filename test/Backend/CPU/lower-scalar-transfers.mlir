// RUN: amp-opt %s --amp-lower-scalar-transfers | FileCheck %s

// A one-element transfer on a strided view (what convert-vector-to-scf
// unrolls a broadcasting transfer into) is a load or a store: LLVM's
// lowering of transfers needs a unit innermost stride.
// CHECK-LABEL: func.func @scalar_read
// CHECK-SAME: (%[[M:.+]]: memref<1x8xf32, strided<[?, ?], offset: ?>>, %[[I:.+]]: index)
// CHECK: %[[E:.+]] = memref.load %[[M]][%{{.+}}, %[[I]]] : memref<1x8xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[V:.+]] = vector.broadcast %[[E]] : f32 to vector<f32>
// CHECK: return %[[V]]
func.func @scalar_read(%m: memref<1x8xf32, strided<[?, ?], offset: ?>>, %i: index) -> vector<f32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%c0, %i], %pad : memref<1x8xf32, strided<[?, ?], offset: ?>>, vector<f32>
  return %v : vector<f32>
}

// CHECK-LABEL: func.func @scalar_write
// CHECK-SAME: (%[[M:.+]]: memref<1x8xf32, strided<[?, ?], offset: ?>>, %[[I:.+]]: index, %[[V:.+]]: vector<f32>)
// CHECK: %[[X:.+]] = vector.extract %[[V]][] : f32 from vector<f32>
// CHECK: memref.store %[[X]], %[[M]][%{{.+}}, %[[I]]]
// CHECK-NOT: vector.transfer_
func.func @scalar_write(%m: memref<1x8xf32, strided<[?, ?], offset: ?>>, %i: index, %v: vector<f32>) {
  %c0 = arith.constant 0 : index
  vector.transfer_write %v, %m[%c0, %i] : vector<f32>, memref<1x8xf32, strided<[?, ?], offset: ?>>
  return
}

// Vectors of several elements, and transfers on tensors, are not this
// pass's.
// CHECK-LABEL: func.func @not_scalar
// CHECK: vector.transfer_read %{{.+}} : memref<8xf32>, vector<8xf32>
// CHECK: vector.transfer_read %{{.+}} : tensor<8xf32>, vector<f32>
func.func @not_scalar(%m: memref<8xf32>, %t: tensor<8xf32>) -> (vector<8xf32>, vector<f32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %m[%c0], %pad : memref<8xf32>, vector<8xf32>
  %b = vector.transfer_read %t[%c0], %pad : tensor<8xf32>, vector<f32>
  return %a, %b : vector<8xf32>, vector<f32>
}

// RUN: amp-opt %s --split-input-file --mixed-precision="input-range=-1000:1000 explain" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s

// input-range holds for a memref argument as for a tensor one when nothing
// writes it: a read of it (here as a tensor) holds what the range says, and
// x * x may reach 1e6, which f16 cannot hold (found by amp-fuzz: the read
// was an unknown op, assumed to fit, and the matmul after it overflowed).
// CHECK-LABEL: remark: amp: arith.mulf stays f32 (follow, range): result 0 may exceed f16: arith.mulf at {{.*}} of values in [-1000, 1000] and in [-1000, 1000] may reach 1e+06
// CHECK: remark: amp: linalg.matmul stays f32 (allow, range): reads operand 0, which may exceed f16
func.func @read_only_argument(%m: memref<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %x = bufferization.to_tensor %m restrict : memref<8x8xf32> to tensor<8x8xf32>
  %p = arith.mulf %x, %x : tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<8x8xf32>) -> tensor<8x8xf32>
  %mm = linalg.matmul ins(%p, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%fill : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %mm : tensor<8x8xf32>
}

// -----

// A buffer the function writes holds what was written, which amp does not
// follow through memory: a read of it is assumed to fit, as any value of
// unknown range is (docs/Ranges.md), not given the argument's range.
// CHECK-LABEL: remark: amp: arith.mulf stays f32 (follow, model)
// CHECK-NOT: [-1000, 1000]
func.func @written_argument(%m: memref<8x8xf32>, %v: f32) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  memref.store %v, %m[%c0, %c0] : memref<8x8xf32>
  %x = bufferization.to_tensor %m restrict : memref<8x8xf32> to tensor<8x8xf32>
  %p = arith.mulf %x, %x : tensor<8x8xf32>
  return %p : tensor<8x8xf32>
}

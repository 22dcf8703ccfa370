// Two memref reads of one tensor: in the f32 program the tensor is an
// argument, which nothing writes; converted with a bf16 signature it is
// `arith.extf` of one, a temporary. CSE keeps the first `to_buffer`, whose
// memref the later linalg.min then reads after the product was written in
// place into that temporary's buffer: min(a * b, a) came out as a * b
// (found by amp-fuzz). amp-copy-tensors-to-buffers gives each such read a
// buffer of its own.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/a.npy', np.full((4, 4), -1, '<f4')); np.save('%t/b.npy', np.full((4, 4), 0.5, '<f4'))"
// RUN: amp-run %s --entry=main --input=%t/a.npy,%t/b.npy | FileCheck %s
// RUN: amp-opt %s --mixed-precision="precision=bf16 keep-io-types=false" -o %t/bf16.mlir
// RUN: amp-run %t/bf16.mlir --entry=main --cast-inputs --input=%t/a.npy,%t/b.npy | FileCheck %s
// RUN: amp-opt %t/bf16.mlir --amp-copy-tensors-to-buffers | FileCheck %s --check-prefix=COPIES

// a + b = -0.5; min(a * b, a) = min(-0.5, -1) = -1.
// CHECK: result 0: 4x4xf32 [-0.5, -0.5, {{.*}}] sum=-8
// CHECK: result 1: 4x4xf32 [-1, -1, {{.*}}] sum=-16

// The arguments are bf16 and extended: every read gets its own buffer.
// COPIES-LABEL: func.func @main
// COPIES-COUNT-4: bufferization.materialize_in_destination {{.*}} in restrict writable
// COPIES-NOT: bufferization.to_buffer
func.func @main(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %ma = bufferization.to_buffer %a read_only : tensor<4x4xf32> to memref<4x4xf32>
  %mb = bufferization.to_buffer %b read_only : tensor<4x4xf32> to memref<4x4xf32>
  %sum = memref.alloc() : memref<4x4xf32>
  linalg.add ins(%ma, %mb : memref<4x4xf32>, memref<4x4xf32>) outs(%sum : memref<4x4xf32>)
  %s = bufferization.to_tensor %sum restrict : memref<4x4xf32> to tensor<4x4xf32>
  %p = arith.mulf %a, %b : tensor<4x4xf32>
  %mp = bufferization.to_buffer %p read_only : tensor<4x4xf32> to memref<4x4xf32>
  %ma2 = bufferization.to_buffer %a read_only : tensor<4x4xf32> to memref<4x4xf32>
  %min = memref.alloc() : memref<4x4xf32>
  linalg.min ins(%mp, %ma2 : memref<4x4xf32>, memref<4x4xf32>) outs(%min : memref<4x4xf32>)
  %m = bufferization.to_tensor %min restrict : memref<4x4xf32> to tensor<4x4xf32>
  return %s, %m : tensor<4x4xf32>, tensor<4x4xf32>
}

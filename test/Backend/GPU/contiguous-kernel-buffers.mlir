// amp-contiguous-kernel-buffers gives every linalg op on buffers
// identity-layout operands: a strided view is copied into a new buffer
// before the op when the op may read it (or leave some of it unwritten),
// copied back after the op when the op writes it, and the buffer is freed
// after the op. Identity-layout, dynamic and tensor operands are left alone.
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-contiguous-kernel-buffers))' | FileCheck %s

// Two inputs: copied in, not back.
// CHECK-LABEL: func.func @inputs
// CHECK-SAME:    (%[[A:.+]]: memref<8x256xf32>, %[[O:.+]]: memref<8x64xf32>)
// CHECK-DAG:     %[[V:.+]] = memref.subview %[[A]][0, 128]
// CHECK-DAG:     %[[W:.+]] = memref.subview %[[A]][0, 64]
// CHECK-DAG:     %[[BV:.+]] = memref.alloc() {alignment = 64 : i64} : memref<8x64xf32>
// CHECK-DAG:     %[[BW:.+]] = memref.alloc() {alignment = 64 : i64} : memref<8x64xf32>
// CHECK-DAG:     memref.copy %[[V]], %[[BV]]
// CHECK-DAG:     memref.copy %[[W]], %[[BW]]
// CHECK:         linalg.add ins(%[[BV]], %[[BW]] : memref<8x64xf32>, memref<8x64xf32>) outs(%[[O]] : memref<8x64xf32>)
// CHECK-NOT:     memref.copy
// CHECK-DAG:     memref.dealloc %[[BV]]
// CHECK-DAG:     memref.dealloc %[[BW]]
// CHECK:         return
func.func @inputs(%a: memref<8x256xf32>, %o: memref<8x64xf32>) {
  %v = memref.subview %a[0, 128] [8, 64] [1, 1] : memref<8x256xf32> to memref<8x64xf32, strided<[256, 1], offset: 128>>
  %w = memref.subview %a[0, 64] [8, 64] [1, 1] : memref<8x256xf32> to memref<8x64xf32, strided<[256, 1], offset: 64>>
  linalg.add ins(%v, %w : memref<8x64xf32, strided<[256, 1], offset: 128>>, memref<8x64xf32, strided<[256, 1], offset: 64>>)
             outs(%o : memref<8x64xf32>)
  return
}

// -----

// In place: the view is an input and the init; one buffer, copied in and
// back.
// CHECK-LABEL: func.func @in_place
// CHECK:         %[[V:.+]] = memref.subview
// CHECK:         %[[B:.+]] = memref.alloc() {alignment = 64 : i64} : memref<8x64xf32>
// CHECK-NEXT:    memref.copy %[[V]], %[[B]]
// CHECK-NEXT:    linalg.add ins(%{{.+}}, %[[B]] : memref<8x64xf32>, memref<8x64xf32>) outs(%[[B]] : memref<8x64xf32>)
// CHECK-NEXT:    memref.copy %[[B]], %[[V]] : memref<8x64xf32> to memref<8x64xf32, strided<[256, 1], offset: 128>>
// CHECK-NEXT:    memref.dealloc %[[B]]
func.func @in_place(%a: memref<8x256xf32>, %o: memref<8x64xf32>) {
  %v = memref.subview %a[0, 128] [8, 64] [1, 1] : memref<8x256xf32> to memref<8x64xf32, strided<[256, 1], offset: 128>>
  linalg.add ins(%o, %v : memref<8x64xf32>, memref<8x64xf32, strided<[256, 1], offset: 128>>)
             outs(%v : memref<8x64xf32, strided<[256, 1], offset: 128>>)
  return
}

// -----

// An init that is only overwritten (a fill) is not copied in; an init the
// payload reads (an accumulator) is.
// CHECK-LABEL: func.func @inits
// CHECK:         %[[V:.+]] = memref.subview
// CHECK:         %[[B:.+]] = memref.alloc()
// CHECK-NEXT:    linalg.fill ins(%{{.+}} : f32) outs(%[[B]] : memref<8x64xf32>)
// CHECK-NEXT:    memref.copy %[[B]], %[[V]]
// CHECK-NEXT:    memref.dealloc %[[B]]
// CHECK:         %[[C:.+]] = memref.alloc()
// CHECK-NEXT:    memref.copy %[[V]], %[[C]]
// CHECK-NEXT:    linalg.matmul ins(%{{.+}}, %{{.+}} : memref<8x16xf32>, memref<16x64xf32>) outs(%[[C]] : memref<8x64xf32>)
// CHECK-NEXT:    memref.copy %[[C]], %[[V]]
// CHECK-NEXT:    memref.dealloc %[[C]]
func.func @inits(%a: memref<8x256xf32>, %x: memref<8x16xf32>, %w: memref<16x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %v = memref.subview %a[0, 128] [8, 64] [1, 1] : memref<8x256xf32> to memref<8x64xf32, strided<[256, 1], offset: 128>>
  linalg.fill ins(%zero : f32) outs(%v : memref<8x64xf32, strided<[256, 1], offset: 128>>)
  linalg.matmul ins(%x, %w : memref<8x16xf32>, memref<16x64xf32>)
                outs(%v : memref<8x64xf32, strided<[256, 1], offset: 128>>)
  return
}

// -----

// Left alone: identity layouts, dynamic shapes, tensors.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @unchanged(%a: memref<8x64xf32>, %b: memref<?x64xf32, strided<[256, 1], offset: ?>>,
                     %t: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%a : memref<8x64xf32>)
  linalg.fill ins(%zero : f32) outs(%b : memref<?x64xf32, strided<[256, 1], offset: ?>>)
  %r = linalg.fill ins(%zero : f32) outs(%t : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// amp-distribute-for-threads splits each large linalg op on buffers along
// its outermost parallel loop dimension whose range the thread count
// divides, into one scf.forall iteration per thread. Reductions are never
// split, so each output element is computed by one thread as a single
// thread would compute it.
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-distribute-for-threads{threads=2 min-iterations=1}))' | FileCheck %s
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-distribute-for-threads{threads=2 min-iterations=131073}))' | FileCheck %s --check-prefix=SMALL
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-distribute-for-threads{threads=1 min-iterations=1}))' | FileCheck %s --check-prefix=ONE
// A second run finds only slices and changes nothing:
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-distribute-for-threads{threads=2 min-iterations=1}))' -o %t.once.mlir
// RUN: amp-opt %t.once.mlir -split-input-file -p 'builtin.module(func.func(amp-distribute-for-threads{threads=2 min-iterations=1}))' -o %t.twice.mlir
// RUN: cmp %t.once.mlir %t.twice.mlir
// RUN: not amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-distribute-for-threads{threads=0}))' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: threads must be in [1, 1024], got 0

// A matmul: rows in two halves; k, the reduction, is not split.
// CHECK-LABEL: func.func @matmul
// CHECK:         scf.forall (%[[I:.+]]) = (0) to (64) step (32) {
// CHECK-DAG:       %[[A:.+]] = memref.subview %{{.+}}[%[[I]], 0] [32, 128] [1, 1]
// CHECK-DAG:       %[[C:.+]] = memref.subview %{{.+}}[%[[I]], 0] [32, 16] [1, 1]
// CHECK:           linalg.matmul ins(%[[A]], %{{.+}} : memref<32x128xf32, strided<[128, 1], offset: ?>>, memref<128x16xf32{{.*}}>) outs(%[[C]] : memref<32x16xf32, strided<[16, 1], offset: ?>>)
// CHECK-NOT:     linalg.matmul
// Ops of fewer iterations than min-iterations (64*16*128 = 131072 here)
// are not worth threads.
// SMALL-LABEL: func.func @matmul
// SMALL-NOT:     scf.forall
// ONE-LABEL: func.func @matmul
// ONE-NOT:       scf.forall
func.func @matmul(%a: memref<64x128xf32>, %b: memref<128x16xf32>, %c: memref<64x16xf32>) {
  linalg.matmul ins(%a, %b : memref<64x128xf32>, memref<128x16xf32>) outs(%c : memref<64x16xf32>)
  return
}

// -----

// The first parallel dimension (3) is not divisible by 2: the second is
// split.
// CHECK-LABEL: func.func @second_dimension
// CHECK:         scf.forall (%[[J:.+]]) = (0) to (64) step (32) {
// CHECK:           memref.subview %{{.+}}[0, %[[J]]] [3, 32] [1, 1]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @second_dimension(%a: memref<3x64xf32>, %c: memref<3x64xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<3x64xf32>) outs(%c : memref<3x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A full reduction has no parallel dimension to split; a dynamic range
// cannot be split into static slices; tensors are not buffers.
// CHECK-LABEL: func.func @unsplittable
// CHECK-NOT:     scf.forall
#in = affine_map<(d0) -> (d0)>
#out = affine_map<(d0) -> ()>
func.func @unsplittable(%a: memref<4096xf32>, %s: memref<f32>, %d: memref<?xf32>, %t: tensor<64x64xf32>) -> tensor<64x64xf32> {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction"]}
      ins(%a : memref<4096xf32>) outs(%s : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#in, #in], iterator_types = ["parallel"]}
      ins(%d : memref<?xf32>) outs(%d : memref<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  %r = linalg.exp ins(%t : tensor<64x64xf32>) outs(%t : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// A copy bufferization made into a padded buffer's interior is split like
// the ops, as a linalg.copy of each half.
// CHECK-LABEL: func.func @copy_into_interior
// CHECK:         scf.forall (%[[I:.+]]) = (0) to (8) step (4) {
// CHECK-DAG:       %[[SRC:.+]] = memref.subview %{{.+}}[%[[I]], 0] [4, 16] [1, 1]
// CHECK-DAG:       %[[DST:.+]] = memref.subview %{{.+}}[%[[I]], 0] [4, 16] [1, 1]
// CHECK:           linalg.copy ins(%[[SRC]] : {{.+}}) outs(%[[DST]] : {{.+}})
// CHECK-NOT:     memref.copy
// SMALL-LABEL: func.func @copy_into_interior
// SMALL:         memref.copy
// SMALL-NOT:     scf.forall
func.func @copy_into_interior(%a: memref<8x16xf32>, %padded: memref<10x18xf32>) {
  %interior = memref.subview %padded[1, 1] [8, 16] [1, 1] : memref<10x18xf32> to memref<8x16xf32, strided<[18, 1], offset: 19>>
  memref.copy %a, %interior : memref<8x16xf32> to memref<8x16xf32, strided<[18, 1], offset: 19>>
  return
}

// -----

// A fill of a contraction's output right before it goes into the
// contraction's slices: each thread fills its half just before computing
// it, where amp-vectorize-contractions folds the fill into the kernel.
// CHECK-LABEL: func.func @fill_in_slice
// CHECK-NOT:     linalg.fill
// CHECK:         scf.forall (%[[I:.+]]) = (0) to (64) step (32) {
// CHECK:           %[[C:.+]] = memref.subview %{{.+}}[%[[I]], 0] [32, 16] [1, 1]
// CHECK-NEXT:      linalg.fill ins(%{{.+}} : f32) outs(%[[C]] : memref<32x16xf32, strided<[16, 1], offset: ?>>)
// CHECK-NEXT:      linalg.matmul ins(%{{.+}}, %{{.+}} : {{.+}}) outs(%[[C]] : {{.+}})
// CHECK-NOT:     linalg.fill
// SMALL-LABEL: func.func @fill_in_slice
// SMALL:         linalg.fill
// SMALL-NEXT:    linalg.matmul
func.func @fill_in_slice(%a: memref<64x128xf32>, %b: memref<128x16xf32>, %c: memref<64x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x16xf32>)
  linalg.matmul ins(%a, %b : memref<64x128xf32>, memref<128x16xf32>) outs(%c : memref<64x16xf32>)
  return
}

// -----

// An elementwise op right after a matmul that reads the matmul's output
// element by element (a bias added into another buffer) runs in the
// matmul's slices: slice i reads only the rows slice i wrote, so the
// threads need no barrier between them, and amp-vectorize-contractions
// applies it to the kernel's results. Both read one view of the slice.
// CHECK-LABEL: func.func @matmul_epilogue
// CHECK:         scf.forall (%[[I:.+]]) = (0) to (64) step (32) {
// CHECK:           %[[C:.+]] = memref.subview %arg2[%[[I]], 0] [32, 16] [1, 1]
// CHECK:           linalg.matmul ins({{.+}}) outs(%[[C]] : {{.+}})
// CHECK:           %[[D:.+]] = memref.subview %arg4[%[[I]], 0] [32, 16] [1, 1]
// CHECK:           linalg.generic {{.+}} ins(%[[C]], %{{.+}} : {{.+}}) outs(%[[D]] : {{.+}})
// CHECK:         }
// CHECK-NOT:     scf.forall
func.func @matmul_epilogue(%a: memref<64x128xf32>, %b: memref<128x16xf32>, %c: memref<64x16xf32>,
                           %bias: memref<16xf32>, %d: memref<64x16xf32>) {
  linalg.matmul ins(%a, %b : memref<64x128xf32>, memref<128x16xf32>) outs(%c : memref<64x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<64x16xf32>, memref<16xf32>) outs(%d : memref<64x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Fills of another buffer allocated here between the matmul and its
// epilogue (the border of the padded buffer whose interior the epilogue
// writes): the matmul's slices move past them, into the epilogue's
// `scf.forall`.
// CHECK-LABEL: func.func @epilogue_past_border_fills
// CHECK:         linalg.fill
// CHECK:         linalg.fill
// CHECK:         scf.forall (%[[I:.+]]) = (0) to (64) step (32) {
// CHECK:           %[[C:.+]] = memref.subview %alloc[%[[I]], 0] [32, 16] [1, 1]
// CHECK:           linalg.matmul ins({{.+}}) outs(%[[C]] : {{.+}})
// CHECK:           linalg.generic {{.+}} ins(%[[C]] : {{.+}})
// CHECK:         }
// CHECK-NOT:     linalg.matmul
func.func @epilogue_past_border_fills(%a: memref<64x128xf32>, %b: memref<128x16xf32>, %d: memref<66x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x16xf32>
  linalg.matmul ins(%a, %b : memref<64x128xf32>, memref<128x16xf32>) outs(%c : memref<64x16xf32>)
  %p = memref.alloc() : memref<66x16xf32>
  %top = memref.subview %p[0, 0] [1, 16] [1, 1] : memref<66x16xf32> to memref<1x16xf32, strided<[16, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<1x16xf32, strided<[16, 1]>>)
  %bottom = memref.subview %p[65, 0] [1, 16] [1, 1] : memref<66x16xf32> to memref<1x16xf32, strided<[16, 1], offset: 1040>>
  linalg.fill ins(%zero : f32) outs(%bottom : memref<1x16xf32, strided<[16, 1], offset: 1040>>)
  %inner = memref.subview %p[1, 0] [64, 16] [1, 1] : memref<66x16xf32> to memref<64x16xf32, strided<[16, 1], offset: 16>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x16xf32>) outs(%inner : memref<64x16xf32, strided<[16, 1], offset: 16>>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  memref.copy %p, %d : memref<66x16xf32> to memref<66x16xf32>
  return
}

// -----

// An elementwise op that reads the matmul's output transposed needs rows
// other slices write: it is split on its own, after the matmul's slices.
// CHECK-LABEL: func.func @transposed_reader
// CHECK:         scf.forall
// CHECK:           linalg.matmul
// CHECK:         }
// CHECK:         scf.forall
// CHECK:           linalg.generic
func.func @transposed_reader(%a: memref<64x128xf32>, %b: memref<128x64xf32>, %c: memref<64x64xf32>,
                             %d: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x128xf32>, memref<128x64xf32>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%d : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Consecutive ops whose slices line up run in one scf.forall, each thread
// doing its slice of one op after the other with no barrier between them:
// the second reads the buffer the first writes through the same view, with
// the split dimension at the same position, so slice i reads only what
// slice i wrote. The allocation between them moves before the slices.
// The copy into the result argument is split on its own: the argument may
// share memory with the arguments the first ops read.
// CHECK-LABEL: func.func @aligned_chain
// CHECK:         %[[T:.+]] = memref.alloc() : memref<64x32xf32>
// CHECK:         %[[U:.+]] = memref.alloc() : memref<64x32xf32>
// CHECK:         scf.forall (%[[I:.+]]) = (0) to (64) step (32) {
// CHECK:           %[[TS:.+]] = memref.subview %[[T]][%[[I]], 0] [32, 32] [1, 1]
// CHECK:           linalg.matmul ins({{.+}}) outs(%[[TS]] : {{.+}})
// CHECK-NEXT:      linalg.generic {{.+}} ins(%[[TS]] : {{.+}}) outs(%[[TS]] : {{.+}})
// CHECK:           %[[US:.+]] = memref.subview %[[U]][%[[I]], 0] [32, 32] [1, 1]
// CHECK-NEXT:      linalg.generic {{.+}} ins(%[[TS]] : {{.+}}) outs(%[[US]] : {{.+}})
// CHECK:         scf.forall
// CHECK:           linalg.copy
// CHECK-NOT:     scf.forall
#id = affine_map<(i, j) -> (i, j)>
func.func @aligned_chain(%a: memref<64x128xf32>, %b: memref<128x32xf32>, %d: memref<64x32xf32>) {
  %t = memref.alloc() : memref<64x32xf32>
  linalg.matmul ins(%a, %b : memref<64x128xf32>, memref<128x32xf32>) outs(%t : memref<64x32xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<64x32xf32>) outs(%t : memref<64x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  %u = memref.alloc() : memref<64x32xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<64x32xf32>) outs(%u : memref<64x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  memref.copy %u, %d : memref<64x32xf32> to memref<64x32xf32>
  return
}

// -----

// The second op overwrites, transposed, a buffer the first reads: slice i
// of the second would write rows that slice j of the first may still be
// reading. It waits for all of the first.
// CHECK-LABEL: func.func @misaligned_overwrite
// CHECK:         scf.forall
// CHECK:           linalg.generic
// CHECK:         }
// CHECK:         scf.forall
// CHECK:           linalg.generic
#id = affine_map<(i, j) -> (i, j)>
#tr = affine_map<(i, j) -> (j, i)>
func.func @misaligned_overwrite(%a: memref<64x64xf32>, %b: memref<64x64xf32>) {
  %t = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<64x64xf32>) outs(%b : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x64xf32>) outs(%t : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  return
}

// -----

// Two arguments may be views of one buffer: an op that writes one and an
// op that reads the other are not merged.
// CHECK-LABEL: func.func @arguments_may_alias
// CHECK:         scf.forall
// CHECK:         }
// CHECK:         scf.forall
#id = affine_map<(i, j) -> (i, j)>
func.func @arguments_may_alias(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x64xf32>) outs(%b : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  return
}

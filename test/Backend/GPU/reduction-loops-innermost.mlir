// amp-reduction-loops-innermost permutes the loop dimensions of linalg ops
// so that the parallel dimensions come first and the reductions last, each
// group in its original order; named ops are generalized first. Ops whose
// reductions already come last, and ops without parallel or without
// reduction dimensions, are left as they are.
// RUN: amp-opt %s -split-input-file -p 'builtin.module(amp-reduction-loops-innermost)' | FileCheck %s
// After it, such an op becomes one kernel with no scf.parallel left inside
// (without it, the parallel dimensions after the reduction stay an
// scf.parallel in the kernel, which the SPIR-V and NVVM lowerings reject):
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-reduction-loops-innermost,convert-linalg-to-parallel-loops,amp-tile-parallel-loops-for-gpu,gpu-map-parallel-loops,convert-parallel-loops-to-gpu))' | FileCheck %s --check-prefix=GPU

// A sum over the middle axis: (n, r, c) becomes (n, c, r); the maps follow
// and linalg.index ops read the dimension they read before.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[R:.+]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @middle
// CHECK:         linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:           %[[I0:.+]] = linalg.index 0
// CHECK:           %[[I1:.+]] = linalg.index 1
// CHECK:           %[[I2:.+]] = linalg.index 2
// CHECK:           %[[RI:.+]] = affine.apply #[[R]](%[[I0]], %[[I1]], %[[I2]])
// CHECK:           arith.index_cast %[[RI]]
// GPU-LABEL: func.func @middle
// GPU-NOT:     scf.parallel
// GPU:         gpu.launch
// GPU-NOT:     scf.parallel
// GPU:           scf.for
// GPU-NOT:     scf.parallel
// GPU:             arith.addf
// GPU-NOT:     scf.parallel
// GPU:         gpu.terminator
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#drop1 = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @middle(%x: memref<2x5x8xf32>, %y: memref<2x8xf32>) {
  linalg.generic {indexing_maps = [#id3, #drop1],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<2x5x8xf32>) outs(%y : memref<2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = linalg.index 1 : index
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    %t = arith.mulf %in, %rf : f32
    %s = arith.addf %t, %out : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Two reductions around parallel dimensions keep their relative order
// (r0 before r1), so every sum adds its terms in the same order.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2, d3) -> (d2, d0, d3, d1)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-LABEL: func.func @two_reductions
// CHECK:         linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
#in = affine_map<(r0, p0, r1, p1) -> (r0, p0, r1, p1)>
#out = affine_map<(r0, p0, r1, p1) -> (p0, p1)>
func.func @two_reductions(%x: tensor<3x4x5x6xf32>, %y: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %r = linalg.generic {indexing_maps = [#in, #out],
                       iterator_types = ["reduction", "parallel", "reduction", "parallel"]}
      ins(%x : tensor<3x4x5x6xf32>) outs(%y : tensor<4x6xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// -----

// A named op (linalg.reduce over dimension 1) is generalized and permuted.
// CHECK-LABEL: func.func @named
// CHECK-NOT:     linalg.reduce
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// GPU-LABEL: func.func @named
// GPU-NOT:     scf.parallel
// GPU:         gpu.launch
// GPU-NOT:     scf.parallel
// GPU:         gpu.terminator
func.func @named(%x: memref<16x32x64xf32>, %init: memref<16x64xf32>) {
  linalg.reduce ins(%x : memref<16x32x64xf32>) outs(%init : memref<16x64xf32>)
      dimensions = [1]
      (%in: f32, %out: f32) {
        %0 = arith.addf %out, %in : f32
        linalg.yield %0 : f32
      }
  return
}

// -----

// Left alone: reductions already last (named ops stay named), no
// reduction, no parallel dimension.
// CHECK-LABEL: func.func @unchanged
// CHECK:         linalg.matmul
// CHECK:         linalg.reduce
// CHECK:         iterator_types = ["parallel", "parallel"]
// CHECK:         dimensions = [0]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @unchanged(%a: memref<4x8xf32>, %b: memref<8x16xf32>,
                     %c: memref<4x16xf32>, %d: memref<4xf32>,
                     %s: memref<f32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>)
                outs(%c : memref<4x16xf32>)
  linalg.reduce ins(%c : memref<4x16xf32>) outs(%d : memref<4xf32>)
      dimensions = [1]
      (%in: f32, %out: f32) {
        %0 = arith.addf %out, %in : f32
        linalg.yield %0 : f32
      }
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<4x16xf32>) {
  ^bb0(%out: f32):
    %0 = arith.addf %out, %out : f32
    linalg.yield %0 : f32
  }
  linalg.reduce ins(%d : memref<4xf32>) outs(%s : memref<f32>)
      dimensions = [0]
      (%in: f32, %out: f32) {
        %0 = arith.addf %out, %in : f32
        linalg.yield %0 : f32
      }
  return
}

// RUN: amp-opt %s -p 'builtin.module(func.func(amp-reduce-rows-in-workgroups))' -split-input-file | FileCheck %s
// RUN: amp-opt %s -p 'builtin.module(func.func(amp-reduce-rows-in-workgroups{subgroup-size=32}))' -split-input-file | FileCheck %s --check-prefix=SHUFFLE
// Subgroups of 8 are too few to combine 32 subgroups' results with
// shuffles: the tree through workgroup memory instead.
// RUN: amp-opt %s -p 'builtin.module(func.func(amp-reduce-rows-in-workgroups{subgroup-size=8}))' -split-input-file | FileCheck %s --check-prefix=SMALLSUB
// SMALLSUB-LABEL: func.func @exp_sum
// SMALLSUB-NOT:   gpu.shuffle
// SMALLSUB:       memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
// RUN: not amp-opt %s -p 'builtin.module(func.func(amp-reduce-rows-in-workgroups{workgroup-size=100}))' -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADSIZE
// RUN: not amp-opt %s -p 'builtin.module(func.func(amp-reduce-rows-in-workgroups{subgroup-size=3}))' -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADSUB
// RUN: not amp-opt %s -p 'builtin.module(func.func(amp-reduce-rows-in-workgroups{min-row-size=0}))' -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADROW
// BADSIZE: amp-reduce-rows-in-workgroups: workgroup-size must be a power of two from 1 to 1024, got 100
// BADSUB: amp-reduce-rows-in-workgroups: subgroup-size must be 0 or a power of two, got 3
// BADROW: amp-reduce-rows-in-workgroups: min-row-size must be at least 1, got 0

// A softmax's sum of exp(x - max) over rows of 1000: one workgroup of 256
// threads per row (the grid's x runs over the 64 rows); each thread sums
// elements tid, tid + 256, ... from -0.0 (the identity of addf), computing
// exp(x - max) as the body does.
// CHECK-LABEL: func.func @exp_sum
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c64{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// CHECK:           %[[NEG0:.*]] = arith.constant -0.000000e+00 : f32
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c1000 step %c256{{.*}} iter_args(%{{.*}} = %[[NEG0]]) -> (f32) {
// CHECK:             math.exp
// CHECK:             arith.addf
// Without shuffles (a target whose subgroup size is not known): a tree
// through 256 floats of workgroup memory, one barrier per level.
// CHECK:           %[[TREE:.*]] = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-9:   gpu.barrier
// Thread 0 adds the row's sum to the output's old value and stores it.
// CHECK:           arith.cmpi eq
// CHECK:           scf.if
// CHECK:             memref.load %arg2
// CHECK:             arith.addf
// CHECK:             memref.store {{.*}}, %arg2
//
// With 32-thread subgroups: five shuffles, one barrier, the 8 subgroups'
// sums in workgroup memory, three more shuffles.
// SHUFFLE-LABEL: func.func @exp_sum
// SHUFFLE:         scf.for
// SHUFFLE-COUNT-5: gpu.shuffle xor
// SHUFFLE:         memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
// SHUFFLE:         gpu.barrier
// SHUFFLE-NOT:     gpu.barrier
// SHUFFLE-COUNT-3: gpu.shuffle xor
func.func @exp_sum(%x: memref<64x1000xf32>, %max: memref<64xf32>, %sum: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x, %max : memref<64x1000xf32>, memref<64xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%v: f32, %m: f32, %acc: f32):
    %d = arith.subf %v, %m : f32
    %e = math.exp %d : f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A max starts from -inf; rows of 100 get 128 threads.
// CHECK-LABEL: func.func @row_max
// CHECK:         threads({{.*}}) in ({{.*}} = %c128
// CHECK:           arith.constant 0xFF800000 : f32
// CHECK:           arith.maximumf
func.func @row_max(%x: memref<8x100xf32>, %out: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x100xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maximumf %acc, %v : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Left to one thread per row: short rows, two reduction loops, a
// subtraction, an output that a workgroup per row would not own (a
// parallel loop it does not index, or the reduction loop it does).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     gpu.launch
// CHECK-COUNT-5: linalg.generic
func.func @left_alone(%x: memref<8x32xf32>, %y: memref<8x100x100xf32>, %o: memref<8xf32>, %z: memref<8x100xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x32xf32>) outs(%o : memref<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i)>],
                  iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%y : memref<8x100x100xf32>) outs(%o : memref<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%y : memref<8x100x100xf32>) outs(%o : memref<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.subf %acc, %v : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%y : memref<8x100x100xf32>) outs(%o : memref<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i, k)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%z : memref<8x100xf32>) outs(%z : memref<8x100xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// RUN: amp-opt %s -p 'builtin.module(func.func(amp-fuse-rows-in-workgroups))' -split-input-file | FileCheck %s
// RUN: not amp-opt %s -p 'builtin.module(func.func(amp-fuse-rows-in-workgroups{max-elements-per-thread=0}))' -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADMAX
// RUN: not amp-opt %s -p 'builtin.module(func.func(amp-fuse-rows-in-workgroups{workgroup-size=3}))' -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADSIZE
// BADMAX: amp-fuse-rows-in-workgroups: max-elements-per-thread must be at least 1, got 0
// BADSIZE: amp-fuse-rows-in-workgroups: workgroup-size must be a power of two from 1 to 1024, got 3

// Softmax after bufferization (fill, max, exp, fill, sum, divide) is one
// kernel with a workgroup of 256 threads per row of 1000: each thread loads
// its 4 elements of the row once, both reductions combine across the
// workgroup (a tree through workgroup memory, one barrier per level), and
// only the result is stored; the row maxima and sums, temporaries only the
// run used, are gone.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT:     memref.alloc() {{.*}} : memref<64xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c64{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// CHECK-COUNT-4:   memref.load %arg0
// CHECK-NOT:       memref.load %arg0
// CHECK:           arith.maxnumf
// CHECK-COUNT-9:   gpu.barrier
// CHECK:           math.exp
// CHECK:           arith.addf
// CHECK-COUNT-9:   gpu.barrier
// CHECK:           arith.divf
// CHECK-COUNT-4:   memref.store {{.*}}, %arg1
// CHECK-NOT:       memref.store
// CHECK:           gpu.terminator
// CHECK-NEXT:    }
// CHECK-NEXT:    return
#row = affine_map<(i, j) -> (i)>
#el = affine_map<(i, j) -> (i, j)>
func.func @softmax(%x: memref<64x1000xf32>, %y: memref<64x1000xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %max = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%max : memref<64xf32>) {
  ^bb0(%o: f32):
    linalg.yield %ninf : f32
  }
  linalg.generic {indexing_maps = [#el, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x1000xf32>) outs(%max : memref<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maxnumf %v, %acc : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#el, #row, #el], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : memref<64x1000xf32>, memref<64xf32>) outs(%y : memref<64x1000xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  %sum = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%sum : memref<64xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [#el, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<64x1000xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#el, #row, #el], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sum : memref<64x1000xf32>, memref<64xf32>) outs(%y : memref<64x1000xf32>) {
  ^bb0(%e: f32, %s: f32, %o: f32):
    %p = arith.divf %e, %s : f32
    linalg.yield %p : f32
  }
  memref.dealloc %max : memref<64xf32>
  memref.dealloc %sum : memref<64xf32>
  return
}

// -----

// A layer norm with a scale per column: the mean is a per-row op between
// the two sums; the scale is read by the element's column. The row sums
// are also read after the run, so they are stored (by thread 0).
// CHECK-LABEL: func.func @layer_norm
// CHECK:         gpu.launch
// CHECK-SAME:      threads({{.*}}) in ({{.*}} = %c128
// CHECK:           arith.divf
// CHECK:           memref.load %arg1[
// CHECK:           math.sqrt
// CHECK:           arith.cmpi eq, %{{.*}}, %c0
// CHECK:           memref.store {{.*}}, %arg3[
// CHECK:         }
// CHECK:         call @use(%arg3)
#row = affine_map<(i, j) -> (i)>
#el = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func private @use(memref<8xf32>)
func.func @layer_norm(%x: memref<8x100xf32>, %gamma: memref<100xf32>, %y: memref<8x100xf32>, %sum: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 100.0 : f32
  linalg.fill ins(%zero : f32) outs(%sum : memref<8xf32>)
  linalg.generic {indexing_maps = [#el, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x100xf32>) outs(%sum : memref<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  %mean = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%sum : memref<8xf32>) outs(%mean : memref<8xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  }
  %sq = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%sq : memref<8xf32>)
  linalg.generic {indexing_maps = [#el, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : memref<8x100xf32>, memref<8xf32>) outs(%sq : memref<8xf32>) {
  ^bb0(%v: f32, %m: f32, %acc: f32):
    %d = arith.subf %v, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#el, #row, #row, #col, #el], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %sq, %gamma : memref<8x100xf32>, memref<8xf32>, memref<8xf32>, memref<100xf32>) outs(%y : memref<8x100xf32>) {
  ^bb0(%v: f32, %m: f32, %q: f32, %g: f32, %o: f32):
    %var = arith.divf %q, %n : f32
    %sd = math.sqrt %var : f32
    %d = arith.subf %v, %m : f32
    %r = arith.divf %d, %sd : f32
    %s = arith.mulf %r, %g : f32
    linalg.yield %s : f32
  }
  func.call @use(%sum) : (memref<8xf32>) -> ()
  memref.dealloc %mean : memref<8xf32>
  memref.dealloc %sq : memref<8xf32>
  return
}

// -----

// Left alone: rows longer than 256 threads x 16 elements (the reduction
// then goes to amp-reduce-rows-in-workgroups), rows shorter than 16, and
// runs without a reduction.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     gpu.launch
// CHECK-COUNT-3: linalg.generic
#row = affine_map<(i, j) -> (i)>
#el = affine_map<(i, j) -> (i, j)>
func.func @left_alone(%long: memref<2x5000xf32>, %o2: memref<2xf32>, %short: memref<4x8xf32>, %o4: memref<4xf32>) {
  linalg.generic {indexing_maps = [#el, #row], iterator_types = ["parallel", "reduction"]}
      ins(%long : memref<2x5000xf32>) outs(%o2 : memref<2xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#el, #row], iterator_types = ["parallel", "reduction"]}
      ins(%short : memref<4x8xf32>) outs(%o4 : memref<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#el, #el], iterator_types = ["parallel", "parallel"]}
      ins(%short : memref<4x8xf32>) outs(%short : memref<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// The run keeps what it writes in registers until its end: an op that reads
// a buffer of the run through another view of it ends the run before it
// (it would read the buffer before the run stores it).
// CHECK-LABEL: func.func @aliased_view
// CHECK:         %[[VIEW:.*]] = memref.reinterpret_cast %arg1
// CHECK:         gpu.launch
// CHECK-NOT:       memref.load %[[VIEW]]
// CHECK:           memref.store {{.*}}, %arg1
// CHECK:         gpu.launch
// CHECK:           memref.load %[[VIEW]]
#row = affine_map<(i, j) -> (i)>
#el = affine_map<(i, j) -> (i, j)>
func.func @aliased_view(%x: memref<8x100xf32>, %t: memref<8x100xf32>, %s: memref<8xf32>) {
  %view = memref.reinterpret_cast %t to offset: [0], sizes: [8, 100], strides: [100, 1] : memref<8x100xf32> to memref<8x100xf32>
  linalg.generic {indexing_maps = [#el, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x100xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#el, #row, #el], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<8x100xf32>, memref<8xf32>) outs(%t : memref<8x100xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    linalg.yield %d : f32
  }
  linalg.generic {indexing_maps = [#el, #row], iterator_types = ["parallel", "reduction"]}
      ins(%view : memref<8x100xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  }
  return
}

// -----

// Nor may an op read by column what the run writes: %s[j] belongs to the
// workgroup of row j, which may not have stored it yet. The run ends
// before the division.
// CHECK-LABEL: func.func @column_of_a_row_value
// CHECK:         gpu.launch
// CHECK:           memref.store {{.*}}, %arg1
// CHECK:         }
// CHECK:         linalg.generic
#row = affine_map<(i, j) -> (i)>
#el = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @column_of_a_row_value(%x: memref<100x100xf32>, %s: memref<100xf32>, %y: memref<100x100xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<100xf32>)
  linalg.generic {indexing_maps = [#el, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<100x100xf32>) outs(%s : memref<100xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#el, #col, #el], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<100x100xf32>, memref<100xf32>) outs(%y : memref<100x100xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %p = arith.divf %v, %c : f32
    linalg.yield %p : f32
  }
  return
}

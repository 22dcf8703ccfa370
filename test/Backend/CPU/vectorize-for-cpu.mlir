// amp-vectorize-for-cpu tiles each linalg op on buffers with static loop
// ranges to tiles of one element in every loop dimension but the vector
// dimension (the innermost index of the most data), which gets
// `vector-size` lanes or the largest power of two below it that divides its
// range, and vectorizes the tiles into 1-d vectors. Reductions along the
// vector dimension, dynamic ranges and ranges without a power-of-two
// divisor are left to the scalar loops.
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-vectorize-for-cpu,canonicalize))' | FileCheck %s
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-vectorize-for-cpu{vector-size=8},canonicalize))' | FileCheck %s --check-prefix=VS8
// RUN: not amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-vectorize-for-cpu{vector-size=1}))' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: vector-size must be in [2, 1024], got 1

#id = affine_map<(d0, d1) -> (d0, d1)>
// An elementwise kernel in f16: rows of 16 lanes, read, computed and
// written as vector<16xf16> (half the bytes of f32 per vector).
// CHECK-LABEL: func.func @elementwise
// CHECK:         scf.for %[[I:.+]] = %c0 to %c4 step %c1
// CHECK-NEXT:      scf.for %[[J:.+]] = %c0 to %c64 step %c16
// CHECK-NEXT:        %[[A:.+]] = vector.transfer_read %{{.+}}[%[[I]], %[[J]]], %{{.+}} {in_bounds = [true]} : memref<4x64xf16>, vector<16xf16>
// CHECK-NEXT:        %[[B:.+]] = vector.transfer_read %{{.+}}[%[[I]], %[[J]]], %{{.+}} {in_bounds = [true]} : memref<4x64xf16>, vector<16xf16>
// CHECK-NEXT:        %[[S:.+]] = arith.addf %[[A]], %[[B]] : vector<16xf16>
// CHECK-NEXT:        vector.transfer_write %[[S]], %{{.+}}[%[[I]], %[[J]]] {in_bounds = [true]} : vector<16xf16>, memref<4x64xf16>
// CHECK-NOT:     linalg.generic
// VS8-LABEL: func.func @elementwise
// VS8:           scf.for %{{.+}} = %c0 to %c64 step %c8
// VS8:             vector.transfer_read {{.+}} : memref<4x64xf16>, vector<8xf16>
func.func @elementwise(%a: memref<4x64xf16>, %b: memref<4x64xf16>, %c: memref<4x64xf16>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<4x64xf16>, memref<4x64xf16>) outs(%c : memref<4x64xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %s = arith.addf %x, %y : f16
    linalg.yield %s : f16
  }
  return
}

// -----

// A matmul with f16 operands and an f32 accumulator: the vector dimension
// is j (the innermost index of B and C), the k loop is innermost and keeps
// the accumulator tile in a vector register (read before it, written after
// it); A[i, k] is broadcast.
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
// CHECK-LABEL: func.func @matmul
// CHECK:         scf.for %[[I:.+]] = %c0 to %c8 step %c1
// CHECK-NEXT:      scf.for %[[J:.+]] = %c0 to %c32 step %c16
// CHECK-NEXT:        %[[ACC0:.+]] = vector.transfer_read %{{.+}}[%[[I]], %[[J]]]{{.*}} : memref<8x32xf32>, vector<16xf32>
// CHECK-NEXT:        %[[ACC:.+]] = scf.for %[[K:.+]] = %c0 to %c64 step %c1 iter_args(%[[X:.+]] = %[[ACC0]]) -> (vector<16xf32>)
// CHECK-DAG:           vector.transfer_read %{{.+}}[%[[I]], %[[K]]]{{.*}} : memref<8x64xf16>, vector<{{(16x)?}}f16>
// CHECK-DAG:           vector.transfer_read %{{.+}}[%[[K]], %[[J]]]{{.*}} : memref<64x32xf16>, vector<16xf16>
// CHECK:               arith.extf %{{.+}} : vector<16xf16> to vector<16xf32>
// CHECK:               arith.mulf %{{.+}} : vector<16xf32>
// CHECK:               arith.addf
// CHECK:               scf.yield
// CHECK:             vector.transfer_write %[[ACC]], %{{.+}}[%[[I]], %[[J]]] {in_bounds = [true]} : vector<16xf32>, memref<8x32xf32>
func.func @matmul(%a: memref<8x64xf16>, %b: memref<64x32xf16>, %c: memref<8x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x64xf16>, memref<64x32xf16>) outs(%c : memref<8x32xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A sum along rows reduces along its inputs' innermost index: 16 lanes of
// partial sums along each row, the 4 rows (consecutive output elements)
// side by side in one loop, and then the rows' lanes halved together: a
// pair of rows becomes one vector of both rows' halves added (lane i to
// lane i + 8 of each row), and so on down to one vector of the 4 sums,
// added to the output as a vector.
// CHECK-LABEL: func.func @row_sum
// CHECK-DAG:     %[[R0:.+]] = vector.transfer_read %arg0[%c0, %c0]{{.*}} : memref<4x64xf32>, vector<16xf32>
// CHECK-DAG:     %[[R1:.+]] = vector.transfer_read %arg0[%c1, %c0]{{.*}} : memref<4x64xf32>, vector<16xf32>
// CHECK:         %[[P:.+]]:4 = scf.for %[[K:.+]] = %c16 to %c64 step %c16 iter_args(%[[A0:.+]] = %[[R0]], %[[A1:.+]] = %[[R1]], %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK:           %[[V:.+]] = vector.transfer_read %arg0[%c0, %[[K]]]
// CHECK:           arith.addf %[[V]], %[[A0]] : vector<16xf32>
// CHECK-COUNT-3:   arith.addf {{.+}} : vector<16xf32>
// CHECK:         }
// CHECK-DAG:     %[[HI:.+]] = vector.shuffle %[[P]]#0, %[[P]]#1 [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31]
// CHECK-DAG:     %[[LO:.+]] = vector.shuffle %[[P]]#0, %[[P]]#1 [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]
// CHECK:         arith.addf %[[HI]], %[[LO]] : vector<16xf32>
// CHECK-COUNT-2: arith.addf {{.+}} : vector<16xf32>
// CHECK:         arith.addf {{.+}} : vector<8xf32>
// CHECK:         %[[SUMS:.+]] = arith.addf {{.+}} : vector<4xf32>
// CHECK:         %[[OLD:.+]] = vector.transfer_read %arg1[%c0]{{.*}} : memref<4xf32>, vector<4xf32>
// CHECK:         %[[NEW:.+]] = arith.addf %[[SUMS]], %[[OLD]] : vector<4xf32>
// CHECK:         vector.transfer_write %[[NEW]], %arg1[%c0]
// CHECK-NOT:     vector.reduction
// CHECK-NOT:     linalg.generic
func.func @row_sum(%x: memref<4x64xf32>, %s: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x64xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A sum of every element into a 0-d output: one row, its loop reads at
// the loop's index, the lanes combined by a vector.reduction.
// CHECK-LABEL: func.func @total
// CHECK:         scf.for %[[K:.+]] = %c16 to %c64 step %c16 iter_args
// CHECK:           vector.transfer_read %arg0[%[[K]]]
// CHECK:         vector.reduction <add>, %{{.+}} fastmath<reassoc> : vector<16xf32> into f32
// CHECK:         memref.store {{.+}}, %arg1[] : memref<f32>
func.func @total(%x: memref<64xf32>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%x : memref<64xf32>) outs(%s : memref<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A layer norm's sum of squares of f16 values after the fill of its
// output: the term (x * x, widened) is computed on vectors, the fill is
// folded (the result starts at its value), and an input that does not
// index the reduction (the scale) is read as a scalar and broadcast. The 8
// rows' sums end in one vector. (The loop over the second half of the row
// is a single step, which canonicalization inlines.)
// CHECK-LABEL: func.func @sum_of_squares
// CHECK-NOT:     linalg.fill
// CHECK:         vector.transfer_read %arg0[%c0, %c0]{{.*}} : memref<8x32xf16>, vector<16xf16>
// CHECK:         %[[SCALE:.+]] = memref.load %arg1[%c0] : memref<8xf32>
// CHECK:         arith.extf {{.+}} : vector<16xf16> to vector<16xf32>
// CHECK:         vector.broadcast %[[SCALE]] : f32 to vector<16xf32>
// CHECK:         vector.transfer_read %arg0[%c7, %c16]
// CHECK:         %[[SUMS:.+]] = arith.addf {{.+}} : vector<8xf32>
// CHECK-NOT:     vector.transfer_read %arg2
// CHECK:         %[[NEW:.+]] = arith.addf %[[SUMS]], %cst{{.*}} : vector<8xf32>
// CHECK:         vector.transfer_write %[[NEW]], %arg2[%c0]
// CHECK-NOT:     linalg.
func.func @sum_of_squares(%x: memref<8x32xf16>, %scale: memref<8xf32>, %s: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<8xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>, affine_map<(i, k) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x, %scale : memref<8x32xf16>, memref<8xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%v: f16, %c: f32, %acc: f32):
    %w = arith.extf %v : f16 to f32
    %sq = arith.mulf %w, %w : f32
    %t = arith.mulf %sq, %c : f32
    %r = arith.addf %acc, %t : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A softmax's maximum over rows of 8: one vector per row, no loop over the
// row; 8 rows at a time, their maxima in one vector.
// CHECK-LABEL: func.func @row_max
// CHECK:         scf.for %[[I:.+]] = %c0 to %c16 step %c8 {
// CHECK-COUNT-8:   vector.transfer_read %arg0{{.+}} : memref<16x8xf32>, vector<8xf32>
// CHECK-NOT:       scf.for {{.+}} iter_args
// CHECK-COUNT-7:   arith.maxnumf {{.+}} : vector<8xf32>
// CHECK:           %[[OLD:.+]] = vector.transfer_read %arg1[%[[I]]]{{.*}} : memref<16xf32>, vector<8xf32>
// CHECK:           %[[NEW:.+]] = arith.maxnumf %[[OLD]], %{{.+}} : vector<8xf32>
// CHECK:           vector.transfer_write %[[NEW]], %arg1[%[[I]]]
func.func @row_max(%x: memref<16x8xf32>, %m: memref<16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<16x8xf32>) outs(%m : memref<16xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.maxnumf %acc, %v : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Rows of 6 (no 4 lanes divide them) and a body that uses the accumulator
// twice stay scalar loops.
// CHECK-LABEL: func.func @not_taken
// CHECK-NOT:     vector.reduction
// CHECK:         linalg.generic
// CHECK:         linalg.generic
func.func @not_taken(%x: memref<4x6xf32>, %y: memref<4x64xf32>, %s: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x6xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<4x64xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %p = arith.mulf %v, %acc : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// 12 columns: tiles of 4 lanes (the largest power of two dividing 12);
// 7 columns: no tile of at least 2 divides them, the op is left alone; a
// dynamic range too.
// CHECK-LABEL: func.func @ranges
// CHECK:         scf.for %{{.+}} = %c0 to %c12 step %c4
// CHECK:           vector.transfer_write {{.+}} : vector<4xf32>, memref<3x12xf32>
// CHECK:         linalg.generic {{.+}} outs(%{{.+}} : memref<3x7xf32>)
// CHECK:         linalg.generic {{.+}} outs(%{{.+}} : memref<?x16xf32>)
func.func @ranges(%a: memref<3x12xf32>, %b: memref<3x7xf32>, %c: memref<?x16xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%a : memref<3x12xf32>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%b : memref<3x7xf32>) {
  ^bb0(%o: f32):
    linalg.yield %one : f32
  }
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%c : memref<?x16xf32>) {
  ^bb0(%o: f32):
    linalg.yield %one : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// Ops on tensors are left to bufferization first.
// CHECK-LABEL: func.func @tensors
// CHECK-NOT:     vector.
// CHECK:         linalg.generic
func.func @tensors(%a: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x64xf32>) outs(%a : tensor<4x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// A select on a mask: memref<...xi1> holds a byte per element, a vector<16xi1>
// would be 16 bits, so the op stays scalar (its f32 neighbour is vectorized).
// CHECK-LABEL: func.func @booleans
// CHECK-NOT:     vector<{{.*}}xi1>
// CHECK:         linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : memref<4x64xi1>, memref<4x64xf32>)
// CHECK:         vector.transfer_write {{.+}} : vector<16xf32>, memref<4x64xf32>
func.func @booleans(%m: memref<4x64xi1>, %a: memref<4x64xf32>, %c: memref<4x64xf32>) {
  %big = arith.constant -1.0e4 : f32
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %a : memref<4x64xi1>, memref<4x64xf32>) outs(%c : memref<4x64xf32>) {
  ^bb0(%k: i1, %x: f32, %o: f32):
    %s = arith.select %k, %x, %big : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x64xf32>) outs(%c : memref<4x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// math.fpowi has no vector form in LLVM (llvm.intr.powi takes a scalar
// exponent): the op stays scalar.
// CHECK-LABEL: func.func @fpowi
// CHECK-NOT:     vector.
// CHECK:         linalg.generic
// CHECK:           math.fpowi %{{.+}}, %{{.+}} : f32, i32
func.func @fpowi(%a: memref<4x16xf32>, %c: memref<4x16xf32>) {
  %two = arith.constant 2 : i32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x16xf32>) outs(%c : memref<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %p = math.fpowi %x, %two : f32, i32
    linalg.yield %p : f32
  }
  return
}

// -----

// A copy into a strided view (a padded buffer's interior) becomes vector
// loops, also in a function without linalg ops; a contiguous copy stays a
// memref.copy (a memcpy).
// CHECK-LABEL: func.func @copy_into_interior
// CHECK:         scf.for
// CHECK:           %[[ROW:.+]] = vector.transfer_read %{{.+}} : memref<8x16xf32>, vector<16xf32>
// CHECK:           vector.transfer_write %[[ROW]], %{{.+}} : vector<16xf32>, memref<10x18xf32>
// CHECK:         memref.copy %{{.+}}, %{{.+}} : memref<8x16xf32> to memref<8x16xf32>
func.func @copy_into_interior(%a: memref<8x16xf32>, %padded: memref<10x18xf32>, %b: memref<8x16xf32>) {
  %interior = memref.subview %padded[1, 1] [8, 16] [1, 1] : memref<10x18xf32> to memref<8x16xf32, strided<[18, 1], offset: 19>>
  memref.copy %a, %interior : memref<8x16xf32> to memref<8x16xf32, strided<[18, 1], offset: 19>>
  memref.copy %a, %b : memref<8x16xf32> to memref<8x16xf32>
  return
}

// -----

// A transpose (NCHW to NHWC, as around convolutions) reads its input across
// rows: the vector dimension (c, the output's innermost) strides through the
// input. It is tiled along the input's own innermost dimension (w) too, in
// tiles of 8 lanes by 4 rows: each tile reads 8 rows of 4 elements, a plane
// apart, turns them in registers and writes 4 rows of 8 channels. The loop
// along w is innermost, so that each tile reads on where the last one
// stopped in the same 8 rows.
// CHECK-LABEL: func.func @nchw_to_nhwc
// CHECK:         scf.for %[[H:.+]] = %c0 to %c32 step %c1
// CHECK-NEXT:      scf.for %[[C:.+]] = %c0 to %c64 step %c8
// CHECK-NEXT:        scf.for %[[W:.+]] = %c0 to %c32 step %c4
// CHECK-NEXT:          %[[ROWS:.+]] = vector.transfer_read %{{.+}}[%c0, %[[C]], %[[H]], %[[W]]], %{{.+}} {in_bounds = [true, true], permutation_map = #{{.+}}} : memref<1x64x32x32xf32>, vector<8x4xf32>
// CHECK-NEXT:          %[[T:.+]] = vector.transpose %[[ROWS]], [1, 0] : vector<8x4xf32> to vector<4x8xf32>
// CHECK-NEXT:          vector.transfer_write %[[T]], %{{.+}}[%c0, %[[H]], %[[W]], %[[C]]] {in_bounds = [true, true]} : vector<4x8xf32>, memref<1x32x32x64xf32>
func.func @nchw_to_nhwc(%in: memref<1x64x32x32xf32>, %out: memref<1x32x32x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, c, h, w)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%in : memref<1x64x32x32xf32>) outs(%out : memref<1x32x32x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// The way back, with a cast (as where an f16 program returns f32): the
// vector dimension is w, the output's innermost, and the input's innermost
// (c) is tiled too: 8 pixels' rows of 4 channels are read, turned, widened
// and written as 4 planes' rows of 8 pixels; the loop along c is innermost.
// CHECK-LABEL: func.func @nhwc_to_nchw
// CHECK:         scf.for %[[H:.+]] = %c0 to %c32 step %c1
// CHECK-NEXT:      scf.for %[[W:.+]] = %c0 to %c32 step %c8
// CHECK-NEXT:        scf.for %[[C:.+]] = %c0 to %c64 step %c4
// CHECK:               vector.transfer_read %{{.+}}[%c0, %[[H]], %[[W]], %[[C]]], %{{.+}} {in_bounds = [true, true]} : memref<1x32x32x64xf16>, vector<8x4xf16>
// CHECK:               vector.transpose %{{.+}}, [1, 0] : vector<8x4xf16> to vector<4x8xf16>
// CHECK:               arith.extf %{{.+}} : vector<4x8xf16> to vector<4x8xf32>
// CHECK:               vector.transfer_write %{{.+}}, %{{.+}}[%c0, %[[C]], %[[H]], %[[W]]] {in_bounds = [true, true], permutation_map = #{{.+}}} : vector<4x8xf32>, memref<1x64x32x32xf32>
func.func @nhwc_to_nchw(%in: memref<1x32x32x64xf16>, %out: memref<1x64x32x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, h, w, c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%in : memref<1x32x32x64xf16>) outs(%out : memref<1x64x32x32xf32>) {
  ^bb0(%x: f16, %o: f32):
    %e = arith.extf %x : f16 to f32
    linalg.yield %e : f32
  }
  return
}

// RUN: amp-opt %s -p 'builtin.module(func.func(amp-vectorize-contractions{lanes=16 rows=4 cols=1},canonicalize))' -split-input-file | FileCheck %s
// RUN: amp-opt %s -p 'builtin.module(func.func(amp-vectorize-contractions{lanes=16 rows=4},canonicalize))' -split-input-file | FileCheck %s --check-prefix=COLS
// A second run changes nothing: the kernels leave no op it takes.
// RUN: amp-opt %s -p 'builtin.module(func.func(amp-vectorize-contractions{lanes=16 rows=4},canonicalize))' -split-input-file -o %t.once
// RUN: amp-opt %t.once -p 'builtin.module(func.func(amp-vectorize-contractions{lanes=16 rows=4},canonicalize))' -split-input-file -o %t.twice
// RUN: cmp %t.once %t.twice
// RUN: not amp-opt %s -p 'builtin.module(func.func(amp-vectorize-contractions{rows=0}))' -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not amp-opt %s -p 'builtin.module(func.func(amp-vectorize-contractions{cols=17}))' -split-input-file 2>&1 | FileCheck %s --check-prefix=BADCOLS
// BAD: amp-vectorize-contractions: lanes must be in [1, 1024], rows in [1, 64] and cols in [1, 16], got 16, 0 and 2
// BADCOLS: amp-vectorize-contractions: lanes must be in [1, 1024], rows in [1, 64] and cols in [1, 16], got 16, 8 and 17

// A matmul: tiles of 4 rows (i) by 16 lanes (j); the accumulators are
// loaded once, carried through the k loop, and stored once; each k step
// reads one vector of B and one scalar of A per row.
// CHECK-LABEL: func.func @matmul
// CHECK:      scf.for %[[I:.+]] = %c0 to %c8 step %c4 {
// CHECK:        scf.for %[[J:.+]] = %c0 to %c32 step %c16 {
// CHECK-COUNT-4:  vector.transfer_read %arg2[{{.+}}, %[[J]]]{{.*}} : memref<8x40xf32>, vector<16xf32>
// CHECK:          %[[R:.+]]:4 = scf.for %[[K:.+]] = %c0 to %c64 step %c1 iter_args({{.+}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK-COUNT-4:    memref.load %arg0[{{.+}}, %[[K]]] : memref<8x64xf32>
// CHECK:            vector.transfer_read %arg1[%[[K]], %[[J]]]{{.*}} : memref<64x40xf32>, vector<16xf32>
// CHECK-NOT:        vector.transfer_read
// CHECK-COUNT-4:    vector.fma {{.*}} : vector<16xf32>
// CHECK:            scf.yield
// CHECK-COUNT-4:  vector.transfer_write %[[R]]#{{[0-3]}}, %arg2[{{.+}}, %[[J]]]
// The last 8 columns: one shorter vector.
// CHECK:        scf.for {{.+}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK-COUNT-4:  vector.fma {{.*}} : vector<8xf32>
// CHECK-NOT:  linalg.
// With two vectors a row (the default `cols`): the 32 columns of whole
// vectors are one tile of 4 rows by 2 vectors, 8 sums; each k step reads
// the two vectors of B and one scalar of A per row, which serves both.
// COLS-LABEL: func.func @matmul
// COLS:      scf.for %[[I:.+]] = %c0 to %c8 step %c4 {
// COLS-NOT:    scf.for {{.+}} step %c16
// COLS:        scf.for %[[K:.+]] = %c0 to %c64 step %c1 iter_args({{.+}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// COLS-COUNT-4:  memref.load %arg0[{{.+}}, %[[K]]] : memref<8x64xf32>
// COLS-NEXT:     vector.transfer_read %arg1[%[[K]], %c0]{{.*}} : memref<64x40xf32>, vector<16xf32>
// COLS-NEXT:     vector.transfer_read %arg1[%[[K]], %c16]{{.*}} : memref<64x40xf32>, vector<16xf32>
// COLS-NOT:      vector.transfer_read
// COLS-COUNT-8:  vector.fma {{.*}} : vector<16xf32>
// COLS:          scf.yield
// COLS:        vector.transfer_write {{.+}}, %arg2[%[[I]], %c16]
// COLS:        scf.for {{.+}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
func.func @matmul(%a: memref<8x64xf32>, %b: memref<64x40xf32>, %c: memref<8x40xf32>) {
  linalg.matmul ins(%a, %b : memref<8x64xf32>, memref<64x40xf32>) outs(%c : memref<8x40xf32>)
  return
}

// -----

// A B of 1 MiB (256x1024 f32), more than half a core's L2: every tile of
// rows would read all of it from memory. The loop over the vector tiles
// (j) goes outside the one over the rows (i), so that the rows' tiles read
// the same 16 columns of B one after the other (from the cache).
// CHECK-LABEL: func.func @matmul_large_b
// CHECK:      scf.for %[[J:.+]] = %c0 to %c1024 step %c16 {
// CHECK-NEXT:   scf.for %[[I:.+]] = %c0 to %c64 step %c4 {
// CHECK:          scf.for %[[K:.+]] = %c0 to %c256 step %c1
// CHECK:            vector.transfer_read %arg1[%[[K]], %[[J]]]{{.*}} : memref<256x1024xf32>, vector<16xf32>
// A B of 64 KiB keeps the rows outside.
// CHECK-LABEL: func.func @matmul_small_b
// CHECK:      scf.for %[[I:.+]] = %c0 to %c64 step %c4 {
// CHECK-NEXT:   scf.for %[[J:.+]] = %c0 to %c64 step %c16 {
func.func @matmul_large_b(%a: memref<64x256xf32>, %b: memref<256x1024xf32>, %c: memref<64x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<64x256xf32>, memref<256x1024xf32>) outs(%c : memref<64x1024xf32>)
  return
}
func.func @matmul_small_b(%a: memref<64x256xf32>, %b: memref<256x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x256xf32>, memref<256x64xf32>) outs(%c : memref<64x64xf32>)
  return
}
// Unless the A that each vector tile would read again is larger than the
// cache (16 MiB) while B fits in the shared cache (1 MiB of at most 4): the
// rows stay outside, each tile of rows reading B from the cache, A read
// once.
// CHECK-LABEL: func.func @matmul_large_b_large_a
// CHECK:      scf.for %[[I:.+]] = %c0 to %c16384 step %c4 {
// CHECK-NEXT:   scf.for %[[J:.+]] = %c0 to %c1024 step %c16 {
func.func @matmul_large_b_large_a(%a: memref<16384x256xf32>, %b: memref<256x1024xf32>, %c: memref<16384x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<16384x256xf32>, memref<256x1024xf32>) outs(%c : memref<16384x1024xf32>)
  return
}

// -----

// A B of 2 MiB whose 16 columns a vector tile reads take 512 KiB, more
// than a quarter of a core's L2: the vector tiles read it 4096 rows of k at
// a time, the loop over those blocks outermost. Each tile adds a block's
// products to the sums in C and stores them; the next block reads them
// back.
// CHECK-LABEL: func.func @matmul_blocked_k
// CHECK:      scf.for %[[KB:.+]] = %c0 to %c8192 step %c4096 {
// CHECK-NEXT:   scf.for %[[J:.+]] = %c0 to %c64 step %c16 {
// CHECK-NEXT:     scf.for %[[I:.+]] = %c0 to %c8 step %c4 {
// CHECK-NEXT:       vector.transfer_read %arg2[%[[I]], %[[J]]]
// CHECK:            scf.for %[[K:.+]] = %c0 to %c4096 step %c1
// CHECK:              affine.apply #{{.+}}(%[[KB]], %[[K]])
// CHECK:              vector.transfer_read %arg1[%{{.+}}, %[[J]]]
// CHECK:            vector.transfer_write {{.+}}, %arg2[%[[I]], %[[J]]]
func.func @matmul_blocked_k(%a: memref<8x8192xf32>, %b: memref<8192x64xf32>, %c: memref<8x64xf32>) {
  linalg.matmul ins(%a, %b : memref<8x8192xf32>, memref<8192x64xf32>) outs(%c : memref<8x64xf32>)
  return
}

// -----

// Blocked with a fill and an epilogue: the first block starts at the
// filled value, the others at the sums stored in the op's output; only the
// last block's sums go through the epilogue, to its buffer.
// CHECK-LABEL: func.func @matmul_blocked_epilogue
// CHECK:        %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK:        %[[T:.+]] = memref.alloc() : memref<8x32xf32>
// CHECK:        scf.for %[[KB:.+]] = %c0 to %c8192 step %c4096 {
// CHECK:          %[[FIRST:.+]] = arith.cmpi eq, %[[KB]], %c0
// CHECK-NEXT:     %[[INIT:.+]]:4 = scf.if %[[FIRST]]
// CHECK-NEXT:       scf.yield %[[ZERO]], %[[ZERO]], %[[ZERO]], %[[ZERO]]
// CHECK-NEXT:     } else {
// CHECK-NEXT:       vector.transfer_read %[[T]]
// CHECK:          %[[SUMS:.+]]:4 = scf.for {{.+}} iter_args(%{{.+}} = %[[INIT]]#0,
// CHECK:          %[[LAST:.+]] = arith.cmpi eq, %[[KB]], %c4096
// CHECK-NEXT:     scf.if %[[LAST]] {
// CHECK-NEXT:       arith.maximumf %[[SUMS]]#0, %[[ZERO]]
// CHECK-NEXT:       vector.transfer_write {{.+}}, %arg2
// CHECK:          } else {
// CHECK-NEXT:       vector.transfer_write %[[SUMS]]#0, %[[T]]
func.func @matmul_blocked_epilogue(%a: memref<8x8192xf32>, %b: memref<8192x32xf32>, %out: memref<8x32xf32>) {
  %z = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<8x32xf32>
  linalg.fill ins(%z : f32) outs(%t : memref<8x32xf32>)
  linalg.matmul ins(%a, %b : memref<8x8192xf32>, memref<8192x32xf32>) outs(%t : memref<8x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%t : memref<8x32xf32>) outs(%out : memref<8x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %z : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// 11 rows, at most 4 a tile: the fewest tiles (3), of 4 rows but the last,
// which takes the 3 that remain. (No divisor of 11 would make tiles of
// more than one row.)
// CHECK-LABEL: func.func @matmul_row_remainder
// CHECK:      scf.for %[[I:.+]] = %c0 to %c8 step %c4 {
// CHECK:        scf.for {{.+}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK-COUNT-4:  vector.fma
// CHECK:      }
// CHECK:      scf.for %[[K:.+]] = %c0 to %c64 step %c1 iter_args({{.+}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK-NEXT:   memref.load %arg0[%c8, %[[K]]]
// CHECK-NEXT:   memref.load %arg0[%c9, %[[K]]]
// CHECK-NEXT:   memref.load %arg0[%c10, %[[K]]]
// CHECK-COUNT-3: vector.fma
// CHECK:      vector.transfer_write {{.+}}, %arg2[%c8, %c0]
// CHECK:      vector.transfer_write {{.+}}, %arg2[%c9, %c0]
// CHECK:      vector.transfer_write {{.+}}, %arg2[%c10, %c0]
func.func @matmul_row_remainder(%a: memref<11x64xf32>, %b: memref<64x16xf32>, %c: memref<11x16xf32>) {
  linalg.matmul ins(%a, %b : memref<11x64xf32>, memref<64x16xf32>) outs(%c : memref<11x16xf32>)
  return
}

// -----

// Converted operands are read in their type and widened in registers.
// CHECK-LABEL: func.func @matmul_f16
// CHECK: scf.for {{.+}} -> (vector<16xf32>, vector<16xf32>) {
// CHECK:   memref.load %arg0{{.+}} : memref<2x8xf16>
// CHECK:   vector.transfer_read %arg1{{.+}} : memref<8x16xf16>, vector<16xf16>
// CHECK:   arith.extf {{.+}} : vector<16xf16> to vector<16xf32>
// CHECK:   vector.fma {{.*}} : vector<16xf32>
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @matmul_f16(%a: memref<2x8xf16>, %b: memref<8x16xf16>, %c: memref<2x16xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x8xf16>, memref<8x16xf16>) outs(%c : memref<2x16xf32>) {
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

// A sum over rows (the vector dimension is not reduced): a vector add,
// no fused multiply-add.
// CHECK-LABEL: func.func @column_sums
// CHECK: scf.for {{.+}} -> (vector<16xf32>)
// CHECK:   arith.addf {{.+}} : vector<16xf32>
// CHECK-NOT: vector.fma
func.func @column_sums(%x: memref<100x16xf32>, %y: memref<16xf32>) {
  linalg.reduce ins(%x : memref<100x16xf32>) outs(%y : memref<16xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// Left to amp-vectorize-for-cpu: an input that indexes the vector
// dimension other than innermost (B transposed, not a constant that
// amp-pack-weights could have packed), a reduction along the output's
// innermost dimension, elementwise ops, and tensors.
// CHECK-LABEL: func.func @unchanged
// CHECK-COUNT-3: linalg.generic
// CHECK: linalg.matmul
#nk = affine_map<(m, n, k) -> (n, k)>
func.func @unchanged(%a: memref<4x8xf32>, %bt: memref<16x8xf32>, %c: memref<4x16xf32>,
                     %rows: memref<4xf32>, %t: tensor<4x8xf32>, %u: tensor<8x16xf32>, %v: tensor<4x16xf32>) -> tensor<4x16xf32> {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, #nk, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %bt : memref<4x8xf32>, memref<16x8xf32>) outs(%c : memref<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x8xf32>) outs(%rows : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x16xf32>) outs(%c : memref<4x16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  %r = linalg.matmul ins(%t, %u : tensor<4x8xf32>, tensor<8x16xf32>) outs(%v : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// With bf16-dot, an f32 sum of bf16 products whose weight is in the pair
// layout steps over pairs of k: one vector of the 16 columns' pairs, the
// row's pair (k, k + 1) broadcast as a 32-bit word, one vdpbf16ps per row.
// Without bf16-dot the op is left alone (its weight is not in kernel order).
// RUN: amp-opt %s -p 'builtin.module(func.func(amp-vectorize-contractions{bf16-dot rows=2 cols=1},canonicalize))' -split-input-file | FileCheck %s --check-prefix=DOT
// DOT-LABEL: func.func @bf16_dot
// DOT:   %[[PAIRS:.+]] = memref.collapse_shape %arg1 {{\[\[}}0], [1, 2]] : memref<4x16x2xbf16> into memref<4x32xbf16>
// DOT:   scf.for %[[KK:.+]] = %c0 to %c4 step %c1 iter_args({{.+}}) -> (vector<16xf32>, vector<16xf32>)
// DOT:     vector.transfer_read %[[PAIRS]][%[[KK]], %c0]{{.*}} : memref<4x32xbf16>, vector<32xbf16>
// DOT:     %[[K:.+]] = affine.apply #{{.+}}(%[[KK]])
// DOT:     vector.transfer_read %arg0[%c0, %[[K]]]{{.*}} : memref<2x8xbf16>, vector<2xbf16>
// DOT:     vector.bitcast {{.+}} : vector<2xbf16> to vector<1xi32>
// DOT:     vector.broadcast {{.+}} : vector<1xi32> to vector<16xi32>
// DOT:     vector.bitcast {{.+}} : vector<16xi32> to vector<32xbf16>
// DOT:     x86vector.avx512.dot {{.+}} : vector<32xbf16> -> vector<16xf32>
// DOT:     x86vector.avx512.dot {{.+}} : vector<32xbf16> -> vector<16xf32>
// CHECK-LABEL: func.func @bf16_dot
// CHECK: linalg.generic
#mk3 = affine_map<(m, n, k) -> (m, k)>
#pairs = affine_map<(m, n, k) -> (k floordiv 2, n, k mod 2)>
#mn3 = affine_map<(m, n, k) -> (m, n)>
func.func @bf16_dot(%a: memref<2x8xbf16>, %w: memref<4x16x2xbf16>, %c: memref<2x16xf32>) {
  linalg.generic {indexing_maps = [#mk3, #pairs, #mn3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<2x8xbf16>, memref<4x16x2xbf16>) outs(%c : memref<2x16xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// With bf16-dot and two vectors a row (the default `cols`), 32 columns and
// 32 pairs of k: each step reads the pairs of the two vectors of columns
// and broadcasts each row's pair once, for both of its vdpbf16ps.
// RUN: amp-opt %s -p 'builtin.module(func.func(amp-vectorize-contractions{bf16-dot rows=2},canonicalize))' -split-input-file | FileCheck %s --check-prefix=DOTCOLS
// DOTCOLS-LABEL: func.func @bf16_dot_cols
// DOTCOLS:   %[[PAIRS:.+]] = memref.collapse_shape %arg1 {{\[\[}}0], [1, 2]] : memref<32x32x2xbf16> into memref<32x64xbf16>
// DOTCOLS:   scf.for %[[KK:.+]] = %c0 to %c32 step %c1 iter_args({{.+}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// DOTCOLS:     vector.transfer_read %[[PAIRS]][%[[KK]], %c0]{{.*}} : memref<32x64xbf16>, vector<32xbf16>
// DOTCOLS:     vector.transfer_read %[[PAIRS]][%[[KK]], %c32]{{.*}} : memref<32x64xbf16>, vector<32xbf16>
// DOTCOLS-COUNT-2: vector.transfer_read %arg0{{.+}} : memref<2x64xbf16>, vector<2xbf16>
// DOTCOLS-NOT:     vector.transfer_read
// DOTCOLS-COUNT-4: x86vector.avx512.dot {{.+}} : vector<32xbf16> -> vector<16xf32>
// DOTCOLS:     scf.yield
#mk4 = affine_map<(m, n, k) -> (m, k)>
#pairs4 = affine_map<(m, n, k) -> (k floordiv 2, n, k mod 2)>
#mn4 = affine_map<(m, n, k) -> (m, n)>
func.func @bf16_dot_cols(%a: memref<2x64xbf16>, %w: memref<32x32x2xbf16>, %c: memref<2x32xf32>) {
  linalg.generic {indexing_maps = [#mk4, #pairs4, #mn4], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<2x64xbf16>, memref<32x32x2xbf16>) outs(%c : memref<2x32xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// With bf16-dot, 28 columns: a tile of 16 lanes (vdpbf16ps on 512 bits), then
// what remains in one of 8 and one of 4, each reading its columns' pairs.
// DOT-LABEL: func.func @bf16_dot_tail
// DOT:   %[[PAIRS:.+]] = memref.collapse_shape %arg1 {{\[\[}}0], [1, 2]] : memref<2x28x2xbf16> into memref<2x56xbf16>
// DOT:   vector.transfer_read %[[PAIRS]][%{{.+}}, %c0]{{.*}} : memref<2x56xbf16>, vector<32xbf16>
// DOT:   x86vector.avx512.dot {{.+}} : vector<32xbf16> -> vector<16xf32>
// DOT:   vector.transfer_write {{.+}}, %arg2[%c0, %c0] {{.+}} : vector<16xf32>, memref<1x28xf32>
// DOT:   vector.transfer_read %[[PAIRS]][%{{.+}}, %c32]{{.*}} : memref<2x56xbf16>, vector<16xbf16>
// DOT:   x86vector.avx512.dot {{.+}} : vector<16xbf16> -> vector<8xf32>
// DOT:   vector.transfer_write {{.+}}, %arg2[%c0, %c16] {{.+}} : vector<8xf32>, memref<1x28xf32>
// DOT:   vector.transfer_read %[[PAIRS]][%{{.+}}, %c48]{{.*}} : memref<2x56xbf16>, vector<8xbf16>
// DOT:   x86vector.avx512.dot {{.+}} : vector<8xbf16> -> vector<4xf32>
// DOT:   vector.transfer_write {{.+}}, %arg2[%c0, %c24] {{.+}} : vector<4xf32>, memref<1x28xf32>
// DOT-NOT: x86vector.avx512.dot
#mk4 = affine_map<(m, n, k) -> (m, k)>
#pairs4 = affine_map<(m, n, k) -> (k floordiv 2, n, k mod 2)>
#mn4 = affine_map<(m, n, k) -> (m, n)>
func.func @bf16_dot_tail(%a: memref<1x4xbf16>, %w: memref<2x28x2xbf16>, %c: memref<1x28xf32>) {
  linalg.generic {indexing_maps = [#mk4, #pairs4, #mn4], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<1x4xbf16>, memref<2x28x2xbf16>) outs(%c : memref<1x28xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// With bf16-dot, a sum of bf16 products of two operands in the plain layout
// (computed tensors, as attention's) makes the pairs in the kernel: the
// vectors of the batch's rows k and k + 1 interleaved, the other operand's
// contiguous pair (k, k + 1) broadcast. The row dimension is one the
// interleaved operand does not index (m, not the batch), so one vector of
// pairs serves every row. Without bf16-dot: one widened product per k.
// DOT-LABEL: func.func @bf16_dot_interleaved
// DOT:   scf.for %[[B:.+]] = %c0 to %c3 step %c1 {
// DOT:     scf.for %[[M:.+]] = %c0 to %c4 step %c2 {
// DOT:       scf.for %[[KK:.+]] = %c0 to %c4 step %c1 iter_args({{.+}}) -> (vector<8xf32>, vector<8xf32>)
// DOT:         %[[K:.+]] = affine.apply #{{.+}}(%[[KK]])
// DOT:         %[[R0:.+]] = vector.transfer_read %arg1[%[[B]], %[[K]], %c0]{{.*}} : memref<3x8x8xbf16>, vector<8xbf16>
// DOT:         %[[K1:.+]] = affine.apply #{{.+}}(%[[KK]])
// DOT:         %[[R1:.+]] = vector.transfer_read %arg1[%[[B]], %[[K1]], %c0]{{.*}} : memref<3x8x8xbf16>, vector<8xbf16>
// DOT:         %[[PAIRS:.+]] = vector.interleave %[[R0]], %[[R1]] : vector<8xbf16> -> vector<16xbf16>
// DOT:         vector.transfer_read %arg0[%[[B]], %[[M]], %{{.+}}]{{.*}} : memref<3x4x8xbf16>, vector<2xbf16>
// DOT:         vector.transfer_read %arg0[%[[B]], %{{.+}}, %{{.+}}]{{.*}} : memref<3x4x8xbf16>, vector<2xbf16>
// DOT-COUNT-2: x86vector.avx512.dot %{{.+}}, %{{.+}}, %[[PAIRS]] : vector<16xbf16> -> vector<8xf32>
// CHECK-LABEL: func.func @bf16_dot_interleaved
// CHECK: scf.for %{{.+}} = %c0 to %c8 step %c1 iter_args
// CHECK-NOT: vector.interleave
// CHECK-COUNT-4: vector.fma
#bmk = affine_map<(b, m, n, k) -> (b, m, k)>
#bkn = affine_map<(b, m, n, k) -> (b, k, n)>
#bmn = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @bf16_dot_interleaved(%a: memref<3x4x8xbf16>, %v: memref<3x8x8xbf16>, %c: memref<3x4x8xf32>) {
  linalg.generic {indexing_maps = [#bmk, #bkn, #bmn], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %v : memref<3x4x8xbf16>, memref<3x8x8xbf16>) outs(%c : memref<3x4x8xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A fill of the output right before the contraction is folded: the
// accumulators start at the filled value, nothing reads the output before
// the tile is stored, and the fill is gone.
// CHECK-LABEL: func.func @fill_folded
// CHECK-NOT:  linalg.fill
// CHECK:      %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK:      scf.for {{.+}} iter_args(%{{.+}} = %[[ZERO]], %{{.+}} = %[[ZERO]]) -> (vector<16xf32>, vector<16xf32>)
// CHECK-NOT:  vector.transfer_read %arg2
// CHECK-COUNT-2: vector.transfer_write {{.+}}, %arg2
func.func @fill_folded(%a: memref<2x8xf32>, %b: memref<8x16xf32>, %c: memref<2x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x16xf32>)
  linalg.matmul ins(%a, %b : memref<2x8xf32>, memref<8x16xf32>) outs(%c : memref<2x16xf32>)
  return
}

// -----

// Ops without memory effects between the fill and the contraction (the
// weights' global, a view) and allocations do not keep the fill.
// CHECK-LABEL: func.func @fill_folded_past_global
// CHECK-NOT:  linalg.fill
// CHECK:      memref.get_global @weights
// CHECK-NOT:  vector.transfer_read %arg1
// CHECK:      vector.transfer_write {{.+}}, %arg1
memref.global "private" constant @weights : memref<8x16xf32> = dense<1.0>
func.func @fill_folded_past_global(%a: memref<2x8xf32>, %c: memref<2x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x16xf32>)
  %unused = memref.alloc() : memref<2x2xf32>
  %b = memref.get_global @weights : memref<8x16xf32>
  linalg.matmul ins(%a, %b : memref<2x8xf32>, memref<8x16xf32>) outs(%c : memref<2x16xf32>)
  return
}

// -----

// The same for a generalized fill (a generic without inputs yielding a
// constant), e.g. a max pool's -inf.
// CHECK-LABEL: func.func @generic_fill_folded
// CHECK:      %[[INF:.+]] = arith.constant dense<0xFF800000> : vector<16xf32>
// CHECK:      scf.for {{.+}} iter_args(%{{.+}} = %[[INF]]) -> (vector<16xf32>)
// CHECK:        arith.maxnumf {{.+}} : vector<16xf32>
// CHECK-NOT:  linalg.generic
#rows = affine_map<(i, j) -> (i, j)>
#cols = affine_map<(i, j) -> (j)>
#all = affine_map<(j) -> (j)>
func.func @generic_fill_folded(%x: memref<8x16xf32>, %m: memref<16xf32>) {
  linalg.generic {indexing_maps = [#all], iterator_types = ["parallel"]} outs(%m : memref<16xf32>) {
  ^bb0(%out: f32):
    %inf = arith.constant 0xFF800000 : f32
    linalg.yield %inf : f32
  }
  linalg.generic {indexing_maps = [#rows, #cols], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<8x16xf32>) outs(%m : memref<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maxnumf %in, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Not folded: an op between the fill and the contraction, or a
// contraction that reads its output (through a view) as an input.
// CHECK-LABEL: func.func @fill_kept
// CHECK:      linalg.fill ins(%{{.+}} : f32) outs(%arg2 : memref<2x16xf32>)
// CHECK:      memref.store
// CHECK:      vector.transfer_read %arg2
// CHECK:      linalg.fill ins(%{{.+}} : f32) outs(%arg3 : memref<16x16xf32>)
// CHECK:      vector.transfer_read %arg3
func.func @fill_kept(%a: memref<2x8xf32>, %b: memref<8x16xf32>, %c: memref<2x16xf32>, %d: memref<16x16xf32>, %e: memref<16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  linalg.fill ins(%zero : f32) outs(%c : memref<2x16xf32>)
  memref.store %zero, %c[%c0, %c0] : memref<2x16xf32>
  linalg.matmul ins(%a, %b : memref<2x8xf32>, memref<8x16xf32>) outs(%c : memref<2x16xf32>)
  %view = memref.subview %d[0, 0] [16, 16] [1, 1] : memref<16x16xf32> to memref<16x16xf32, strided<[16, 1]>>
  linalg.fill ins(%zero : f32) outs(%d : memref<16x16xf32>)
  linalg.matmul ins(%e, %view : memref<16x16xf32>, memref<16x16xf32, strided<[16, 1]>>) outs(%d : memref<16x16xf32>)
  return
}

// -----

// An elementwise op right after the contraction that reads its output
// element by element is the kernel's epilogue: each tile's results are
// stored, then the epilogue's body runs on them (the bias read as a
// vector along the columns, products and sums kept apart as in its own
// loops) and its result is stored into its output; the op is gone.
// CHECK-LABEL: func.func @epilogue
// CHECK:         %[[R:.+]]:4 = scf.for {{.+}} iter_args
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    vector.transfer_write %[[R]]#0, %arg2[%c0, %c0]
// CHECK:         %[[BIAS:.+]] = vector.transfer_read %arg3[%c0]{{.*}} : memref<16xf32>, vector<16xf32>
// CHECK:         %[[S:.+]] = arith.addf %[[R]]#0, %[[BIAS]] : vector<16xf32>
// CHECK:         %[[M:.+]] = arith.mulf %[[S]], %{{.+}} : vector<16xf32>
// CHECK:         %[[T:.+]] = arith.addf %[[M]], %{{.+}} : vector<16xf32>
// CHECK:         %[[H:.+]] = arith.truncf %[[T]] : vector<16xf32> to vector<16xf16>
// CHECK:         vector.transfer_write %[[H]], %arg4[%c0, %c0]
// CHECK-NOT:     vector.fma {{.+}} : vector<16xf32>
// CHECK-NOT:     linalg.generic
func.func @epilogue(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>,
                    %bias: memref<16xf32>, %d: memref<4x16xf16>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  %alloc = memref.alloc() : memref<4x16xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x16xf32>, memref<16xf32>) outs(%d : memref<4x16xf16>) {
  ^bb0(%x: f32, %y: f32, %o: f16):
    %two = arith.constant 2.0 : f32
    %s = arith.addf %x, %y : f32
    %m = arith.mulf %s, %two : f32
    %t = arith.addf %m, %two : f32
    %h = arith.truncf %t : f32 to f16
    linalg.yield %h : f16
  }
  return
}

// -----

// The contraction's output a temporary that only the epilogue reads (a
// convolution's f32 sums before batch norm and a bf16 store): the kernel
// stores the epilogue's results alone, and the temporary goes.
// CHECK-LABEL: func.func @epilogue_of_temporary
// CHECK-NOT:     memref.alloc
// CHECK:         %[[R:.+]]:4 = scf.for {{.+}} iter_args
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[S:.+]] = arith.mulf %[[R]]#0, %{{.+}} : vector<16xf32>
// CHECK-NEXT:    %[[H:.+]] = arith.truncf %[[S]] : vector<16xf32> to vector<16xbf16>
// CHECK-NEXT:    vector.transfer_write %[[H]], %arg2[%c0, %c0]
// CHECK-COUNT-3: vector.transfer_write {{.+}} %arg2
// CHECK-NOT:     vector.transfer_write
func.func @epilogue_of_temporary(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %d: memref<4x16xbf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x16xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x16xf32>) outs(%d : memref<4x16xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %scale = arith.constant 0.125 : f32
    %s = arith.mulf %x, %scale : f32
    %h = arith.truncf %s : f32 to bf16
    linalg.yield %h : bf16
  }
  memref.dealloc %c : memref<4x16xf32>
  return
}

// -----

// A temporary read again after the epilogue (a residual connection's
// input) is stored as before: results and epilogue both.
// CHECK-LABEL: func.func @epilogue_of_temporary_read_later
// CHECK:         %[[C:.+]] = memref.alloc
// CHECK:         %[[R:.+]]:4 = scf.for {{.+}} iter_args
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    vector.transfer_write %[[R]]#0, %[[C]][%c0, %c0]
// CHECK:         memref.copy %[[C]], %arg3
func.func @epilogue_of_temporary_read_later(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %d: memref<4x16xbf16>,
                                            %e: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x16xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x16xf32>) outs(%d : memref<4x16xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %h = arith.truncf %x : f32 to bf16
    linalg.yield %h : bf16
  }
  memref.copy %c, %e : memref<4x16xf32> to memref<4x16xf32>
  return
}

// -----

// An epilogue in place (attention's scale of its scores) stores once.
// CHECK-LABEL: func.func @epilogue_in_place
// CHECK:         %[[R:.+]]:4 = scf.for {{.+}} iter_args
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[S:.+]] = arith.mulf %[[R]]#0, %{{.+}} : vector<16xf32>
// CHECK-NEXT:    vector.transfer_write %[[S]], %arg2[%c0, %c0]
// CHECK-COUNT-3: vector.transfer_write
// CHECK-NOT:     vector.transfer_write
func.func @epilogue_in_place(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x16xf32>) outs(%c : memref<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %scale = arith.constant 0.125 : f32
    %s = arith.mulf %x, %scale : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A residual added in place (batch norm of a convolution's sums, added
// into the block's input): the epilogue reads its output where it writes
// it, element by element, so the kernel reads each tile of the residual
// before storing the tile's results there; the temporary goes.
// CHECK-LABEL: func.func @epilogue_residual_in_place
// CHECK-NOT:     memref.alloc
// CHECK:         %[[R:.+]]:4 = scf.for {{.+}} iter_args
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[X:.+]] = vector.transfer_read %arg2[%c0, %c0]{{.*}} : memref<4x16xf32>, vector<16xf32>
// CHECK-NEXT:    %[[S:.+]] = arith.mulf %[[R]]#0, %{{.+}} : vector<16xf32>
// CHECK-NEXT:    %[[T:.+]] = arith.addf %[[S]], %[[X]] : vector<16xf32>
// CHECK-NEXT:    vector.transfer_write %[[T]], %arg2[%c0, %c0]
// CHECK-NOT:     linalg.generic
func.func @epilogue_residual_in_place(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %r: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<4x16xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %r : memref<4x16xf32>, memref<4x16xf32>) outs(%r : memref<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %scale = arith.constant 0.5 : f32
    %s = arith.mulf %x, %scale : f32
    %t = arith.addf %s, %y : f32
    linalg.yield %t : f32
  }
  memref.dealloc %c : memref<4x16xf32>
  return
}

// -----

// Not an epilogue: the residual read from another view of the output (one
// row further on), which earlier tiles would already have overwritten.
// CHECK-LABEL: func.func @residual_shifted
// CHECK:         scf.for
// CHECK:         linalg.generic
func.func @residual_shifted(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>, %r: memref<5x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  %d = memref.subview %r[0, 0] [4, 16] [1, 1] : memref<5x16xf32> to memref<4x16xf32, strided<[16, 1]>>
  %y = memref.subview %r[1, 0] [4, 16] [1, 1] : memref<5x16xf32> to memref<4x16xf32, strided<[16, 1], offset: 16>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %y : memref<4x16xf32>, memref<4x16xf32, strided<[16, 1], offset: 16>>)
      outs(%d : memref<4x16xf32, strided<[16, 1]>>) {
  ^bb0(%x: f32, %z: f32, %o: f32):
    %t = arith.addf %x, %z : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// Between a contraction and its epilogue, fills of another buffer
// allocated here (a padded buffer's border, whose interior the epilogue
// writes): the kernel runs after them, where the epilogue was, and takes
// it in. The convolution that reads the padded buffer still skips its
// padding rows: it is vectorized first, while the interior's writer is
// still the epilogue.
// CHECK-LABEL: func.func @epilogue_past_border_fills
// CHECK-NOT:     memref.alloc() : memref<2x2x8x16xf32>
// CHECK:         linalg.fill {{.+}} memref<2x6x2x16xf32
// CHECK:         linalg.fill {{.+}} memref<2x6x2x16xf32
// CHECK-NOT:     linalg.
// CHECK:         arith.maximumf {{.+}} : vector<16xf32>
// CHECK-NEXT:    vector.transfer_write {{.+}} : vector<16xf32>, memref<2x2x8x16xf32, strided<[1152, 192, 16, 1], offset: 416>>
// CHECK-NOT:     linalg.
// LOCAL-LABEL: func.func @epilogue_past_border_fills
// LOCAL:         affine.max affine_map<(d0) -> (-d0 + 2, 0)>
func.func @epilogue_past_border_fills(%x: memref<2x2x8x16xf32>, %w1: memref<16x16xf32>, %w: memref<5x5x16xf32>,
                                      %y: memref<2x2x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x2x8x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x2x8x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, h, w, f, k) -> (n, h, w, k)>,
                                   affine_map<(n, h, w, f, k) -> (k, f)>,
                                   affine_map<(n, h, w, f, k) -> (n, h, w, f)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w1 : memref<2x2x8x16xf32>, memref<16x16xf32>) outs(%c : memref<2x2x8x16xf32>) {
  ^bb0(%in: f32, %f: f32, %acc: f32):
    %m = arith.mulf %in, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  %p = memref.alloc() : memref<2x6x12x16xf32>
  %top = memref.subview %p[0, 0, 0, 0] [2, 2, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x12x16xf32, strided<[1152, 192, 16, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<2x2x12x16xf32, strided<[1152, 192, 16, 1]>>)
  %bottom = memref.subview %p[0, 4, 0, 0] [2, 2, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x12x16xf32, strided<[1152, 192, 16, 1], offset: 768>>
  linalg.fill ins(%zero : f32) outs(%bottom : memref<2x2x12x16xf32, strided<[1152, 192, 16, 1], offset: 768>>)
  %left = memref.subview %p[0, 0, 0, 0] [2, 6, 2, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x6x2x16xf32, strided<[1152, 192, 16, 1]>>
  linalg.fill ins(%zero : f32) outs(%left : memref<2x6x2x16xf32, strided<[1152, 192, 16, 1]>>)
  %right = memref.subview %p[0, 0, 10, 0] [2, 6, 2, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x6x2x16xf32, strided<[1152, 192, 16, 1], offset: 160>>
  linalg.fill ins(%zero : f32) outs(%right : memref<2x6x2x16xf32, strided<[1152, 192, 16, 1], offset: 160>>)
  %inner = memref.subview %p[0, 2, 2, 0] [2, 2, 8, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x8x16xf32, strided<[1152, 192, 16, 1], offset: 416>>
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : memref<2x2x8x16xf32>) outs(%inner : memref<2x2x8x16xf32, strided<[1152, 192, 16, 1], offset: 416>>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<2x2x8x16xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<2x2x8x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c, kh, kw) -> (n, h + kh, w + kw, c)>,
                                   affine_map<(n, h, w, c, kh, kw) -> (kh, kw, c)>,
                                   affine_map<(n, h, w, c, kh, kw) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %w : memref<2x6x12x16xf32>, memref<5x5x16xf32>) outs(%y : memref<2x2x8x16xf32>) {
  ^bb0(%in: f32, %f: f32, %acc: f32):
    %m = arith.mulf %in, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %p : memref<2x6x12x16xf32>
  return
}

// -----

// Not past: a fill of the contraction's own input (a buffer allocated
// here), a fill of an argument, which may share memory with the
// contraction's operands, and an op on a buffer allocated here whose body
// loads the contraction's output. Each kernel stays where its op was,
// before that op, and the elementwise ops stay.
// CHECK-LABEL: func.func @epilogue_not_past
// CHECK:         scf.for
// CHECK:         linalg.fill ins(%{{.+}}) outs(%[[A:.+]] : memref<4x8xf32>)
// CHECK:         linalg.generic
// CHECK:         scf.for
// CHECK:         linalg.fill ins(%{{.+}}) outs(%arg3 : memref<4x16xf32>)
// CHECK:         linalg.generic
// CHECK:         scf.for
// CHECK:         linalg.generic
// CHECK:           memref.load %arg1
// CHECK:         linalg.generic
func.func @epilogue_not_past(%b: memref<8x16xf32>, %c: memref<4x16xf32>, %d: memref<4x16xf32>, %e: memref<4x16xf32>) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %a = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<4x8xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  linalg.fill ins(%two : f32) outs(%a : memref<4x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x16xf32>) outs(%d : memref<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  }
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  linalg.fill ins(%two : f32) outs(%e : memref<4x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x16xf32>) outs(%d : memref<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  }
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  %t = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      outs(%t : memref<4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %v = memref.load %c[%i, %i] : memref<4x16xf32>
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x16xf32>) outs(%d : memref<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t : memref<4xf32>
  memref.dealloc %a : memref<4x8xf32>
  return
}

// -----

// Not epilogues: an op that writes the contraction's input (its later
// tiles still read it), and one that reads the output transposed.
// CHECK-LABEL: func.func @not_epilogues
// CHECK:         scf.for
// CHECK:         linalg.generic
// CHECK:         scf.for
// CHECK:         linalg.generic
func.func @not_epilogues(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>, %d: memref<16x16xf32>) {
  linalg.matmul ins(%a, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<16x16xf32>) outs(%a : memref<16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  }
  linalg.matmul ins(%a, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<16x16xf32>) outs(%d : memref<16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A 5x5 depthwise window over 2 rows padded to 6 with zero slabs: each
// output row steps over the window rows that meet the 2 input rows only
// (rows 2 and 3 of the buffer), and the slabs' fills, which nothing reads
// then, are gone. The columns' fills stay.
// CHECK-LABEL: func.func @padding_rows_skipped
// CHECK-NOT:     memref.subview %{{.+}}[0, 0, 0, 0] [2, 2, 12, 16]
// CHECK-NOT:     memref.subview %{{.+}}[0, 4, 0, 0] [2, 2, 12, 16]
// CHECK:         linalg.fill {{.+}} memref<2x6x2x16xf32
// CHECK:         linalg.fill {{.+}} memref<2x6x2x16xf32
// CHECK:         memref.copy
// CHECK-NEXT:    scf.for
// RUN: amp-opt %s -p 'builtin.module(func.func(amp-vectorize-contractions{lanes=16 rows=4 cols=1},canonicalize))' -split-input-file --mlir-print-local-scope | FileCheck %s --check-prefix=LOCAL
// LOCAL-LABEL: func.func @padding_rows_skipped
// LOCAL:         scf.for %[[N:.+]] = %c0 to %c2
// LOCAL-NEXT:      scf.for %[[OH:.+]] = %c0 to %c2
// LOCAL:             %[[LO:.+]] = affine.max affine_map<(d0) -> (-d0 + 2, 0)>(%[[OH]])
// LOCAL-NEXT:        %[[HI:.+]] = affine.min affine_map<(d0) -> (-d0 + 4, 5)>(%[[OH]])
// LOCAL-NEXT:        scf.for %{{.+}} = %[[LO]] to %[[HI]] step %c1 iter_args
func.func @padding_rows_skipped(%x: memref<2x2x8x16xf32>, %w: memref<5x5x16xf32>, %y: memref<2x2x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<2x6x12x16xf32>
  %top = memref.subview %p[0, 0, 0, 0] [2, 2, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x12x16xf32, strided<[1152, 192, 16, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<2x2x12x16xf32, strided<[1152, 192, 16, 1]>>)
  %bottom = memref.subview %p[0, 4, 0, 0] [2, 2, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x12x16xf32, strided<[1152, 192, 16, 1], offset: 768>>
  linalg.fill ins(%zero : f32) outs(%bottom : memref<2x2x12x16xf32, strided<[1152, 192, 16, 1], offset: 768>>)
  %left = memref.subview %p[0, 0, 0, 0] [2, 6, 2, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x6x2x16xf32, strided<[1152, 192, 16, 1]>>
  linalg.fill ins(%zero : f32) outs(%left : memref<2x6x2x16xf32, strided<[1152, 192, 16, 1]>>)
  %right = memref.subview %p[0, 0, 10, 0] [2, 6, 2, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x6x2x16xf32, strided<[1152, 192, 16, 1], offset: 160>>
  linalg.fill ins(%zero : f32) outs(%right : memref<2x6x2x16xf32, strided<[1152, 192, 16, 1], offset: 160>>)
  %inner = memref.subview %p[0, 2, 2, 0] [2, 2, 8, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x8x16xf32, strided<[1152, 192, 16, 1], offset: 416>>
  memref.copy %x, %inner : memref<2x2x8x16xf32> to memref<2x2x8x16xf32, strided<[1152, 192, 16, 1], offset: 416>>
  linalg.fill ins(%zero : f32) outs(%y : memref<2x2x8x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c, kh, kw) -> (n, h + kh, w + kw, c)>,
                                   affine_map<(n, h, w, c, kh, kw) -> (kh, kw, c)>,
                                   affine_map<(n, h, w, c, kh, kw) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %w : memref<2x6x12x16xf32>, memref<5x5x16xf32>) outs(%y : memref<2x2x8x16xf32>) {
  ^bb0(%in: f32, %f: f32, %acc: f32):
    %m = arith.mulf %in, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %p : memref<2x6x12x16xf32>
  return
}

// -----

// The same with a dilation of 2 (`h + 2 kh` indexes the rows), read through
// a collapse of the buffer's unit dimension (as an NHWC convolution of one
// image is after its batch dimension is folded): window row `kh` meets the
// input's rows [2, 6) where `2 <= h + 2 kh < 6`, and the top and bottom
// slabs' fills go.
// CHECK-LABEL: func.func @dilated_padding_rows_skipped
// CHECK-NOT:     memref.subview %{{.+}}[0, 0, 0, 0] [2, 8, 1, 16]
// CHECK-NOT:     memref.subview %{{.+}}[6, 0, 0, 0] [2, 8, 1, 16]
// CHECK-COUNT-2: linalg.fill {{.+}} memref<8x2x1x16xf32
// LOCAL-LABEL: func.func @dilated_padding_rows_skipped
// LOCAL:         scf.for %[[OH:.+]] = %c0 to %c4
// LOCAL-NEXT:      %[[LO:.+]] = affine.max affine_map<(d0) -> (0, (-d0 + 2) ceildiv 2)>(%[[OH]])
// LOCAL-NEXT:      %[[HI:.+]] = affine.min affine_map<(d0) -> (3, (-d0 + 6) ceildiv 2)>(%[[OH]])
// LOCAL-NEXT:      scf.for %{{.+}} = %[[LO]] to %[[HI]] step %c1 iter_args
func.func @dilated_padding_rows_skipped(%x: memref<4x4x1x16xf32>, %w: memref<3x3x16x16xf32>, %y: memref<4x4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<8x8x1x16xf32>
  %top = memref.subview %p[0, 0, 0, 0] [2, 8, 1, 16] [1, 1, 1, 1] : memref<8x8x1x16xf32> to memref<2x8x1x16xf32, strided<[128, 16, 16, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<2x8x1x16xf32, strided<[128, 16, 16, 1]>>)
  %bottom = memref.subview %p[6, 0, 0, 0] [2, 8, 1, 16] [1, 1, 1, 1] : memref<8x8x1x16xf32> to memref<2x8x1x16xf32, strided<[128, 16, 16, 1], offset: 768>>
  linalg.fill ins(%zero : f32) outs(%bottom : memref<2x8x1x16xf32, strided<[128, 16, 16, 1], offset: 768>>)
  %left = memref.subview %p[0, 0, 0, 0] [8, 2, 1, 16] [1, 1, 1, 1] : memref<8x8x1x16xf32> to memref<8x2x1x16xf32, strided<[128, 16, 16, 1]>>
  linalg.fill ins(%zero : f32) outs(%left : memref<8x2x1x16xf32, strided<[128, 16, 16, 1]>>)
  %right = memref.subview %p[0, 6, 0, 0] [8, 2, 1, 16] [1, 1, 1, 1] : memref<8x8x1x16xf32> to memref<8x2x1x16xf32, strided<[128, 16, 16, 1], offset: 96>>
  linalg.fill ins(%zero : f32) outs(%right : memref<8x2x1x16xf32, strided<[128, 16, 16, 1], offset: 96>>)
  %inner = memref.subview %p[2, 2, 0, 0] [4, 4, 1, 16] [1, 1, 1, 1] : memref<8x8x1x16xf32> to memref<4x4x1x16xf32, strided<[128, 16, 16, 1], offset: 288>>
  memref.copy %x, %inner : memref<4x4x1x16xf32> to memref<4x4x1x16xf32, strided<[128, 16, 16, 1], offset: 288>>
  %c = memref.collapse_shape %p [[0], [1], [2, 3]] : memref<8x8x1x16xf32> into memref<8x8x16xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<4x4x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(h, w, f, kh, kw, c) -> (h + kh * 2, w + kw * 2, c)>,
                                   affine_map<(h, w, f, kh, kw, c) -> (kh, kw, c, f)>,
                                   affine_map<(h, w, f, kh, kw, c) -> (h, w, f)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%c, %w : memref<8x8x16xf32>, memref<3x3x16x16xf32>) outs(%y : memref<4x4x16xf32>) {
  ^bb0(%in: f32, %f: f32, %acc: f32):
    %m = arith.mulf %in, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %p : memref<8x8x1x16xf32>
  return
}

// -----

// Not skipped: padding rows filled with ones, and padding rows another op
// reads (the copy out of the whole buffer): every window row is read and
// every fill stays.
// CHECK-LABEL: func.func @padding_rows_kept
// CHECK-NOT:     affine.max
// CHECK-COUNT-2: linalg.fill {{.+}} memref<2x2x12x16xf32
// CHECK-NOT:     affine.max
// CHECK:         memref.copy
// CHECK-NOT:     affine.max
// CHECK-COUNT-2: linalg.fill {{.+}} memref<2x2x12x16xf32
// CHECK-NOT:     affine.max
// CHECK:         return
func.func @padding_rows_kept(%x: memref<2x6x12x16xf32>, %w: memref<5x5x16xf32>, %y: memref<2x2x8x16xf32>,
                             %z: memref<2x6x12x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %p = memref.alloc() : memref<2x6x12x16xf32>
  %top = memref.subview %p[0, 0, 0, 0] [2, 2, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x12x16xf32, strided<[1152, 192, 16, 1]>>
  linalg.fill ins(%one : f32) outs(%top : memref<2x2x12x16xf32, strided<[1152, 192, 16, 1]>>)
  %bottom = memref.subview %p[0, 4, 0, 0] [2, 2, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x12x16xf32, strided<[1152, 192, 16, 1], offset: 768>>
  linalg.fill ins(%one : f32) outs(%bottom : memref<2x2x12x16xf32, strided<[1152, 192, 16, 1], offset: 768>>)
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c, kh, kw) -> (n, h + kh, w + kw, c)>,
                                   affine_map<(n, h, w, c, kh, kw) -> (kh, kw, c)>,
                                   affine_map<(n, h, w, c, kh, kw) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %w : memref<2x6x12x16xf32>, memref<5x5x16xf32>) outs(%y : memref<2x2x8x16xf32>) {
  ^bb0(%in: f32, %f: f32, %acc: f32):
    %m = arith.mulf %in, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.copy %p, %z : memref<2x6x12x16xf32> to memref<2x6x12x16xf32>
  %q = memref.alloc() : memref<2x6x12x16xf32>
  %top2 = memref.subview %q[0, 0, 0, 0] [2, 2, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x12x16xf32, strided<[1152, 192, 16, 1]>>
  linalg.fill ins(%zero : f32) outs(%top2 : memref<2x2x12x16xf32, strided<[1152, 192, 16, 1]>>)
  %bottom2 = memref.subview %q[0, 4, 0, 0] [2, 2, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x12x16xf32, strided<[1152, 192, 16, 1], offset: 768>>
  linalg.fill ins(%zero : f32) outs(%bottom2 : memref<2x2x12x16xf32, strided<[1152, 192, 16, 1], offset: 768>>)
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c, kh, kw) -> (n, h + kh, w + kw, c)>,
                                   affine_map<(n, h, w, c, kh, kw) -> (kh, kw, c)>,
                                   affine_map<(n, h, w, c, kh, kw) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%q, %w : memref<2x6x12x16xf32>, memref<5x5x16xf32>) outs(%y : memref<2x2x8x16xf32>) {
  ^bb0(%in: f32, %f: f32, %acc: f32):
    %m = arith.mulf %in, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.copy %q, %z : memref<2x6x12x16xf32> to memref<2x6x12x16xf32>
  return
}

// -----

// Not skipped: a padded buffer of dynamic rows (the slabs' extent unknown).
// CHECK-LABEL: func.func @padding_rows_dynamic
// CHECK-NOT:     affine.max
// CHECK-COUNT-2: linalg.fill
// CHECK-NOT:     affine.max
// CHECK:         return
func.func @padding_rows_dynamic(%w: memref<5x5x16xf32>, %y: memref<2x2x8x16xf32>, %rows: index) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc(%rows) : memref<2x?x12x16xf32>
  %top = memref.subview %p[0, 0, 0, 0] [2, 2, 12, 16] [1, 1, 1, 1] : memref<2x?x12x16xf32> to memref<2x2x12x16xf32, strided<[?, 192, 16, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<2x2x12x16xf32, strided<[?, 192, 16, 1]>>)
  %bottom = memref.subview %p[0, 4, 0, 0] [2, 2, 12, 16] [1, 1, 1, 1] : memref<2x?x12x16xf32> to memref<2x2x12x16xf32, strided<[?, 192, 16, 1], offset: 768>>
  linalg.fill ins(%zero : f32) outs(%bottom : memref<2x2x12x16xf32, strided<[?, 192, 16, 1], offset: 768>>)
  %v = memref.subview %p[0, 0, 0, 0] [2, 6, 12, 16] [1, 1, 1, 1] : memref<2x?x12x16xf32> to memref<2x6x12x16xf32, strided<[?, 192, 16, 1]>>
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c, kh, kw) -> (n, h + kh, w + kw, c)>,
                                   affine_map<(n, h, w, c, kh, kw) -> (kh, kw, c)>,
                                   affine_map<(n, h, w, c, kh, kw) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%v, %w : memref<2x6x12x16xf32, strided<[?, 192, 16, 1]>>, memref<5x5x16xf32>) outs(%y : memref<2x2x8x16xf32>) {
  ^bb0(%in: f32, %f: f32, %acc: f32):
    %m = arith.mulf %in, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Split over threads along the batch (amp-distribute-for-threads): the
// slabs' fills and the interior's copy are slices in `scf.forall`s that
// step through the whole batch, so they count as whole; the convolution's
// slices skip the padding rows and the slabs' fills go.
// CHECK-LABEL: func.func @padding_rows_skipped_in_slices
// CHECK-NOT:     memref.subview %{{.+}}[0, 0, 0, 0] [2, 2, 12, 16]
// CHECK-NOT:     memref.subview %{{.+}}[0, 4, 0, 0] [2, 2, 12, 16]
// CHECK:         linalg.fill {{.+}} memref<2x6x2x16xf32
// CHECK:         linalg.fill {{.+}} memref<2x6x2x16xf32
// CHECK:         scf.forall
// CHECK:           linalg.copy
// CHECK:         scf.forall
// CHECK:           affine.max
// CHECK:           affine.min
// LOCAL-LABEL: func.func @padding_rows_skipped_in_slices
// LOCAL:         affine.max affine_map<(d0) -> (-d0 + 2, 0)>
// LOCAL-NEXT:    affine.min affine_map<(d0) -> (-d0 + 4, 5)>
func.func @padding_rows_skipped_in_slices(%x: memref<2x2x8x16xf32>, %w: memref<5x5x16xf32>, %y: memref<2x2x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<2x6x12x16xf32>
  %top = memref.subview %p[0, 0, 0, 0] [2, 2, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x12x16xf32, strided<[1152, 192, 16, 1]>>
  scf.forall (%n) in (2) {
    %s = memref.subview %top[%n, 0, 0, 0] [1, 2, 12, 16] [1, 1, 1, 1] : memref<2x2x12x16xf32, strided<[1152, 192, 16, 1]>> to memref<1x2x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%s : memref<1x2x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>)
  }
  %bottom = memref.subview %p[0, 4, 0, 0] [2, 2, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x12x16xf32, strided<[1152, 192, 16, 1], offset: 768>>
  scf.forall (%n) in (2) {
    %s = memref.subview %bottom[%n, 0, 0, 0] [1, 2, 12, 16] [1, 1, 1, 1] : memref<2x2x12x16xf32, strided<[1152, 192, 16, 1], offset: 768>> to memref<1x2x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%s : memref<1x2x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>)
  }
  %left = memref.subview %p[0, 0, 0, 0] [2, 6, 2, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x6x2x16xf32, strided<[1152, 192, 16, 1]>>
  linalg.fill ins(%zero : f32) outs(%left : memref<2x6x2x16xf32, strided<[1152, 192, 16, 1]>>)
  %right = memref.subview %p[0, 0, 10, 0] [2, 6, 2, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x6x2x16xf32, strided<[1152, 192, 16, 1], offset: 160>>
  linalg.fill ins(%zero : f32) outs(%right : memref<2x6x2x16xf32, strided<[1152, 192, 16, 1], offset: 160>>)
  %inner = memref.subview %p[0, 2, 2, 0] [2, 2, 8, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x8x16xf32, strided<[1152, 192, 16, 1], offset: 416>>
  scf.forall (%n) in (2) {
    %from = memref.subview %x[%n, 0, 0, 0] [1, 2, 8, 16] [1, 1, 1, 1] : memref<2x2x8x16xf32> to memref<1x2x8x16xf32, strided<[256, 128, 16, 1], offset: ?>>
    %to = memref.subview %inner[%n, 0, 0, 0] [1, 2, 8, 16] [1, 1, 1, 1] : memref<2x2x8x16xf32, strided<[1152, 192, 16, 1], offset: 416>> to memref<1x2x8x16xf32, strided<[1152, 192, 16, 1], offset: ?>>
    linalg.copy ins(%from : memref<1x2x8x16xf32, strided<[256, 128, 16, 1], offset: ?>>) outs(%to : memref<1x2x8x16xf32, strided<[1152, 192, 16, 1], offset: ?>>)
  }
  scf.forall (%n) in (2) {
    %in = memref.subview %p[%n, 0, 0, 0] [1, 6, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<1x6x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>
    %out = memref.subview %y[%n, 0, 0, 0] [1, 2, 8, 16] [1, 1, 1, 1] : memref<2x2x8x16xf32> to memref<1x2x8x16xf32, strided<[256, 128, 16, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%out : memref<1x2x8x16xf32, strided<[256, 128, 16, 1], offset: ?>>)
    linalg.generic {indexing_maps = [affine_map<(n, h, w, c, kh, kw) -> (n, h + kh, w + kw, c)>,
                                     affine_map<(n, h, w, c, kh, kw) -> (kh, kw, c)>,
                                     affine_map<(n, h, w, c, kh, kw) -> (n, h, w, c)>],
                    iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
        ins(%in, %w : memref<1x6x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>, memref<5x5x16xf32>) outs(%out : memref<1x2x8x16xf32, strided<[256, 128, 16, 1], offset: ?>>) {
    ^bb0(%a: f32, %f: f32, %acc: f32):
      %m = arith.mulf %a, %f : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    }
  }
  memref.dealloc %p : memref<2x6x12x16xf32>
  return
}

// -----

// Split along the rows: each slice of the convolution (one output row)
// reads the buffer from its own row offset, which bounds its window rows; the
// interior's copy, in slices of rows that step through all of it, stays
// between the slabs.
// LOCAL-LABEL: func.func @padding_rows_skipped_in_row_slices
// LOCAL:         scf.forall (%[[OFF:.+]]) in (2)
// LOCAL:         affine.max affine_map<()[s0] -> (-s0 + 2, 0)>()[%[[OFF]]]
// LOCAL-NEXT:    affine.min affine_map<()[s0] -> (-s0 + 4, 5)>()[%[[OFF]]]
// CHECK-LABEL: func.func @padding_rows_skipped_in_row_slices
// CHECK-NOT:     memref.subview %{{.+}}[0, 0, 0, 0] [1, 2, 12, 16]
// CHECK-NOT:     memref.subview %{{.+}}[0, 4, 0, 0] [1, 2, 12, 16]
// CHECK:         return
func.func @padding_rows_skipped_in_row_slices(%x: memref<1x2x8x16xf32>, %w: memref<5x5x16xf32>, %y: memref<1x2x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x6x12x16xf32>
  %top = memref.subview %p[0, 0, 0, 0] [1, 2, 12, 16] [1, 1, 1, 1] : memref<1x6x12x16xf32> to memref<1x2x12x16xf32, strided<[1152, 192, 16, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<1x2x12x16xf32, strided<[1152, 192, 16, 1]>>)
  %bottom = memref.subview %p[0, 4, 0, 0] [1, 2, 12, 16] [1, 1, 1, 1] : memref<1x6x12x16xf32> to memref<1x2x12x16xf32, strided<[1152, 192, 16, 1], offset: 768>>
  linalg.fill ins(%zero : f32) outs(%bottom : memref<1x2x12x16xf32, strided<[1152, 192, 16, 1], offset: 768>>)
  %inner = memref.subview %p[0, 2, 2, 0] [1, 2, 8, 16] [1, 1, 1, 1] : memref<1x6x12x16xf32> to memref<1x2x8x16xf32, strided<[1152, 192, 16, 1], offset: 416>>
  scf.forall (%r) in (2) {
    %from = memref.subview %x[0, %r, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : memref<1x2x8x16xf32> to memref<1x1x8x16xf32, strided<[256, 128, 16, 1], offset: ?>>
    %to = memref.subview %inner[0, %r, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : memref<1x2x8x16xf32, strided<[1152, 192, 16, 1], offset: 416>> to memref<1x1x8x16xf32, strided<[1152, 192, 16, 1], offset: ?>>
    linalg.copy ins(%from : memref<1x1x8x16xf32, strided<[256, 128, 16, 1], offset: ?>>) outs(%to : memref<1x1x8x16xf32, strided<[1152, 192, 16, 1], offset: ?>>)
  }
  scf.forall (%r) in (2) {
    %in = memref.subview %p[0, %r, 0, 0] [1, 5, 12, 16] [1, 1, 1, 1] : memref<1x6x12x16xf32> to memref<1x5x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>
    %out = memref.subview %y[0, %r, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : memref<1x2x8x16xf32> to memref<1x1x8x16xf32, strided<[256, 128, 16, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%out : memref<1x1x8x16xf32, strided<[256, 128, 16, 1], offset: ?>>)
    linalg.generic {indexing_maps = [affine_map<(n, h, w, c, kh, kw) -> (n, h + kh, w + kw, c)>,
                                     affine_map<(n, h, w, c, kh, kw) -> (kh, kw, c)>,
                                     affine_map<(n, h, w, c, kh, kw) -> (n, h, w, c)>],
                    iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
        ins(%in, %w : memref<1x5x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>, memref<5x5x16xf32>) outs(%out : memref<1x1x8x16xf32, strided<[256, 128, 16, 1], offset: ?>>) {
    ^bb0(%a: f32, %f: f32, %acc: f32):
      %m = arith.mulf %a, %f : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    }
  }
  memref.dealloc %p : memref<1x6x12x16xf32>
  return
}

// -----

// Not skipped: the slabs' fills step through half of the batch only, so
// the other half's padding rows are not known to be zero.
// CHECK-LABEL: func.func @padding_rows_half_slices
// CHECK-NOT:     affine.max
// CHECK-COUNT-2: linalg.fill {{.+}} memref<1x2x12x16xf32
// CHECK-NOT:     affine.max
// CHECK:         return
func.func @padding_rows_half_slices(%w: memref<5x5x16xf32>, %y: memref<2x2x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<2x6x12x16xf32>
  scf.forall (%n) in (1) {
    %s = memref.subview %p[%n, 0, 0, 0] [1, 2, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<1x2x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%s : memref<1x2x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>)
    %b = memref.subview %p[%n, 4, 0, 0] [1, 2, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<1x2x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%b : memref<1x2x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>)
  }
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c, kh, kw) -> (n, h + kh, w + kw, c)>,
                                   affine_map<(n, h, w, c, kh, kw) -> (kh, kw, c)>,
                                   affine_map<(n, h, w, c, kh, kw) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %w : memref<2x6x12x16xf32>, memref<5x5x16xf32>) outs(%y : memref<2x2x8x16xf32>) {
  ^bb0(%a: f32, %f: f32, %acc: f32):
    %m = arith.mulf %a, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %p : memref<2x6x12x16xf32>
  return
}

// -----

// Not skipped: the slabs' fills run only if %c holds.
// CHECK-LABEL: func.func @padding_rows_filled_if
// CHECK-NOT:     affine.max
// CHECK-COUNT-2: linalg.fill {{.+}} memref<2x2x12x16xf32
// CHECK-NOT:     affine.max
// CHECK:         return
func.func @padding_rows_filled_if(%w: memref<5x5x16xf32>, %y: memref<2x2x8x16xf32>, %c: i1) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<2x6x12x16xf32>
  scf.if %c {
    %top = memref.subview %p[0, 0, 0, 0] [2, 2, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x12x16xf32, strided<[1152, 192, 16, 1]>>
    linalg.fill ins(%zero : f32) outs(%top : memref<2x2x12x16xf32, strided<[1152, 192, 16, 1]>>)
    %bottom = memref.subview %p[0, 4, 0, 0] [2, 2, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x12x16xf32, strided<[1152, 192, 16, 1], offset: 768>>
    linalg.fill ins(%zero : f32) outs(%bottom : memref<2x2x12x16xf32, strided<[1152, 192, 16, 1], offset: 768>>)
  }
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c, kh, kw) -> (n, h + kh, w + kw, c)>,
                                   affine_map<(n, h, w, c, kh, kw) -> (kh, kw, c)>,
                                   affine_map<(n, h, w, c, kh, kw) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %w : memref<2x6x12x16xf32>, memref<5x5x16xf32>) outs(%y : memref<2x2x8x16xf32>) {
  ^bb0(%a: f32, %f: f32, %acc: f32):
    %m = arith.mulf %a, %f : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %p : memref<2x6x12x16xf32>
  return
}

// -----

// A slab fill in an `scf.forall` that steps by 0 over empty slices (the
// verifier accepts it) covers nothing: the convolution still becomes a
// kernel, and the pass does not divide by the slices' size of 0.
// CHECK-LABEL: func.func @zero_step_slices
// CHECK:         scf.for
func.func @zero_step_slices(%x: memref<2x2x8x16xf32>, %w: memref<5x5x16xf32>, %y: memref<2x2x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<2x6x12x16xf32>
  %top = memref.subview %p[0, 0, 0, 0] [2, 2, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x12x16xf32, strided<[1152, 192, 16, 1]>>
  scf.forall (%n) = (0) to (2) step (0) {
    %s = memref.subview %top[%n, 0, 0, 0] [0, 2, 12, 16] [1, 1, 1, 1] : memref<2x2x12x16xf32, strided<[1152, 192, 16, 1]>> to memref<0x2x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%s : memref<0x2x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>)
  }
  %bottom = memref.subview %p[0, 4, 0, 0] [2, 2, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x12x16xf32, strided<[1152, 192, 16, 1], offset: 768>>
  scf.forall (%n) in (2) {
    %s = memref.subview %bottom[%n, 0, 0, 0] [1, 2, 12, 16] [1, 1, 1, 1] : memref<2x2x12x16xf32, strided<[1152, 192, 16, 1], offset: 768>> to memref<1x2x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%s : memref<1x2x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>)
  }
  %left = memref.subview %p[0, 0, 0, 0] [2, 6, 2, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x6x2x16xf32, strided<[1152, 192, 16, 1]>>
  linalg.fill ins(%zero : f32) outs(%left : memref<2x6x2x16xf32, strided<[1152, 192, 16, 1]>>)
  %right = memref.subview %p[0, 0, 10, 0] [2, 6, 2, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x6x2x16xf32, strided<[1152, 192, 16, 1], offset: 160>>
  linalg.fill ins(%zero : f32) outs(%right : memref<2x6x2x16xf32, strided<[1152, 192, 16, 1], offset: 160>>)
  %inner = memref.subview %p[0, 2, 2, 0] [2, 2, 8, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<2x2x8x16xf32, strided<[1152, 192, 16, 1], offset: 416>>
  scf.forall (%n) in (2) {
    %from = memref.subview %x[%n, 0, 0, 0] [1, 2, 8, 16] [1, 1, 1, 1] : memref<2x2x8x16xf32> to memref<1x2x8x16xf32, strided<[256, 128, 16, 1], offset: ?>>
    %to = memref.subview %inner[%n, 0, 0, 0] [1, 2, 8, 16] [1, 1, 1, 1] : memref<2x2x8x16xf32, strided<[1152, 192, 16, 1], offset: 416>> to memref<1x2x8x16xf32, strided<[1152, 192, 16, 1], offset: ?>>
    linalg.copy ins(%from : memref<1x2x8x16xf32, strided<[256, 128, 16, 1], offset: ?>>) outs(%to : memref<1x2x8x16xf32, strided<[1152, 192, 16, 1], offset: ?>>)
  }
  scf.forall (%n) in (2) {
    %in = memref.subview %p[%n, 0, 0, 0] [1, 6, 12, 16] [1, 1, 1, 1] : memref<2x6x12x16xf32> to memref<1x6x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>
    %out = memref.subview %y[%n, 0, 0, 0] [1, 2, 8, 16] [1, 1, 1, 1] : memref<2x2x8x16xf32> to memref<1x2x8x16xf32, strided<[256, 128, 16, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%out : memref<1x2x8x16xf32, strided<[256, 128, 16, 1], offset: ?>>)
    linalg.generic {indexing_maps = [affine_map<(n, h, w, c, kh, kw) -> (n, h + kh, w + kw, c)>,
                                     affine_map<(n, h, w, c, kh, kw) -> (kh, kw, c)>,
                                     affine_map<(n, h, w, c, kh, kw) -> (n, h, w, c)>],
                    iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
        ins(%in, %w : memref<1x6x12x16xf32, strided<[1152, 192, 16, 1], offset: ?>>, memref<5x5x16xf32>) outs(%out : memref<1x2x8x16xf32, strided<[256, 128, 16, 1], offset: ?>>) {
    ^bb0(%a: f32, %f: f32, %acc: f32):
      %m = arith.mulf %a, %f : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    }
  }
  memref.dealloc %p : memref<2x6x12x16xf32>
  return
}

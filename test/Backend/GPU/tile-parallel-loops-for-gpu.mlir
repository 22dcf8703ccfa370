// amp-tile-parallel-loops-for-gpu splits each outermost scf.parallel loop
// with constant bounds into a loop over workgroups and a loop over at most
// `workgroup-size` invocations, with tile sizes that divide the trip counts
// (innermost dimension first).
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-tile-parallel-loops-for-gpu))' | FileCheck %s
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-tile-parallel-loops-for-gpu{workgroup-size=16}))' | FileCheck %s --check-prefix=WG16
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-tile-parallel-loops-for-gpu{workgroup-size=4 max-workgroups=100}))' | FileCheck %s --check-prefix=GRID
// RUN: not amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-tile-parallel-loops-for-gpu{workgroup-size=0}))' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: workgroup-size must be at least 1, got 0
// RUN: not amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-tile-parallel-loops-for-gpu{max-workgroups=0}))' 2>&1 | FileCheck %s --check-prefix=BADMAX
// BADMAX: max-workgroups must be at least 1, got 0

// 8x128: the inner dimension takes all 64 invocations.
// CHECK-LABEL: func.func @two_dims
// CHECK:         %[[TI:.+]] = arith.muli %{{.+}}, %c1{{(_[0-9]+)?}} : index
// CHECK:         %[[TJ:.+]] = arith.muli %{{.+}}, %c64{{(_[0-9]+)?}} : index
// CHECK:         scf.parallel ({{.*}}) = ({{.*}}) to ({{.*}}) step (%[[TI]], %[[TJ]])
// CHECK:           scf.parallel ({{.*}}) = ({{.*}}) to (%[[TI]], %[[TJ]])
// Full tiles need no guard.
// CHECK-NOT:         scf.if
// CHECK:             memref.store
// 16 invocations: 16 of the 128 columns.
// WG16-LABEL: func.func @two_dims
// WG16:         %[[TJ:.+]] = arith.muli %{{.+}}, %c16{{(_[0-9]+)?}} : index
// WG16:         scf.parallel ({{.*}}) step (%{{.+}}, %[[TJ]])
func.func @two_dims(%m: memref<8x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c128) step (%c1, %c1) {
    memref.store %zero, %m[%i, %j] : memref<8x128xf32>
  }
  return
}

// -----

// 10x6: 6 columns, then the largest divisor of 10 within 64 / 6 = 10 rows.
// CHECK-LABEL: func.func @divisors
// CHECK:         %[[TI:.+]] = arith.muli %{{.+}}, %c10{{(_[0-9]+)?}} : index
// CHECK:         %[[TJ:.+]] = arith.muli %{{.+}}, %c6{{(_[0-9]+)?}} : index
// CHECK:         scf.parallel ({{.*}}) = ({{.*}}) to ({{.*}}) step (%[[TI]], %[[TJ]])
func.func @divisors(%m: memref<10x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c10, %c6) step (%c1, %c1) {
    memref.store %zero, %m[%i, %j] : memref<10x6xf32>
  }
  return
}

// -----

// 4x8x8x32: only the first three dimensions become hardware ids, so the
// budget goes to them (8, then 8, then 1 of 4); the fourth runs
// sequentially in each invocation and gets a tile of 1.
// CHECK-LABEL: func.func @four_dims
// CHECK:         %[[T0:.+]] = arith.muli %{{.+}}, %c1{{(_[0-9]+)?}} : index
// CHECK:         %[[T1:.+]] = arith.muli %{{.+}}, %c8{{(_[0-9]+)?}} : index
// CHECK:         %[[T2:.+]] = arith.muli %{{.+}}, %c8{{(_[0-9]+)?}} : index
// CHECK:         %[[T3:.+]] = arith.muli %{{.+}}, %c1{{(_[0-9]+)?}} : index
// CHECK:         scf.parallel ({{.*}}) = ({{.*}}) to ({{.*}}) step (%[[T0]], %[[T1]], %[[T2]], %[[T3]])
func.func @four_dims(%m: memref<4x8x8x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j, %k, %l) = (%c0, %c0, %c0, %c0) to (%c4, %c8, %c8, %c32) step (%c1, %c1, %c1, %c1) {
    memref.store %zero, %m[%i, %j, %k, %l] : memref<4x8x8x32xf32>
  }
  return
}

// -----

// Dynamic bounds and already-nested loops are left alone; so is a loop
// whose trip count (67, prime) has no divisor within the budget.
// CHECK-LABEL: func.func @untouched
// CHECK:         scf.parallel
// CHECK-NOT:     scf.parallel
// CHECK:         scf.parallel
// CHECK-NOT:     scf.parallel
// CHECK:         return
func.func @untouched(%m: memref<?xf32>, %n: index, %p: memref<67xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c67 = arith.constant 67 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %zero, %m[%i] : memref<?xf32>
  }
  scf.parallel (%i) = (%c0) to (%c67) step (%c1) {
    memref.store %zero, %p[%i] : memref<67xf32>
  }
  return
}

// -----

// A parallel reduction is left alone.
// CHECK-LABEL: func.func @reduction
// CHECK:         scf.parallel
// CHECK-NOT:     scf.parallel
// CHECK:         return
func.func @reduction(%m: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.parallel (%i) = (%c0) to (%c64) step (%c1) init (%zero) -> f32 {
    %x = memref.load %m[%i] : memref<64xf32>
    scf.reduce(%x : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return %sum : f32
}

// -----

// 1024 iterations in workgroups of 4: 256 workgroups, more than
// max-workgroups=100 allows along one dimension, so the workgroup loop gets
// a second dimension: 64 x 4 workgroups, workgroup (a, b) taking the
// iterations from (a * 4 + b) * 4.
// GRID-LABEL: func.func @large_grid
// GRID:         scf.parallel (%[[A:.+]], %[[B:.+]]) = (%c0{{.*}}, %c0{{.*}}) to (%c64, %c4{{.*}}) step (%c1{{.*}}, %c1{{.*}}) {
// GRID-NEXT:      %[[C4:.+]] = arith.constant 4 : index
// GRID-NEXT:      %[[AF:.+]] = arith.muli %[[A]], %[[C4]] : index
// GRID-NEXT:      %[[K:.+]] = arith.addi %[[AF]], %[[B]] : index
// GRID-NEXT:      %[[OFF:.+]] = arith.muli %[[K]], %[[STEP:.+]] : index
// GRID-NEXT:      %[[I:.+]] = arith.addi %c0, %[[OFF]] : index
// GRID-NEXT:      scf.parallel (%[[II:.+]]) = ({{.+}}) to (%[[STEP]]) step ({{.+}}) {
// GRID-NEXT:        %[[J:.+]] = arith.addi %[[II]], %[[I]] : index
// GRID-NEXT:        memref.store %{{.+}}, %{{.+}}[%[[J]]]
func.func @large_grid(%m: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c1024) step (%c1) {
    memref.store %zero, %m[%i] : memref<1024xf32>
  }
  return
}

// amp-merge-parallel-regions runs consecutive omp.parallel regions of the
// same threads as one: their bodies one after the other (each worksharing
// loop ends with a barrier), the ops between them that have no results on
// one thread (omp.single), allocations and pure ops before the region,
// deallocations after it.
// RUN: amp-opt %s -split-input-file --amp-merge-parallel-regions | FileCheck %s
// RUN: amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-merge-parallel-regions{max-hoisted-bytes=255}))' | FileCheck %s --check-prefix=CAP
// RUN: not amp-opt %s -split-input-file -p 'builtin.module(func.func(amp-merge-parallel-regions{max-hoisted-bytes=-1}))' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: max-hoisted-bytes must not be negative, got -1

// CHECK-LABEL: func.func @chain
// CHECK-SAME:    (%[[A:.+]]: memref<64xf32>, %[[N:.+]]: i32)
// CHECK:         %[[B:.+]] = memref.alloc() : memref<64xf32>
// CHECK:         %[[ONE:.+]] = arith.constant 1.000000e+00
// CHECK:         omp.parallel num_threads(%[[N]] : i32) {
// CHECK-NEXT:      omp.wsloop {
// CHECK-NEXT:        omp.loop_nest
// CHECK-NEXT:          memref.store %{{.+}}, %[[A]]
// CHECK-NEXT:          omp.yield
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      omp.single {
// CHECK-NEXT:        memref.store %[[ONE]], %[[B]][%{{.+}}]
// CHECK-NEXT:        omp.terminator
// CHECK-NEXT:      }
// CHECK-NEXT:      omp.wsloop {
// CHECK-NEXT:        omp.loop_nest
// CHECK-NEXT:          memref.load %[[B]]
// CHECK-NEXT:          memref.store
// CHECK-NEXT:          omp.yield
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      omp.wsloop {
// CHECK-NEXT:        omp.loop_nest
// CHECK-NEXT:          memref.store
// CHECK-NEXT:          omp.yield
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      omp.terminator
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[B]]
// CHECK-NOT:     omp.parallel
// CHECK:         return
// Allocating 256 bytes early is over the cap: the first two regions stay
// apart; the last two still merge.
// CAP-LABEL:   func.func @chain
// CAP-COUNT-2: omp.parallel
// CAP-NOT:     omp.parallel
func.func @chain(%a: memref<64xf32>, %n: i32) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  omp.parallel num_threads(%n : i32) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c32) {
        memref.store %zero, %a[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  %b = memref.alloc() : memref<64xf32>
  %one = arith.constant 1.0 : f32
  memref.store %one, %b[%c0] : memref<64xf32>
  omp.parallel num_threads(%n : i32) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c32) {
        %v = memref.load %b[%c0] : memref<64xf32>
        memref.store %v, %a[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  memref.dealloc %b : memref<64xf32>
  omp.parallel num_threads(%n : i32) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c32) {
        memref.store %zero, %a[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A body that does not end with a worksharing loop (whose end is a
// barrier) gets a barrier before the next one starts.
// CHECK-LABEL: func.func @barrier
// CAP-LABEL:   func.func @barrier
// CHECK:         omp.parallel
// CHECK:           memref.store
// CHECK-NEXT:      omp.barrier
// CHECK-NEXT:      omp.wsloop
// CHECK-NOT:     omp.parallel
func.func @barrier(%a: memref<64xf32>, %n: i32) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  omp.parallel num_threads(%n : i32) {
    memref.store %zero, %a[%c0] : memref<64xf32>
    omp.terminator
  }
  omp.parallel num_threads(%n : i32) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c32) {
        memref.store %zero, %a[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Ops with results run on one thread too when only they use them (a small
// op unrolled to loads and stores); a pure op computing on them stays
// with them instead of moving up.
// CHECK-LABEL: func.func @serial_results
// CHECK:         omp.parallel
// CHECK:           omp.wsloop
// CHECK:           omp.single {
// CHECK-NEXT:        %[[V:.+]] = memref.load
// CHECK-NEXT:        %[[W:.+]] = arith.addf %[[V]], %[[V]]
// CHECK-NEXT:        memref.store %[[W]]
// CHECK-NEXT:        omp.terminator
// CHECK-NEXT:      }
// CHECK-NEXT:      omp.wsloop
// CHECK-NOT:     omp.parallel
func.func @serial_results(%a: memref<64xf32>, %n: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  omp.parallel num_threads(%n : i32) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c32) {
        memref.store %zero, %a[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  %v = memref.load %a[%c0] : memref<64xf32>
  %w = arith.addf %v, %v : f32
  memref.store %w, %a[%c1] : memref<64xf32>
  omp.parallel num_threads(%n : i32) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c32) {
        memref.store %zero, %a[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Not merged: other threads, a call between two regions (it could start
// threads of its own), an op between them whose result the next region
// reads (a load).
// CHECK-LABEL: func.func @apart
// CHECK-COUNT-4: omp.parallel
func.func private @other()
func.func @apart(%a: memref<64xf32>, %n: i32, %m: i32) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  omp.parallel num_threads(%n : i32) {
    memref.store %zero, %a[%c0] : memref<64xf32>
    omp.terminator
  }
  omp.parallel num_threads(%m : i32) {
    memref.store %zero, %a[%c0] : memref<64xf32>
    omp.terminator
  }
  func.call @other() : () -> ()
  omp.parallel num_threads(%m : i32) {
    memref.store %zero, %a[%c0] : memref<64xf32>
    omp.terminator
  }
  %v = memref.load %a[%c0] : memref<64xf32>
  omp.parallel num_threads(%m : i32) {
    memref.store %v, %a[%c0] : memref<64xf32>
    omp.terminator
  }
  return
}

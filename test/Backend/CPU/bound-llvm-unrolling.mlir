// amp-bound-llvm-unrolling marks the loops that hold loops and run at
// least min-trips times (or an unknown number of times) so that LLVM does
// not unroll them; innermost loops and short outer loops are left to LLVM.
// Run after the conversion to the LLVM dialect, it moves the marks that
// convert-scf-to-cf leaves on latch branches into their loop_annotation,
// which the translation to LLVM IR emits as llvm.loop.unroll.disable.
// RUN: amp-opt %s --amp-bound-llvm-unrolling | FileCheck %s
// RUN: amp-opt %s -p 'builtin.module(amp-bound-llvm-unrolling{min-trips=2})' | FileCheck %s --check-prefix=TWO
// RUN: amp-opt %s -p 'builtin.module(amp-bound-llvm-unrolling,convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts,amp-bound-llvm-unrolling)' | FileCheck %s --check-prefix=LLVM
// RUN: amp-opt %s -p 'builtin.module(amp-bound-llvm-unrolling,convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts,amp-bound-llvm-unrolling)' | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR
// RUN: not amp-opt %s -p 'builtin.module(amp-bound-llvm-unrolling{min-trips=0})' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: amp-bound-llvm-unrolling: min-trips must be at least 1, got 0

// CHECK: #[[UNROLL:.+]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[ANNOTATION:.+]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: func.func @rows
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:           }
// CHECK-NOT:       loop_annotation
// CHECK:         } {llvm.loop_annotation = #[[ANNOTATION]]}
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:           }
// CHECK:         }
// CHECK-NOT:     loop_annotation
// CHECK:         scf.for
// CHECK-NOT:     loop_annotation
// CHECK:         return
// A window of 3 rows is short: marked only with min-trips=2.
// TWO-COUNT-2:   {llvm.loop_annotation = #
// LLVM-LABEL: llvm.func @rows
// LLVM:         llvm.br {{.+}} {loop_annotation = #loop_annotation}
// LLVM-NOT:     llvm.loop_annotation
// IR:           !{!"llvm.loop.unroll.disable"}
func.func @rows(%m: memref<48x12xf32>, %w: memref<3x12xf32>, %v: memref<12xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c12 = arith.constant 12 : index
  %c48 = arith.constant 48 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c48 step %c1 {
    scf.for %j = %c0 to %c12 step %c1 {
      memref.store %zero, %m[%i, %j] : memref<48x12xf32>
    }
  }
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c12 step %c1 {
      memref.store %zero, %w[%i, %j] : memref<3x12xf32>
    }
  }
  scf.for %j = %c0 to %c12 step %c1 {
    memref.store %zero, %v[%j] : memref<12xf32>
  }
  return
}

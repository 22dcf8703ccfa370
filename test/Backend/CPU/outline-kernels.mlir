// amp-outline-kernels makes each op with regions at the top level of a
// function a private no_inline function of its own, named after the op's
// location: values from above become arguments, except constants and
// globals, which are cloned (the loop keeps constant bounds); the op's
// results become the function's. The kernel stays a function of its own in
// LLVM too (`noinline`): compiled in the partition of its caller, it would
// otherwise be inlined and compiled a second time.
// RUN: amp-opt %s -split-input-file --amp-outline-kernels | FileCheck %s
// RUN: amp-opt %s -split-input-file --amp-outline-kernels --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-translate --split-input-file --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM
// LLVM: define void @relu__p2o_Relu_0({{.*}}) #[[KERNEL:[0-9]+]]
// LLVM: define float @relu__kernel({{.*}}) #[[KERNEL]]
// LLVM: define float @relu(
// LLVM: attributes #[[KERNEL]] = { noinline }
// RUN: amp-opt %s -split-input-file -p 'builtin.module(amp-outline-kernels{min-ops=4})' | FileCheck %s --check-prefix=SMALL
// RUN: not amp-opt %s -p 'builtin.module(amp-outline-kernels{min-ops=0})' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: amp-outline-kernels: min-ops must be at least 1, got 0

memref.global "private" constant @bias : memref<64xf32> = dense<1.0>

// CHECK-LABEL: func.func private @relu__p2o_Relu_0
// CHECK-SAME:    (%[[A:.+]]: memref<64xf32>, %[[B:.+]]: memref<64xf32>) attributes {no_inline, passthrough = ["noinline"]}
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG:     %[[BIAS:.+]] = memref.get_global @bias
// CHECK:         scf.for %[[I:.+]] = %[[C0]] to %[[C64]]
// CHECK:           memref.load %[[A]][%[[I]]]
// CHECK:           memref.load %[[BIAS]][%[[I]]]
// CHECK:           memref.store {{.+}}, %[[B]][%[[I]]]
// CHECK:         return
// CHECK-LABEL: func.func private @relu__kernel
// CHECK-SAME:    (%[[A2:.+]]: memref<64xf32>) -> f32 attributes {no_inline, passthrough = ["noinline"]}
// CHECK:         %[[SUM:.+]] = scf.for
// CHECK:         return %[[SUM]] : f32
// CHECK-LABEL: func.func @relu
// CHECK-SAME:    (%[[X:.+]]: memref<64xf32>, %[[Y:.+]]: memref<64xf32>) -> f32
// CHECK-NEXT:    call @relu__p2o_Relu_0(%[[X]], %[[Y]])
// CHECK-NEXT:    %[[R:.+]] = call @relu__kernel(%[[Y]]) : (memref<64xf32>) -> f32
// CHECK-NEXT:    return %[[R]]
// The small loop stays inline with min-ops=4.
// SMALL-LABEL: func.func @relu
// SMALL:         call @relu__p2o_Relu_0
// SMALL-NOT:     call
// SMALL:         scf.for
func.func @relu(%x: memref<64xf32>, %y: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %bias = memref.get_global @bias : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %x[%i] : memref<64xf32>
    %b = memref.load %bias[%i] : memref<64xf32>
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    memref.store %r, %y[%i] : memref<64xf32>
  } loc("p2o.Relu.0")
  %sum = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %y[%i] : memref<64xf32>
    %n = arith.addf %acc, %v : f32
    scf.yield %n : f32
  }
  return %sum : f32
}

// -----

// Two kernels of one name get unique names; ops without regions and
// declarations stay as they are.
// CHECK-LABEL: func.func private @twice__p2o_Add_1(
// CHECK-LABEL: func.func private @twice__p2o_Add_1_0(
// CHECK-LABEL: func.func @twice
// CHECK:         memref.alloc
// CHECK:         call @twice__p2o_Add_1(
// CHECK:         call @twice__p2o_Add_1_0(
func.func private @external(memref<8xf32>)
func.func @twice(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    %s = arith.addf %v, %v : f32
    memref.store %s, %t[%i] : memref<8xf32>
  } loc(fused["p2o.Add.1", "here.mlir":3:4])
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %t[%i] : memref<8xf32>
    %s = arith.addf %v, %v : f32
    memref.store %s, %x[%i] : memref<8xf32>
  } loc("p2o.Add.1")
  memref.dealloc %t : memref<8xf32>
  return
}

// -----

// Kernels that the threaded pipeline merged into one OpenMP region: each
// loop nest inside a worksharing loop becomes a function of its own,
// called per iteration with the induction variable as an argument, and the
// region then becomes a function that calls them (a function as large as
// the model otherwise).
// CHECK-LABEL: func.func private @merged__p2o_Relu_2(
// CHECK-SAME:    %[[X:.+]]: memref<4x16xf32>, %[[I:.+]]: index) attributes {no_inline
// CHECK:         scf.for %{{.+}} = %{{.+}} to %{{.+}}
// CHECK:           memref.load %[[X]][%[[I]],
// CHECK-LABEL: func.func private @merged__p2o_Exp_3(
// CHECK-SAME:    %{{.+}}: memref<4x16xf32>, %{{.+}}: index) attributes {no_inline
// CHECK-LABEL: func.func private @merged__kernel(
// CHECK:         omp.parallel
// CHECK:           omp.loop_nest (%[[J:.+]]) : index
// CHECK-NEXT:        call @merged__p2o_Relu_2(%{{.+}}, %[[J]])
// CHECK-NEXT:        omp.yield
// CHECK:           omp.barrier
// CHECK:           omp.loop_nest (%[[K:.+]]) : index
// CHECK-NEXT:        call @merged__p2o_Exp_3(%{{.+}}, %[[K]])
// CHECK-NEXT:        omp.yield
// CHECK-LABEL: func.func @merged
// CHECK-NEXT:    call @merged__kernel(
// CHECK-NEXT:    return
func.func @merged(%x: memref<4x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c4) step (%c1) {
        scf.for %j = %c0 to %c16 step %c1 {
          %v = memref.load %x[%i, %j] : memref<4x16xf32>
          %r = arith.maximumf %v, %zero : f32
          memref.store %r, %x[%i, %j] : memref<4x16xf32>
        } loc("p2o.Relu.2")
        omp.yield
      }
    }
    omp.barrier
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c4) step (%c1) {
        scf.for %j = %c0 to %c16 step %c1 {
          %v = memref.load %x[%i, %j] : memref<4x16xf32>
          %e = math.exp %v : f32
          memref.store %e, %x[%i, %j] : memref<4x16xf32>
        } loc("p2o.Exp.3")
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A loop nest that holds an OpenMP construct stays in its region.
// CHECK-LABEL: func.func private @critical__kernel(
// CHECK:         omp.loop_nest
// CHECK-NEXT:      scf.for
// CHECK:             omp.critical
// CHECK-LABEL: func.func @critical
func.func @critical(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c4) step (%c1) {
        scf.for %j = %c0 to %c4 step %c1 {
          omp.critical {
            %v = memref.load %x[%j] : memref<4xf32>
            %s = arith.addf %v, %v : f32
            memref.store %s, %x[%j] : memref<4xf32>
            omp.terminator
          }
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

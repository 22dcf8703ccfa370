// A buffer made by a loop and still live across a branch between blocks:
// amp's lowering lifts the branches to scf.if first, so that freeing the
// temporaries does not crash on it (found by amp-fuzz).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/a.npy', np.ones((3, 4), '<f4')); np.save('%t/b.npy', np.full((3, 4), 0.5, '<f4'))"
// RUN: amp-run %s --entry=main --input=%t/a.npy,%t/b.npy | FileCheck %s
// RUN: amp-opt %s --amp-fuse-kernels | FileCheck %s --check-prefix=LIFTED

// a + 3 b; exp(a) since a[0, 0] > 0; min(a + 3 b, b).
// CHECK: result 0: 3x4xf32 [2.71828, 2.71828, {{.*}}] sum=32.6193
// CHECK: result 1: 3x4xf32 [0.5, 0.5, {{.*}}] sum=6

// LIFTED-LABEL: func.func @main
// LIFTED-NOT: cf.cond_br
// LIFTED-NOT: cf.br
// LIFTED: scf.if
func.func @main(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %a) -> (tensor<3x4xf32>) {
    %u = arith.addf %acc, %b : tensor<3x4xf32>
    scf.yield %u : tensor<3x4xf32>
  }
  %e = tensor.extract %a[%c0, %c0] : tensor<3x4xf32>
  %z = arith.constant 0.0 : f32
  %cond = arith.cmpf ogt, %e, %z : f32
  cf.cond_br %cond, ^bb1(%a : tensor<3x4xf32>), ^bb2(%b : tensor<3x4xf32>)
^bb1(%x: tensor<3x4xf32>):
  %p = math.exp %x : tensor<3x4xf32>
  cf.br ^bb3(%p : tensor<3x4xf32>)
^bb2(%y: tensor<3x4xf32>):
  cf.br ^bb3(%y : tensor<3x4xf32>)
^bb3(%m: tensor<3x4xf32>):
  %c = arith.minimumf %r, %b : tensor<3x4xf32>
  return %m, %c : tensor<3x4xf32>, tensor<3x4xf32>
}

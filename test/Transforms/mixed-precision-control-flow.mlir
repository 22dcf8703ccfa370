// RUN: amp-opt %s --split-input-file --mixed-precision=placement=greedy --verify-each | FileCheck %s
// RUN: amp-opt %s --split-input-file --mixed-precision="precision=bf16 placement=greedy" --verify-each | FileCheck %s --check-prefix=BF16

// Values tied through control flow get one type: a loop-carried hidden state
// is carried in f16 (its f32 initial value is cast once before the loop),
// while a loop-carried sum keeps an f32 accumulator.
// CHECK-LABEL: func.func @loop
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[W:.+]]: tensor<4x4xf32>)
// CHECK-DAG: %[[W16:.+]] = arith.truncf %[[W]] : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK-DAG: %[[X16:.+]] = arith.truncf %[[X]] : tensor<4xf32> to tensor<4xf16>
// CHECK: %[[R:.+]]:2 = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[H:.+]] = %[[X16]], %[[S:.+]] = %{{.+}}) -> (tensor<4xf16>, f32)
// CHECK: %[[M:.+]] = linalg.matvec ins(%[[W16]], %[[H]] : tensor<4x4xf16>, tensor<4xf16>) outs(%{{.+}} : tensor<4xf32>)
// CHECK: %[[ML:.+]] = arith.truncf %[[M]] : tensor<4xf32> to tensor<4xf16>
// CHECK: %[[T:.+]] = math.tanh %[[ML]] : tensor<4xf16>
// CHECK: %[[E:.+]] = tensor.extract %[[T]][%{{.+}}] : tensor<4xf16>
// CHECK: %[[EW:.+]] = arith.extf %[[E]] : f16 to f32
// CHECK: %[[S2:.+]] = arith.addf %[[S]], %[[EW]] : f32
// CHECK: scf.yield %[[T]], %[[S2]] : tensor<4xf16>, f32
// CHECK: %[[OUT:.+]] = arith.extf %[[R]]#0 : tensor<4xf16> to tensor<4xf32>
// CHECK: return %[[OUT]], %[[R]]#1 : tensor<4xf32>, f32
// BF16-LABEL: func.func @loop
// BF16: scf.for {{.*}} -> (tensor<4xbf16>, f32)
func.func @loop(%x: tensor<4xf32>, %w: tensor<4x4xf32>) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%h = %x, %s = %z) -> (tensor<4xf32>, f32) {
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %m = linalg.matvec ins(%w, %h : tensor<4x4xf32>, tensor<4xf32>) outs(%f : tensor<4xf32>) -> tensor<4xf32>
    %t = math.tanh %m : tensor<4xf32>
    %v = tensor.extract %t[%c0] : tensor<4xf32>
    %s2 = arith.addf %s, %v : f32
    scf.yield %t, %s2 : tensor<4xf32>, f32
  }
  return %r#0, %r#1 : tensor<4xf32>, f32
}

// -----

// An LSTM cell over 4 time steps: the gate contractions read f16 and the
// gate sum and the candidate tanh run in f16; the sigmoid written with exp
// stays f32 from the exp on (red -> gray), so the cell state and h, which it
// scales, are carried in f32 and cast once per step for the contraction.
// CHECK-LABEL: func.func @lstm
// CHECK: scf.for {{.*}} iter_args(%[[H:.+]] = %{{.+}}, %[[C:.+]] = %{{.+}}) -> (tensor<1x8xf32>, tensor<1x8xf32>)
// CHECK: %[[H16:.+]] = arith.truncf %[[H]] : tensor<1x8xf32> to tensor<1x8xf16>
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<1x8xf16>, tensor<8x8xf16>)
// CHECK: linalg.matmul ins(%[[H16]], %{{.+}} : tensor<1x8xf16>, tensor<8x8xf16>)
// CHECK: %[[G:.+]] = arith.addf %{{.+}}, %{{.+}} : tensor<1x8xf16>
// CHECK: math.exp %{{.+}} : tensor<1x8xf32>
// CHECK: math.tanh %[[G]] : tensor<1x8xf16>
// CHECK: arith.mulf %{{.+}}, %[[C]] : tensor<1x8xf32>
func.func @lstm(%x: tensor<1x8xf32>, %wx: tensor<8x8xf32>, %wh: tensor<8x8xf32>) -> tensor<1x8xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant dense<1.0> : tensor<1x8xf32>
  %e = tensor.empty() : tensor<1x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %z, %c = %z) -> (tensor<1x8xf32>, tensor<1x8xf32>) {
    %gx = linalg.matmul ins(%x, %wx : tensor<1x8xf32>, tensor<8x8xf32>) outs(%z : tensor<1x8xf32>) -> tensor<1x8xf32>
    %gh = linalg.matmul ins(%h, %wh : tensor<1x8xf32>, tensor<8x8xf32>) outs(%z : tensor<1x8xf32>) -> tensor<1x8xf32>
    %g = arith.addf %gx, %gh : tensor<1x8xf32>
    // sigmoid(g) = 1 / (1 + exp(-g))
    %ng = arith.negf %g : tensor<1x8xf32>
    %ex = math.exp %ng : tensor<1x8xf32>
    %den = arith.addf %one, %ex : tensor<1x8xf32>
    %sig = arith.divf %one, %den : tensor<1x8xf32>
    %cand = math.tanh %g : tensor<1x8xf32>
    %fc = arith.mulf %sig, %c : tensor<1x8xf32>
    %ic = arith.mulf %sig, %cand : tensor<1x8xf32>
    %c2 = arith.addf %fc, %ic : tensor<1x8xf32>
    %tc = math.tanh %c2 : tensor<1x8xf32>
    %h2 = arith.mulf %sig, %tc : tensor<1x8xf32>
    scf.yield %h2, %c2 : tensor<1x8xf32>, tensor<1x8xf32>
  }
  return %r#0 : tensor<1x8xf32>
}

// -----

// scf.if: both branches yield into one result. One branch is exp (f32), so
// the result and the tanh branch are f32 too; and since exp's result may
// exceed f16 (its input is only assumed to fit), so may the if's result:
// the next contraction reads it in f32 rather than rounding it.
// CHECK-LABEL: func.func @if
// CHECK: %[[M:.+]] = linalg.matmul {{.*}} -> tensor<4x4xf32>
// CHECK: %[[R:.+]] = scf.if %{{.+}} -> (tensor<4x4xf32>)
// CHECK: math.tanh %[[M]] : tensor<4x4xf32>
// CHECK: math.exp %[[M]] : tensor<4x4xf32>
// CHECK-NOT: arith.truncf %[[R]]
// CHECK: linalg.matmul ins(%[[R]], %{{.+}} : tensor<4x4xf32>, tensor<4x4xf32>)
func.func @if(%c: i1, %a: tensor<4x4xf32>, %w: tensor<4x4xf32>, %o: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.matmul ins(%a, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%o : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = scf.if %c -> tensor<4x4xf32> {
    %t = math.tanh %m : tensor<4x4xf32>
    scf.yield %t : tensor<4x4xf32>
  } else {
    %e = math.exp %m : tensor<4x4xf32>
    scf.yield %e : tensor<4x4xf32>
  }
  %s = linalg.matmul ins(%r, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%o : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// -----

// cf block arguments take the type of what reaches them.
// CHECK-LABEL: func.func @branches
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: %[[ML:.+]] = arith.truncf %[[M]] : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK: cf.cond_br %{{.+}}, ^[[JOIN:.+]](%[[ML]] : tensor<4x4xf16>), ^[[OTHER:.+]]
// CHECK: ^[[OTHER]]:
// CHECK: %[[T:.+]] = math.tanh %[[ML]] : tensor<4x4xf16>
// CHECK: cf.br ^[[JOIN]](%[[T]] : tensor<4x4xf16>)
// CHECK: ^[[JOIN]](%[[V:.+]]: tensor<4x4xf16>):
// CHECK: arith.negf %[[V]] : tensor<4x4xf16>
func.func @branches(%c: i1, %a: tensor<4x4xf32>, %w: tensor<4x4xf32>, %o: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.matmul ins(%a, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%o : tensor<4x4xf32>) -> tensor<4x4xf32>
  cf.cond_br %c, ^bb1(%m : tensor<4x4xf32>), ^bb2
^bb2:
  %t = math.tanh %m : tensor<4x4xf32>
  cf.br ^bb1(%t : tensor<4x4xf32>)
^bb1(%v: tensor<4x4xf32>):
  %n = arith.negf %v : tensor<4x4xf32>
  return %n : tensor<4x4xf32>
}

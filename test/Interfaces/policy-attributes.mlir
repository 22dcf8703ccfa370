// RUN: amp-opt %s --split-input-file --amp-test-print-policy -o /dev/null | FileCheck %s

// An op's own amp.precision is merged with the amp.scope of its ancestors,
// field by field, the innermost winning. The model's category is still
// reported: policy attributes override it in the pass, not in the model.
// CHECK-LABEL: func.func @scopes
// CHECK-NEXT: math.exp never model acc=- data=(0)->(0) compute=yes policy=#amp.precision<low = bf16, accumulate = f32> "exp
// CHECK-NEXT: math.exp never model acc=- data=(0)->(0) compute=yes policy=#amp.precision<policy = follow, low = bf16, accumulate = f32> "exp
// CHECK:      scf.for follow model acc=sum/4/wide data=(3)->(0) compute=yes policy=#amp.precision<low = bf16, accumulate = f32>
// CHECK-NEXT: arith.addf follow model acc=- data=(0, 1)->(0) compute=yes policy=#amp.precision<policy = never, low = f16, accumulate = f32>
// CHECK-NEXT: scf.yield follow model acc=- data=(0)->() compute=yes policy=#amp.precision<policy = never, low = f16, accumulate = f32>
func.func @scopes(%a: f32) -> f32
    attributes {amp.scope = #amp.precision<low = bf16, accumulate = f32>} {
  %0 = math.exp %a : f32
  %1 = math.exp %a {amp.precision = #amp.precision<policy = follow>} : f32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %a) -> f32 {
    %s = arith.addf %acc, %1 : f32
    scf.yield %s : f32
  } {amp.scope = #amp.precision<policy = never, low = f16>}
  return %r : f32
}

// -----

// Without any policy attribute nothing is printed for it.
// CHECK-LABEL: func.func @none
// CHECK-NEXT: math.exp never model acc=- data=(0)->(0) compute=yes "exp
func.func @none(%a: f32) -> f32 {
  %0 = math.exp %a : f32
  return %0 : f32
}

// -----

// An inner bf16 scope under an outer f16 accumulator: the merged accumulator
// follows the inner low type instead of forming an invalid combination.
// CHECK-LABEL: func.func @merge_conflict
// CHECK: arith.addf follow model acc=- data=(0, 1)->(0) compute=yes policy=#amp.precision<low = bf16, accumulate = bf16>
func.func @merge_conflict(%a: f32) -> f32
    attributes {amp.scope = #amp.precision<low = f16, accumulate = f16>} {
  %r = scf.execute_region -> f32 {
    %s = arith.addf %a, %a : f32
    scf.yield %s : f32
  } {amp.scope = #amp.precision<low = bf16>}
  return %r : f32
}

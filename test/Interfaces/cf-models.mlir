// RUN: amp-opt %s --split-input-file --amp-test-print-policy -o /dev/null | FileCheck %s

// Branches forward values; only their float successor operands are data.
// CHECK-LABEL: func.func @branches
// CHECK-NEXT: cf.cond_br follow model acc=- data=(1, 2)->() compute=yes "control flow: takes the precision of the values it carries"
// CHECK-NEXT: cf.br follow model acc=- data=(0)->()
// CHECK-NEXT: cf.switch follow model acc=- data=(1)->()
// CHECK-NEXT: func.return follow
func.func @branches(%c: i1, %a: f32, %b: f32, %s: i32) -> f32 {
  cf.cond_br %c, ^bb1(%a : f32), ^bb2(%b : f32)
^bb1(%v: f32):
  cf.br ^bb2(%v : f32)
^bb2(%w: f32):
  cf.switch %s : i32, [
    default: ^bb3(%w : f32)
  ]
^bb3(%r: f32):
  return %r : f32
}

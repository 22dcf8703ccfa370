// amp-expand-floor-ceil-div rewrites arith.floordivsi, ceildivsi and
// ceildivui into plain divisions, comparisons and selects, and leaves other
// arith ops (min/max included) alone. The values are checked by running
// them: test/Runner/vulkan-resize.mlir.
// RUN: amp-opt %s -p 'builtin.module(func.func(amp-expand-floor-ceil-div))' | FileCheck %s

// CHECK-LABEL: func.func @divisions
// CHECK-NOT:     floordivsi
// CHECK-NOT:     ceildiv
// CHECK-DAG:     arith.divsi
// CHECK-DAG:     arith.divui
// CHECK-DAG:     arith.select
// CHECK:         arith.maxnumf
// CHECK:         return
func.func @divisions(%i: index, %j: index, %a: i32, %b: i32, %x: f32, %y: f32)
    -> (index, i32, i32, f32) {
  %f = arith.floordivsi %i, %j : index
  %c = arith.ceildivsi %a, %b : i32
  %u = arith.ceildivui %a, %b : i32
  %m = arith.maxnumf %x, %y : f32
  return %f, %c, %u, %m : index, i32, i32, f32
}

// An op whose model would decline the rewrite is known to stay f32 before
// casts are placed (AmpOpInterface::getRewriteBlocker): the placement
// plans no cast for it, and its remark and report entry give the model's
// reason.
// RUN: amp-opt %s --split-input-file --mixed-precision | FileCheck %s
// RUN: amp-opt %s --split-input-file --mixed-precision=explain=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: amp-opt %s --split-input-file --mixed-precision=report=- -o /dev/null | FileCheck %s --check-prefix=REPORT

// A tosa.custom forced to allow keeps its fixed types; nothing is cast.
// CHECK-LABEL: func.func @forced_custom
// CHECK-NOT: arith.truncf
// CHECK: tosa.custom %{{.+}} {{.+}} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: arith.extf
// REMARK: remark: amp: tosa.custom stays f32 (allow, amp.precision): its model declines the rewrite to f16: types are fixed
// REPORT: "op": "tosa.custom"
// REPORT: "mode": "f32"
// REPORT: "reason": "its model declines the rewrite to f16: types are fixed"
func.func @forced_custom(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.custom %a {operator_name = "op", domain_name = "d", implementation_attrs = "", amp.precision = #amp.precision<policy = allow>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A generic whose body holds a bitcast cannot be converted; the follow ops
// around it are placed knowing it stays f32.
// CHECK-LABEL: func.func @bitcast_body
// CHECK: linalg.generic
// CHECK: arith.bitcast %{{.+}} : f32 to i32
// CHECK-NOT: f16
// REMARK: remark: amp: linalg.generic stays f32 (allow, amp.precision): its model declines the rewrite to f16: body cannot be converted: arith.bitcast: the op's float types are fixed by what it computes
#id = affine_map<(d0) -> (d0)>
func.func @bitcast_body(%a: tensor<4xf32>, %o: tensor<4xi32>) -> tensor<4xi32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"], amp.precision = #amp.precision<policy = allow>}
      ins(%a : tensor<4xf32>) outs(%o : tensor<4xi32>) {
  ^bb0(%x: f32, %y: i32):
    %b = arith.bitcast %x : f32 to i32
    linalg.yield %b : i32
  } -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

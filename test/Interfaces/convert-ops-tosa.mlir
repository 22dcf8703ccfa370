// RUN: amp-opt %s --split-input-file --amp-test-convert-ops --verify-diagnostics | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-test-convert-ops='low=bf16' | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %s --split-input-file --amp-test-convert-ops='low=bf16 accumulate=f16' | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %s --split-input-file --amp-test-convert-ops='accumulate=f16' --verify-diagnostics | FileCheck %s --check-prefix=ACC16
// RUN: amp-opt %s --split-input-file --amp-test-convert-ops='all=true' --verify-diagnostics | FileCheck %s --check-prefix=ALL

// The tosa model's rewrite, one op at a time: data operands are truncated to
// the low type (one cast per distinct value), results are extended back to
// their original type.

// tosa.matmul reads f16 inputs and zero points and keeps its f32 result (the
// accumulate type); with accumulate=f16 the result is f16. With bf16 the
// result is f32 whatever the accumulate type: TOSA accumulates bf16 in f32.

// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:      %[[A:.+]]: tensor<1x4x8xf32>, %[[B:.+]]: tensor<1x8x16xf32>)
// Casts of constants are folded at compile time: the converted zero point
// reaches the matmul as an f16 constant, with no runtime cast.
// CHECK:         "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
// CHECK-DAG:     %[[A16:.+]] = arith.truncf %[[A]] : tensor<1x4x8xf32> to tensor<1x4x8xf16>
// CHECK-DAG:     %[[B16:.+]] = arith.truncf %[[B]] : tensor<1x8x16xf32> to tensor<1x8x16xf16>
// CHECK-DAG:     %[[ZP16B:.+]] = arith.constant dense<0.000000e+00> : tensor<1xf16>
// CHECK:         %[[MM:.+]] = tosa.matmul %[[A16]], %[[B16]], %[[ZP16B]], %[[ZP16B]]
// CHECK-SAME:        : (tensor<1x4x8xf16>, tensor<1x8x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x16xf32>
// CHECK-NOT:     arith.extf
// CHECK-NEXT:    return %[[MM]] : tensor<1x4x16xf32>

// BF16-LABEL: func.func @matmul(
// BF16:         %[[MM:.+]] = tosa.matmul
// BF16-SAME:        : (tensor<1x4x8xbf16>, tensor<1x8x16xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x4x16xf32>
// BF16-NEXT:    return %[[MM]] : tensor<1x4x16xf32>

// ACC16-LABEL: func.func @matmul(
// ACC16:         %[[MM:.+]] = tosa.matmul
// ACC16-SAME:        : (tensor<1x4x8xf16>, tensor<1x8x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x16xf16>
// ACC16-NEXT:    %[[EXT:.+]] = arith.extf %[[MM]] : tensor<1x4x16xf16> to tensor<1x4x16xf32>
// ACC16-NEXT:    return %[[EXT]] : tensor<1x4x16xf32>
func.func @matmul(%a: tensor<1x4x8xf32>, %b: tensor<1x8x16xf32>) -> tensor<1x4x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x16xf32>
  return %0 : tensor<1x4x16xf32>
}

// -----

// tosa.conv2d: input, weight, bias and zero points in f16, the result in f16,
// and acc_type set to the accumulate type. With bf16, acc_type stays f32 even
// when accumulate=f16 is asked for.

// CHECK-LABEL: func.func @conv2d(
// CHECK-SAME:      %[[IN:[^:]+]]: tensor<1x8x8x3xf32>, %[[W:[^:]+]]: tensor<16x3x5x3xf32>, %[[BIAS:[^:]+]]: tensor<16xf32>, %[[ZP:[^:]+]]: tensor<1xf32>)
// CHECK-NEXT:    %[[IN16:.+]] = arith.truncf %[[IN]] : tensor<1x8x8x3xf32> to tensor<1x8x8x3xf16>
// CHECK-NEXT:    %[[W16:.+]] = arith.truncf %[[W]] : tensor<16x3x5x3xf32> to tensor<16x3x5x3xf16>
// CHECK-NEXT:    %[[BIAS16:.+]] = arith.truncf %[[BIAS]] : tensor<16xf32> to tensor<16xf16>
// CHECK-NEXT:    %[[ZP16:.+]] = arith.truncf %[[ZP]] : tensor<1xf32> to tensor<1xf16>
// CHECK-NEXT:    %[[CONV:.+]] = tosa.conv2d %[[IN16]], %[[W16]], %[[BIAS16]], %[[ZP16]], %[[ZP16]]
// CHECK-SAME:        acc_type = f32
// CHECK-SAME:        : (tensor<1x8x8x3xf16>, tensor<16x3x5x3xf16>, tensor<16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x6x4x16xf16>
// CHECK-NEXT:    %[[EXT:.+]] = arith.extf %[[CONV]] : tensor<1x6x4x16xf16> to tensor<1x6x4x16xf32>
// CHECK-NEXT:    return %[[EXT]] : tensor<1x6x4x16xf32>

// BF16-LABEL: func.func @conv2d(
// BF16:         %[[CONV:.+]] = tosa.conv2d
// BF16-SAME:        acc_type = f32
// BF16-SAME:        : (tensor<1x8x8x3xbf16>, tensor<16x3x5x3xbf16>, tensor<16xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x6x4x16xbf16>
// BF16-NEXT:    %[[EXT:.+]] = arith.extf %[[CONV]] : tensor<1x6x4x16xbf16> to tensor<1x6x4x16xf32>
// BF16-NEXT:    return %[[EXT]]

// ACC16-LABEL: func.func @conv2d(
// ACC16:         tosa.conv2d
// ACC16-SAME:        acc_type = f16
// ACC16-SAME:        -> tensor<1x6x4x16xf16>
func.func @conv2d(%in: tensor<1x8x8x3xf32>, %w: tensor<16x3x5x3xf32>, %b: tensor<16xf32>, %zp: tensor<1xf32>) -> tensor<1x6x4x16xf32> {
  %0 = tosa.conv2d %in, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<16x3x5x3xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x4x16xf32>
  return %0 : tensor<1x6x4x16xf32>
}

// -----

// tosa.clamp's bounds take the low type.

// CHECK-LABEL: func.func @clamp(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>)
// CHECK-NEXT:    %[[X16:.+]] = arith.truncf %[[X]] : tensor<4xf32> to tensor<4xf16>
// CHECK-NEXT:    %[[C:.+]] = tosa.clamp %[[X16]] {max_val = 6.000000e+00 : f16, min_val = -1.500000e+00 : f16} : (tensor<4xf16>) -> tensor<4xf16>
// CHECK-NEXT:    %[[EXT:.+]] = arith.extf %[[C]] : tensor<4xf16> to tensor<4xf32>
// CHECK-NEXT:    return %[[EXT]]

// BF16-LABEL: func.func @clamp(
// BF16:         tosa.clamp %{{.+}} {max_val = 6.000000e+00 : bf16, min_val = -1.500000e+00 : bf16} : (tensor<4xbf16>) -> tensor<4xbf16>
func.func @clamp(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.clamp %x {min_val = -1.5 : f32, max_val = 6.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Bounds of +-128000 overflow f16 (max 65504): the model declines and the
// clamp stays f32. bf16 has f32's range: there it is converted.

// CHECK-LABEL: func.func @clamp_out_of_f16_range(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>)
// CHECK-NOT:     arith.truncf
// CHECK-NEXT:    %[[C:.+]] = tosa.clamp %[[X]] {max_val = 1.280000e+05 : f32, min_val = -1.280000e+05 : f32} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT:     arith.extf
// CHECK-NEXT:    return %[[C]]

// BF16-LABEL: func.func @clamp_out_of_f16_range(
// BF16-SAME:      %[[X:.+]]: tensor<4xf32>)
// BF16-NEXT:    %[[XB:.+]] = arith.truncf %[[X]] : tensor<4xf32> to tensor<4xbf16>
// BF16-NEXT:    %[[C:.+]] = tosa.clamp %[[XB]] {max_val = 1.280000e+05 : bf16, min_val = -1.280000e+05 : bf16} : (tensor<4xbf16>) -> tensor<4xbf16>
// BF16-NEXT:    %[[EXT:.+]] = arith.extf %[[C]] : tensor<4xbf16> to tensor<4xf32>
// BF16-NEXT:    return %[[EXT]]

// ACC16-LABEL: func.func @clamp_out_of_f16_range(
// ACC16-NEXT:    tosa.clamp %{{.+}} : (tensor<4xf32>) -> tensor<4xf32>

// ALL-LABEL: func.func @clamp_out_of_f16_range(
// ALL-NEXT:    tosa.clamp %{{.+}} : (tensor<4xf32>) -> tensor<4xf32>
func.func @clamp_out_of_f16_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark @below {{amp: not converted to 'f16'}}
  %0 = tosa.clamp %x {min_val = -128000.0 : f32, max_val = 128000.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// tosa.const: its values are converted.

// CHECK-LABEL: func.func @const(
// CHECK-NEXT:    "tosa.const"() <{values = dense<[1.000000e+00, 5.000000e-01, -2.000000e+00]> : tensor<3xf16>}> : () -> tensor<3xf16>
// CHECK-NEXT:    %[[EXT:.+]] = arith.constant dense<[1.000000e+00, 5.000000e-01, -2.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    return %[[EXT]] : tensor<3xf32>

// BF16-LABEL: func.func @const(
// BF16-NEXT:    "tosa.const"() <{values = dense<[1.000000e+00, 5.000000e-01, -2.000000e+00]> : tensor<3xbf16>}> : () -> tensor<3xbf16>
func.func @const() -> tensor<3xf32> {
  %0 = "tosa.const"() <{values = dense<[1.0, 0.5, -2.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// exp is never: untouched unless all=true.

// CHECK-LABEL: func.func @exp(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>)
// CHECK-NOT:     arith.truncf
// CHECK-NEXT:    %[[E:.+]] = tosa.exp %[[X]] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT:     arith.extf
// CHECK-NEXT:    return %[[E]]

// BF16-LABEL: func.func @exp(
// BF16-NEXT:    tosa.exp %{{.+}} : (tensor<4xf32>) -> tensor<4xf32>

// ALL-LABEL: func.func @exp(
// ALL-SAME:      %[[X:.+]]: tensor<4xf32>)
// ALL-NEXT:    %[[X16:.+]] = arith.truncf %[[X]] : tensor<4xf32> to tensor<4xf16>
// ALL-NEXT:    %[[E:.+]] = tosa.exp %[[X16]] : (tensor<4xf16>) -> tensor<4xf16>
// ALL-NEXT:    %[[EXT:.+]] = arith.extf %[[E]] : tensor<4xf16> to tensor<4xf32>
// ALL-NEXT:    return %[[EXT]]
func.func @exp(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// avg_pool2d is never too; with all=true it reads f16 and keeps acc_type f32.

// CHECK-LABEL: func.func @avg_pool2d(
// CHECK-NOT:     arith.truncf
// CHECK-NEXT:    tosa.avg_pool2d %{{.+}} : (tensor<1x8x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x4x4xf32>

// ALL-LABEL: func.func @avg_pool2d(
// ALL:         %[[P:.+]] = tosa.avg_pool2d
// ALL-SAME:        acc_type = f32
// ALL-SAME:        : (tensor<1x8x8x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x6x4x4xf16>
// ALL-NEXT:    %[[EXT:.+]] = arith.extf %[[P]] : tensor<1x6x4x4xf16> to tensor<1x6x4x4xf32>
func.func @avg_pool2d(%in: tensor<1x8x8x4xf32>, %zp: tensor<1xf32>) -> tensor<1x6x4x4xf32> {
  %0 = tosa.avg_pool2d %in, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 5>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x4x4xf32>
  return %0 : tensor<1x6x4x4xf32>
}

// -----

// Operands that are not float data keep their types: select's i1 condition,
// gather's i32 indices, mul's i8 shift.

// CHECK-LABEL: func.func @non_data_operands(
// CHECK-SAME:      %[[COND:[^:]+]]: tensor<4xi1>, %[[A:[^:]+]]: tensor<4xf32>, %[[B:[^:]+]]: tensor<4xf32>, %[[V:[^:]+]]: tensor<1x10x4xf32>, %[[IDX:[^:]+]]: tensor<1x3xi32>)
// CHECK:         %[[SHIFT:.+]] = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
// CHECK:         %[[SEL:.+]] = tosa.select %[[COND]], %{{.+}}, %{{.+}} : (tensor<4xi1>, tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
// CHECK:         tosa.mul %{{.+}}, %{{.+}}, %[[SHIFT]] : (tensor<4xf16>, tensor<4xf16>, tensor<1xi8>) -> tensor<4xf16>
// CHECK:         tosa.gather %{{.+}}, %[[IDX]] : (tensor<1x10x4xf16>, tensor<1x3xi32>) -> tensor<1x3x4xf16>
func.func @non_data_operands(%cond: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>, %v: tensor<1x10x4xf32>, %idx: tensor<1x3xi32>) -> (tensor<4xf32>, tensor<1x3x4xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.select %cond, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.mul %0, %b, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  %2 = tosa.gather %v, %idx : (tensor<1x10x4xf32>, tensor<1x3xi32>) -> tensor<1x3x4xf32>
  return %1, %2 : tensor<4xf32>, tensor<1x3x4xf32>
}

// -----

// tosa.cast keeps its types: converting it would change its result.
// CHECK-LABEL: func.func @cast_untouched
// CHECK-NOT: truncf
// CHECK: tosa.cast %{{.+}} : (tensor<4xf32>) -> tensor<4xi32>
// BF16-LABEL: func.func @cast_untouched
// BF16-NOT: truncf
// BF16: tosa.cast %{{.+}} : (tensor<4xf32>) -> tensor<4xi32>
// ALL-LABEL: func.func @cast_untouched
// ALL-NOT: truncf
// ALL: tosa.cast %{{.+}} : (tensor<4xf32>) -> tensor<4xi32>
func.func @cast_untouched(%a: tensor<4xf32>) -> tensor<4xi32> {
  %0 = tosa.cast %a : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

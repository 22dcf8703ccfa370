// RUN: amp-opt %s --split-input-file --mixed-precision="explain=true placement=greedy" --verify-each 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: amp-opt %s --split-input-file --mixed-precision="precision=bf16 placement=greedy" --verify-each | FileCheck %s --check-prefix=BF16

// A constant feeding a low op becomes a low constant at compile time: no
// runtime truncf.
// CHECK-LABEL: func.func @constant_operand
// CHECK-DAG: %[[K:.+]] = arith.constant dense<[5.000000e-01, 1.500000e+00, 2.500000e+00, 3.500000e+00]> : tensor<4xf16>
// CHECK: arith.mulf %{{.+}}, %[[K]] : tensor<4xf16>
// CHECK-NOT: arith.truncf %{{.*}}dense
// BF16-LABEL: func.func @constant_operand
// BF16: arith.constant dense<[5.000000e-01, 1.500000e+00, 2.500000e+00, 3.500000e+00]> : tensor<4xbf16>
func.func @constant_operand(%x: tensor<4xf32>, %w: tensor<4x4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %m = linalg.matvec ins(%w, %x : tensor<4x4xf32>, tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
  %k = arith.constant dense<[0.5, 1.5, 2.5, 3.5]> : tensor<4xf32>
  %0 = arith.mulf %m, %k : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A constant that overflows f16 keeps its consumer in f32, with a remark
// saying why; bf16 has f32's range and takes it.
// CHECK-LABEL: func.func @overflowing_constant
// CHECK: %[[BIG:.+]] = arith.constant dense<[1.000000e+05, 1.000000e+00, 1.000000e+00, 1.000000e+00]> : tensor<4xf32>
// CHECK: arith.mulf %{{.+}}, %[[BIG]] : tensor<4xf32>
// REMARK: remark: amp: arith.mulf stays f32 (follow, model): constant operand 1 does not fit f16 (overflow, or most values underflow to zero)
// BF16-LABEL: func.func @overflowing_constant
// BF16: arith.mulf %{{.+}}, %{{.+}} : tensor<4xbf16>
func.func @overflowing_constant(%x: tensor<4xf32>, %w: tensor<4x4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %m = linalg.matvec ins(%w, %x : tensor<4x4xf32>, tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
  %big = arith.constant dense<[1.0e5, 1.0, 1.0, 1.0]> : tensor<4xf32>
  %0 = arith.mulf %m, %big : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A constant whose values mostly underflow to zero in f16 is not used in
// f16 either (bf16 holds them).
// CHECK-LABEL: func.func @underflowing_constant
// CHECK: arith.addf %{{.+}}, %{{.+}} : tensor<4xf32>
// REMARK: remark: amp: arith.addf stays f32 (follow, model): constant operand 1 does not fit f16
// BF16-LABEL: func.func @underflowing_constant
// BF16: arith.addf %{{.+}}, %{{.+}} : tensor<4xbf16>
func.func @underflowing_constant(%x: tensor<4xf32>, %w: tensor<4x4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %m = linalg.matvec ins(%w, %x : tensor<4x4xf32>, tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
  %eps = arith.constant dense<[1.0e-9, 2.0e-9, 3.0e-9, 1.0]> : tensor<4xf32>
  %0 = arith.addf %m, %eps : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Scalar attributes follow the same rule (TVM test_clip): clamp bounds of
// +-128000 do not fit f16, so that clamp stays f32; bf16 takes them.
// CHECK-LABEL: func.func @clip
// CHECK: tosa.conv2d {{.*}} -> tensor<1x6x6x4xf16>
// CHECK: tosa.clamp %{{.+}} {max_val = 1.280000e+05 : f32, min_val = -1.280000e+05 : f32} : (tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
// REMARK: remark: amp: tosa.clamp stays f32 (follow, model): attribute 'max_val' does not fit f16
// BF16-LABEL: func.func @clip
// BF16: tosa.conv2d {{.*}} {acc_type = f32, {{.*}} -> tensor<1x6x6x4xbf16>
// BF16: tosa.clamp %{{.+}} {max_val = 1.280000e+05 : bf16, min_val = -1.280000e+05 : bf16} : (tensor<1x6x6x4xbf16>) -> tensor<1x6x6x4xbf16>
func.func @clip(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x6x6x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x4xf32>
  %1 = tosa.clamp %0 {min_val = -128000.0 : f32, max_val = 128000.0 : f32} : (tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %1 : tensor<1x6x6x4xf32>
}

// -----

// conv + batch norm with constant scale and shift: the normalisation's
// constants are converted at compile time and the whole chain runs low.
// CHECK-LABEL: func.func @conv_bn
// CHECK: %[[CONV:.+]] = tosa.conv2d {{.*}} -> tensor<1x6x6x4xf16>
// CHECK: %[[MUL:.+]] = tosa.mul %[[CONV]], %{{.+}}, %{{.+}} : (tensor<1x6x6x4xf16>, tensor<1x1x1x4xf16>, tensor<1xi8>) -> tensor<1x6x6x4xf16>
// CHECK: tosa.add %[[MUL]], %{{.+}} : (tensor<1x6x6x4xf16>, tensor<1x1x1x4xf16>) -> tensor<1x6x6x4xf16>
func.func @conv_bn(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x6x6x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %scale = "tosa.const"() <{values = dense<[[[[0.5, 1.5, 2.0, 0.25]]]]> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %shift = "tosa.const"() <{values = dense<[[[[0.1, -0.2, 0.3, 0.0]]]]> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x4xf32>
  %1 = tosa.mul %0, %scale, %s : (tensor<1x6x6x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x6x6x4xf32>
  %2 = tosa.add %1, %shift : (tensor<1x6x6x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x6x6x4xf32>
  return %2 : tensor<1x6x6x4xf32>
}

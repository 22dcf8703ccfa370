// RUN: amp-opt %s --split-input-file --mixed-precision=placement=greedy --verify-each | FileCheck %s
// RUN: amp-opt %s --split-input-file --mixed-precision="precision=bf16 placement=greedy" --verify-each | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %s --split-input-file --mixed-precision="accumulate=low placement=greedy" --verify-each | FileCheck %s --check-prefix=LOW
// RUN: amp-opt %s --split-input-file --mixed-precision="accumulate-min-size=256 placement=greedy" --verify-each | FileCheck %s --check-prefix=SIZE
// RUN: amp-opt %s --split-input-file --mixed-precision --verify-each | FileCheck %s --check-prefix=OPT

// Sums read low inputs and accumulate in f32; their result stays f32.
// With accumulate=low they run entirely low; with accumulate-min-size=256,
// only reductions of at least 256 elements keep the f32 accumulator.
// CHECK-LABEL: func.func @sum_after_tanh
// CHECK: %[[T:.+]] = math.tanh %{{.+}} : tensor<4x512xf16>
// CHECK: linalg.reduce ins(%[[T]] : tensor<4x512xf16>) outs(%{{.+}} : tensor<4xf32>)
// CHECK-NEXT: (%[[IN:.+]]: f16, %[[ACC:.+]]: f32) {
// CHECK-NEXT: %[[X:.+]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[X]] : f32
// BF16-LABEL: func.func @sum_after_tanh
// BF16: linalg.reduce ins(%{{.+}} : tensor<4x512xbf16>) outs(%{{.+}} : tensor<4xf32>)
// LOW-LABEL: func.func @sum_after_tanh
// LOW: linalg.reduce { arith.addf } ins(%{{.+}} : tensor<4x512xf16>) outs(%{{.+}} : tensor<4xf16>)
// SIZE-LABEL: func.func @sum_after_tanh
// SIZE: linalg.reduce ins(%{{.+}} : tensor<4x512xf16>) outs(%{{.+}} : tensor<4xf32>)
func.func @sum_after_tanh(%x: tensor<4x8xf32>, %w: tensor<8x512xf32>, %c: tensor<4x512xf32>, %r: tensor<4xf32>) -> tensor<4xf32> {
  %h = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x512xf32>) outs(%c : tensor<4x512xf32>) -> tensor<4x512xf32>
  %t = math.tanh %h : tensor<4x512xf32>
  %0 = linalg.reduce { arith.addf } ins(%t : tensor<4x512xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
  return %0 : tensor<4xf32>
}

// -----

// A sum of f32 values stays f32 entirely: casting its input down would cost
// a cast and lose accuracy for nothing.
// CHECK-LABEL: func.func @sum_of_f32
// CHECK-NOT: f16
// CHECK: linalg.reduce { arith.addf } ins(%{{.+}} : tensor<4x512xf32>) outs(%{{.+}} : tensor<4xf32>)
func.func @sum_of_f32(%t: tensor<4x512xf32>, %r: tensor<4xf32>) -> tensor<4xf32> {
  %e = math.exp %t : tensor<4x512xf32>
  %0 = linalg.reduce { arith.addf } ins(%e : tensor<4x512xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
  return %0 : tensor<4xf32>
}

// -----

// A layer norm written as plain generics (TVM #9782): its mean is a sum over
// the low matmul output accumulated in f32, and the centring reads the
// matmul's f32 accumulator, so the statistics never run in f16.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @decomposed_layernorm
// CHECK: %[[H:.+]] = linalg.matmul {{.*}} -> tensor<4x256xf32>
// CHECK: %[[HL:.+]] = arith.truncf %[[H]] : tensor<4x256xf32> to tensor<4x256xf16>
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[HL]] : tensor<4x256xf16>) outs(%{{.+}} : tensor<4xf32>)
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: arith.addf %{{.+}}, %{{.+}} : f32
// CHECK: linalg.generic {{.*}} ins(%[[H]], %[[SUM]] : tensor<4x256xf32>, tensor<4xf32>) outs(%{{.+}} : tensor<4x256xf32>)
// CHECK: arith.divf %{{.+}}, %{{.+}} : f32
// CHECK: arith.subf %{{.+}}, %{{.+}} : f32
// Under accumulate=low the matmul accumulates low, but the statistics' sum
// of 256 values assumed to fit f16 may exceed it: it stays f32.
// LOW-LABEL: func.func @decomposed_layernorm
// LOW: linalg.matmul {{.*}} outs(%{{.+}} : tensor<4x256xf16>)
// LOW: linalg.generic {{.*}} ins(%{{.+}} : tensor<4x256xf32>) outs(%{{.+}} : tensor<4xf32>)
func.func @decomposed_layernorm(%x: tensor<4x256xf32>, %w: tensor<256x256xf32>, %c: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %h = linalg.matmul ins(%x, %w : tensor<4x256xf32>, tensor<256x256xf32>) outs(%c : tensor<4x256xf32>) -> tensor<4x256xf32>
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 256.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h : tensor<4x256xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x256xf32>
  %centered = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %sum : tensor<4x256xf32>, tensor<4xf32>) outs(%e2 : tensor<4x256xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %v, %m : f32
    linalg.yield %d : f32
  } -> tensor<4x256xf32>
  return %centered : tensor<4x256xf32>
}

// -----

// Average (sum) pooling reads low inputs into an f32 accumulator; max pooling
// is exact and runs low. The window operand only gives a shape (its values are
// never read), so it is not data and keeps its type.
// CHECK-LABEL: func.func @pools
// CHECK: linalg.pooling_nhwc_max {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x8x8x4xf16>, tensor<2x2xf32>) outs(%{{.+}} : tensor<1x4x4x4xf16>)
// CHECK: linalg.pooling_nhwc_sum {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x4x4x4xf16>, tensor<2x2xf32>) outs(%{{.+}} : tensor<1x2x2x4xf32>)
func.func @pools(%x: tensor<1x8x8x3xf32>, %f: tensor<1x1x3x4xf32>, %c: tensor<1x8x8x4xf32>, %k: tensor<2x2xf32>,
                 %o1: tensor<1x4x4x4xf32>, %o2: tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %f : tensor<1x8x8x3xf32>, tensor<1x1x3x4xf32>) outs(%c : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %1 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%0, %k : tensor<1x8x8x4xf32>, tensor<2x2xf32>) outs(%o1 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %2 = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%1, %k : tensor<1x4x4x4xf32>, tensor<2x2xf32>) outs(%o2 : tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  return %2 : tensor<1x2x2x4xf32>
}

// -----

// A short contraction under accumulate-min-size accumulates low.
// SIZE-LABEL: func.func @short_matmul
// SIZE: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xf16>, tensor<8x4xf16>) outs(%{{.+}} : tensor<4x4xf16>)
// CHECK-LABEL: func.func @short_matmul
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xf16>, tensor<8x4xf16>) outs(%{{.+}} : tensor<4x4xf32>)
func.func @short_matmul(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// A mean written as a sum and a division (a global average pool as ONNX
// importers emit it): the sum accumulates in f32 and is never rounded to
// the low type, since it may exceed its range (1280 values of ~100 sum to
// 1.3e5 > 65504) even where the mean does not; the division reads it in f32
// (under both placements), and only the mean is rounded for the matmul.
// CHECK-LABEL: func.func @decomposed_mean
// CHECK: %[[S:.+]] = linalg.reduce ins(%{{.+}} : tensor<4x1280x{{.+}}>) outs(%{{.+}} : tensor<4xf32>)
// CHECK: %[[M:.+]] = linalg.generic {{.*}} ins(%[[S]] : tensor<4xf32>) outs(%{{.+}} : tensor<4xf32>)
// CHECK: arith.divf %{{.+}}, %{{.+}} : f32
// CHECK: arith.truncf %[[M]] : tensor<4xf32> to tensor<4xf16>
// BF16-LABEL: func.func @decomposed_mean
// BF16: arith.divf %{{.+}}, %{{.+}} : f32
// OPT-LABEL: func.func @decomposed_mean
// OPT: arith.divf %{{.+}}, %{{.+}} : f32
func.func @decomposed_mean(%x: tensor<4x1280xf32>, %w: tensor<4x4xf32>) -> tensor<4xf32> {
  %w16 = arith.constant 0.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.reduce ins(%x : tensor<4x1280xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %n = arith.constant 1280.0 : f32
  %m = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%s : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %d = arith.divf %v, %n : f32
    linalg.yield %d : f32
  } -> tensor<4xf32>
  %y = linalg.matvec ins(%w, %m : tensor<4x4xf32>, tensor<4xf32>) outs(%init : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// `accumulate = f32` stated on a loop that sums is honoured under
// accumulate=low, as on a linalg reduction (one resolver decides both): the
// iter_arg stays f32 while an unannotated loop accumulates low.
// LOW-LABEL: func.func @loop_sum_stated_f32
// LOW: scf.for {{.+}} iter_args(%{{.+}} = %{{.+}}) -> (f32)
// LOW: arith.addf %{{.+}}, %{{.+}} : f32
// LOW-LABEL: func.func @loop_sum_unstated
// LOW: scf.for {{.+}} iter_args(%{{.+}} = %{{.+}}) -> (f16)
// LOW: arith.addf %{{.+}}, %{{.+}} : f16
func.func @loop_sum_stated_f32(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %s0 = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %s0) -> (f32) {
    %e = tensor.extract %m[%c0, %i] : tensor<4x16xf32>
    %n = arith.addf %acc, %e : f32
    scf.yield %n : f32
  } {amp.precision = #amp.precision<accumulate = f32>}
  return %s : f32
}

func.func @loop_sum_unstated(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %s0 = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %s0) -> (f32) {
    %e = tensor.extract %m[%c0, %i] : tensor<4x16xf32>
    %n = arith.addf %acc, %e : f32
    scf.yield %n : f32
  }
  return %s : f32
}

// amp-run widens the f16 and bf16 operands that a contraction reads many
// times once, before it (amp-lower-to-llvm{widen-reused-inputs}), instead
// of at every read in its kernel (--no-widen-reused-inputs). Widening is
// exact and the kernel multiplies and sums the same values in the same
// order, so the two give bit-identical results: for a matmul whose
// operands are scaled to +-20 and to +-2e-5 (f16 subnormals; bf16 keeps
// them normal), and for a padded depthwise convolution, whose input is
// widened before its padding. The bf16 programs run with --no-bf16-dot,
// which widens bf16 operands as f16 ones.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16})' -o %t/f16.mlir
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16})' -o %t/bf16.mlir
// RUN: amp-run %s --entry=large --seed=11 --save-inputs=%t/l --output=%t/l-f32.npy
// RUN: amp-run %s --entry=tiny --seed=11 --save-inputs=%t/t --output=%t/t-f32.npy
// RUN: amp-run %s --entry=depthwise --seed=12 --save-inputs=%t/d --output=%t/d-f32.npy
//
// RUN: amp-run %t/f16.mlir --entry=large --input-dir=%t/l --no-widen-reused-inputs --output=%t/l-f16-each.npy
// RUN: amp-run %t/f16.mlir --entry=tiny --input-dir=%t/t --no-widen-reused-inputs --output=%t/t-f16-each.npy
// RUN: amp-run %t/f16.mlir --entry=large --input-dir=%t/l --compare=%t/l-f16-each.npy --rtol=0 --atol=0 | FileCheck %s
// RUN: amp-run %t/f16.mlir --entry=tiny --input-dir=%t/t --compare=%t/t-f16-each.npy --rtol=0 --atol=0 | FileCheck %s
// RUN: amp-run %t/bf16.mlir --entry=large --input-dir=%t/l --no-bf16-dot --no-widen-reused-inputs --output=%t/l-bf16-each.npy
// RUN: amp-run %t/bf16.mlir --entry=tiny --input-dir=%t/t --no-bf16-dot --no-widen-reused-inputs --output=%t/t-bf16-each.npy
// RUN: amp-run %t/bf16.mlir --entry=large --input-dir=%t/l --no-bf16-dot --compare=%t/l-bf16-each.npy --rtol=0 --atol=0 | FileCheck %s
// RUN: amp-run %t/bf16.mlir --entry=tiny --input-dir=%t/t --no-bf16-dot --compare=%t/t-bf16-each.npy --rtol=0 --atol=0 | FileCheck %s
// RUN: amp-run %t/f16.mlir --entry=depthwise --input-dir=%t/d --no-widen-reused-inputs --output=%t/d-f16-each.npy
// RUN: amp-run %t/f16.mlir --entry=depthwise --input-dir=%t/d --compare=%t/d-f16-each.npy --rtol=0 --atol=0 | FileCheck %s
// RUN: amp-run %t/bf16.mlir --entry=depthwise --input-dir=%t/d --no-bf16-dot --no-widen-reused-inputs --output=%t/d-bf16-each.npy
// RUN: amp-run %t/bf16.mlir --entry=depthwise --input-dir=%t/d --no-bf16-dot --compare=%t/d-bf16-each.npy --rtol=0 --atol=0 | FileCheck %s
// CHECK: compare result 0 {{.*}} OK
//
// Against f32 the results carry the f16 or bf16 rounding of the inputs
// (2^-11 or 2^-8 of each factor): the large matmul result sums 32 products
// of at most 20 * 1 (|error| <= 32 * 20 * 2 * 2^-8 = 5 in bf16), the tiny
// one 32 products of at most 2e-5 * 1 (f16 subnormals are absolute steps
// of 6e-8: 32 * 6e-8 = 2e-6).
// RUN: amp-run %t/f16.mlir --entry=large --input-dir=%t/l --compare=%t/l-f32.npy --rtol=0 --atol=0.7 | FileCheck %s --check-prefix=F32
// RUN: amp-run %t/f16.mlir --entry=tiny --input-dir=%t/t --compare=%t/t-f32.npy --rtol=0 --atol=2e-6 | FileCheck %s --check-prefix=F32
// RUN: amp-run %t/bf16.mlir --entry=large --input-dir=%t/l --compare=%t/l-f32.npy --rtol=0 --atol=5 | FileCheck %s --check-prefix=F32
// RUN: amp-run %t/bf16.mlir --entry=tiny --input-dir=%t/t --compare=%t/t-f32.npy --rtol=0 --atol=5e-6 | FileCheck %s --check-prefix=F32
// F32: compare result 0 {{.*}} OK


// %a scaled by 20 times %w.
func.func @large(%a: tensor<40x32xf32>, %w: tensor<32x48xf32>) -> tensor<40x48xf32> {
  %e = tensor.empty() : tensor<40x32xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<40x32xf32>) outs(%e : tensor<40x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 20.0 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<40x32xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<40x48xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e2 : tensor<40x48xf32>) -> tensor<40x48xf32>
  %r = linalg.matmul ins(%scaled, %w : tensor<40x32xf32>, tensor<32x48xf32>) outs(%acc : tensor<40x48xf32>) -> tensor<40x48xf32>
  return %r : tensor<40x48xf32>
}

// %a scaled by 2e-5 times %w.
func.func @tiny(%a: tensor<40x32xf32>, %w: tensor<32x48xf32>) -> tensor<40x48xf32> {
  %e = tensor.empty() : tensor<40x32xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<40x32xf32>) outs(%e : tensor<40x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 2.0e-5 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<40x32xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<40x48xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e2 : tensor<40x48xf32>) -> tensor<40x48xf32>
  %r = linalg.matmul ins(%scaled, %w : tensor<40x32xf32>, tensor<32x48xf32>) outs(%acc : tensor<40x48xf32>) -> tensor<40x48xf32>
  return %r : tensor<40x48xf32>
}

func.func @depthwise(%x: tensor<2x12x12x16xf32>, %f: tensor<3x3x16xf32>) -> tensor<2x12x12x16xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x12x12x16xf32> to tensor<2x14x14x16xf32>
  %e = tensor.empty() : tensor<2x12x12x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x12x12x16xf32>) -> tensor<2x12x12x16xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded, %f : tensor<2x14x14x16xf32>, tensor<3x3x16xf32>) outs(%acc : tensor<2x12x12x16xf32>) -> tensor<2x12x12x16xf32>
  return %r : tensor<2x12x12x16xf32>
}

// The CPU computes a chain of bf16 ops in f32 and rounds its result to bf16
// once (amp-excess-precision): on the same bf16 inputs, that is exactly the
// chain computed in f32 and rounded at the end (@f32_rounded_once), at
// every magnitude (x scaled by 20, b by 1e-4). With --no-excess-precision
// each op rounds its result, as the program says: some elements differ from
// that, by up to 2% (the square doubles the relative error, up to 2^-8 each,
// of the two roundings before it; measured 1.4%).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %s --entry=f32_rounded_once --seed=5 --save-inputs=%t/in --output=%t/once.npy
// RUN: amp-run %s --entry=bf16_chain --input-dir=%t/in --compare=%t/once.npy --rtol=0 --atol=0 | FileCheck %s
// RUN: amp-run %s --entry=bf16_chain --input-dir=%t/in --no-excess-precision --compare=%t/once.npy --rtol=0.02 --atol=1e-30 | FileCheck %s
// RUN: not amp-run %s --entry=bf16_chain --input-dir=%t/in --no-excess-precision --compare=%t/once.npy --rtol=0 --atol=0 | FileCheck %s --check-prefix=STRICT
// CHECK: compare result 0 {{.*}} OK
// STRICT: compare result 0 {{.*}} FAIL
//
// A value leaves a chain as bf16: a bf16 result widened by the program's
// extf is the rounded value in both modes.
// RUN: amp-run %s --entry=bf16_cast_between --input-dir=%t/in --output=%t/cast.npy
// RUN: amp-run %s --entry=bf16_cast_between --input-dir=%t/in --no-excess-precision --compare=%t/cast.npy --rtol=0 --atol=0 | FileCheck %s

// y = (x * 20) * s + b * 1e-4, then y * y: four bf16 roundings per element
// when each op rounds, one here.
func.func @bf16_chain(%x: tensor<1024xf32>, %s: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<1024xf32> {
  %x16 = call @inputs_x(%x) : (tensor<1024xf32>) -> tensor<1024xbf16>
  %s16 = arith.truncf %s : tensor<1024xf32> to tensor<1024xbf16>
  %b16 = call @inputs_b(%b) : (tensor<1024xf32>) -> tensor<1024xbf16>
  %p = arith.mulf %x16, %s16 : tensor<1024xbf16>
  %y = arith.addf %p, %b16 : tensor<1024xbf16>
  %z = arith.mulf %y, %y : tensor<1024xbf16>
  %r = arith.extf %z : tensor<1024xbf16> to tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// The same chain in f32 on the same bf16 values, rounded once at the end.
func.func @f32_rounded_once(%x: tensor<1024xf32>, %s: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<1024xf32> {
  %x16 = call @inputs_x(%x) : (tensor<1024xf32>) -> tensor<1024xbf16>
  %s16 = arith.truncf %s : tensor<1024xf32> to tensor<1024xbf16>
  %b16 = call @inputs_b(%b) : (tensor<1024xf32>) -> tensor<1024xbf16>
  %xw = arith.extf %x16 : tensor<1024xbf16> to tensor<1024xf32>
  %sw = arith.extf %s16 : tensor<1024xbf16> to tensor<1024xf32>
  %bw = arith.extf %b16 : tensor<1024xbf16> to tensor<1024xf32>
  %p = arith.mulf %xw, %sw : tensor<1024xf32>
  %y = arith.addf %p, %bw : tensor<1024xf32>
  %z = arith.mulf %y, %y : tensor<1024xf32>
  %z16 = arith.truncf %z : tensor<1024xf32> to tensor<1024xbf16>
  %r = arith.extf %z16 : tensor<1024xbf16> to tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// The bf16 product widened by the program's extf and summed in f32: the
// product is rounded to bf16 in both modes.
func.func @bf16_cast_between(%x: tensor<1024xf32>, %s: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<1024xf32> {
  %x16 = call @inputs_x(%x) : (tensor<1024xf32>) -> tensor<1024xbf16>
  %s16 = arith.truncf %s : tensor<1024xf32> to tensor<1024xbf16>
  %p = arith.mulf %x16, %s16 : tensor<1024xbf16>
  %pw = arith.extf %p : tensor<1024xbf16> to tensor<1024xf32>
  %y = arith.addf %pw, %b : tensor<1024xf32>
  return %y : tensor<1024xf32>
}

func.func private @inputs_x(%x: tensor<1024xf32>) -> tensor<1024xbf16> {
  %c20 = arith.constant dense<20.0> : tensor<1024xf32>
  %x20 = arith.mulf %x, %c20 : tensor<1024xf32>
  %x16 = arith.truncf %x20 : tensor<1024xf32> to tensor<1024xbf16>
  return %x16 : tensor<1024xbf16>
}

func.func private @inputs_b(%b: tensor<1024xf32>) -> tensor<1024xbf16> {
  %tiny = arith.constant dense<1.0e-4> : tensor<1024xf32>
  %bt = arith.mulf %b, %tiny : tensor<1024xf32>
  %b16 = arith.truncf %bt : tensor<1024xf32> to tensor<1024xbf16>
  return %b16 : tensor<1024xbf16>
}

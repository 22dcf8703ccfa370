// amp-run exchanges f16, bf16 (as 16-bit words), f32, f64, i32, i64 and
// index values with .npy files, as tensors and as scalars, on the CPU: the
// f16 and bf16 arithmetic runs in the JIT, and what is written back has the
// dtype and the values the function computed.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy_files.py write %t
// DEFINE: %{in} = --input=%t/arg0.npy,%t/arg1.npy,%t/arg2.npy,%t/arg3.npy,%t/arg4.npy,%t/arg5.npy,%t/arg6.npy,%t/arg7.npy,%t/arg8.npy
// DEFINE: %{out} = --output=%t/out0.npy,%t/out1.npy,%t/out2.npy,%t/out3.npy,%t/out4.npy,%t/out5.npy,%t/out6.npy,%t/out7.npy,%t/out8.npy
// RUN: amp-run %s --entry=twice %{in} %{out}
// RUN: %python %S/Inputs/npy_files.py check %t | FileCheck %s
// CHECK: out0 <f2 (2, 3) 1 -2.5 6 0 -14 200
// CHECK: out1 <u2 (2, 3) 1 -2.5 6 0 -14 200
// CHECK: out2 <f4 (2, 3) 1 -2.5 6 0 -14 200
// CHECK: out3 <f8 (2, 3) 1 -2.5 6 0 -14 200
// CHECK: out4 <i4 (2, 3) 0 -2 6 0 -14 200
// CHECK: out5 <i8 (2, 3) 0 -2 6 0 -14 200
// CHECK: out6 <f2 () 3
// CHECK: out7 <u2 () -5
// CHECK: out8 <i8 () 42
//
// Without --output, a summary of each result goes to stdout.
// RUN: amp-run %s --entry=twice %{in} | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: result 0: 2x3xf16 [1, -2.5, 6, 0, -14, 200] sum=190.5 abs_sum=223.5
// SUMMARY: result 1: 2x3xbf16 [1, -2.5, 6, 0, -14, 200] sum=190.5
// SUMMARY: result 4: 2x3xi32 [0, -2, 6, 0, -14, 200] sum=190
// SUMMARY: result 6: f16 [3]
// SUMMARY: result 7: bf16 [-5]
// SUMMARY: result 8: i64 [42]
//
// bf16 words read from '<i2' as from '<u2':
// RUN: amp-run %s --entry=twice --input=%t/arg0.npy,%t/arg1_i2.npy,%t/arg2.npy,%t/arg3.npy,%t/arg4.npy,%t/arg5.npy,%t/arg6.npy,%t/arg7.npy,%t/arg8.npy | FileCheck %s --check-prefix=SUMMARY
//
// Seeded inputs saved with --save-inputs read back to the same results.
// RUN: amp-run %s --entry=twice --seed=5 --save-inputs=%t/seeded > %t/seeded.txt
// RUN: amp-run %s --entry=twice --input=%t/seeded/arg0.npy,%t/seeded/arg1.npy,%t/seeded/arg2.npy,%t/seeded/arg3.npy,%t/seeded/arg4.npy,%t/seeded/arg5.npy,%t/seeded/arg6.npy,%t/seeded/arg7.npy,%t/seeded/arg8.npy > %t/reread.txt
// RUN: diff %t/seeded.txt %t/reread.txt
// RUN: FileCheck %s --check-prefix=SEEDED < %t/seeded.txt
// Floats in [-1, 1) doubled, integers in [0, 16) doubled:
// SEEDED: result 0: 2x3xf16 [{{-?[01]\.[0-9]+}},
// SEEDED: result 4: 2x3xi32 [{{[0-9]*[02468]}},
//
// Dynamic sizes come from the file, and the result's from its descriptor.
// RUN: amp-run %s --entry=dynamic --input=%t/dynamic.npy | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: result 0: 4x3xf32 [0, 2, 4, 6, 8, 10, 12, 14, ...] sum=132

func.func @twice(%h: tensor<2x3xf16>, %b: tensor<2x3xbf16>, %f: tensor<2x3xf32>,
                 %d: tensor<2x3xf64>, %i: tensor<2x3xi32>, %l: tensor<2x3xi64>,
                 %sh: f16, %sb: bf16, %n: index)
    -> (tensor<2x3xf16>, tensor<2x3xbf16>, tensor<2x3xf32>, tensor<2x3xf64>,
        tensor<2x3xi32>, tensor<2x3xi64>, f16, bf16, index) {
  %h2 = arith.addf %h, %h : tensor<2x3xf16>
  %b2 = arith.addf %b, %b : tensor<2x3xbf16>
  %f2 = arith.addf %f, %f : tensor<2x3xf32>
  %d2 = arith.addf %d, %d : tensor<2x3xf64>
  %i2 = arith.addi %i, %i : tensor<2x3xi32>
  %l2 = arith.addi %l, %l : tensor<2x3xi64>
  %sh2 = arith.addf %sh, %sh : f16
  %sb2 = arith.addf %sb, %sb : bf16
  %one = arith.constant 1 : index
  %n1 = arith.addi %n, %one : index
  return %h2, %b2, %f2, %d2, %i2, %l2, %sh2, %sb2, %n1
      : tensor<2x3xf16>, tensor<2x3xbf16>, tensor<2x3xf32>, tensor<2x3xf64>,
        tensor<2x3xi32>, tensor<2x3xi64>, f16, bf16, index
}

func.func @dynamic(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %y = arith.addf %x, %x : tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}

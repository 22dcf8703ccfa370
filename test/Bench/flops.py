# RUN: env AMP_OPT=%amp_opt %python %s %S/../../bench/accuracy | FileCheck %s
#
# bench/accuracy/flops.py, which gives the accuracy benchmark its FLOP
# counts and low-precision fractions: FLOPs from static shapes per op (a
# multiply-add is 2), the ops of a function body matched in order with
# amp's JSON report, and the fraction of FLOPs in the ops the report
# decides `low`. Here a matmul, a convolution, a depthwise convolution, a
# max pool, an elementwise add, a reduce_sum (amp keeps it f32) and an exp
# (f32 too) on small shapes.
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, sys.argv[1])
import flops

PROGRAM = """
func.func @main(%a: tensor<1x4x8xf32>, %b: tensor<1x8x3xf32>, %x: tensor<1x6x6x2xf32>) -> (tensor<1x4x3xf32>, tensor<1x2x2x4xf32>, tensor<1x1x6x2xf32>, tensor<1x6x6x2xf32>) {
  %z = arith.constant dense<0.0> : tensor<1xf32>
  %m = tosa.matmul %a, %b, %z, %z : (tensor<1x4x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32>
  %w = arith.constant dense<0.5> : tensor<4x3x3x2xf32>
  %bias = arith.constant dense<0.0> : tensor<4xf32>
  %c = tosa.conv2d %x, %w, %bias, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x2xf32>, tensor<4x3x3x2xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x4xf32>
  %p = tosa.max_pool2d %c {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x4xf32>) -> tensor<1x2x2x4xf32>
  %dw = arith.constant dense<0.25> : tensor<3x3x2x1xf32>
  %db = arith.constant dense<0.0> : tensor<2xf32>
  %d = tosa.depthwise_conv2d %x, %dw, %db, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x6x6x2xf32>, tensor<3x3x2x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x2xf32>
  %s = tosa.add %d, %x : (tensor<1x6x6x2xf32>, tensor<1x6x6x2xf32>) -> tensor<1x6x6x2xf32>
  %r = tosa.reduce_sum %s {axis = 1 : i32} : (tensor<1x6x6x2xf32>) -> tensor<1x1x6x2xf32>
  %e = tosa.exp %s : (tensor<1x6x6x2xf32>) -> tensor<1x6x6x2xf32>
  return %m, %p, %r, %e : tensor<1x4x3xf32>, tensor<1x2x2x4xf32>, tensor<1x1x6x2xf32>, tensor<1x6x6x2xf32>
}
"""

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "p.mlir")
    with open(path, "w") as f:
        f.write(PROGRAM)
    amp_opt = os.environ["AMP_OPT"]
    ops = flops.function_ops(flops.generic_form(amp_opt, path))
    for op in ops:
        if flops.flops(op):
            print(op.name, flops.flops(op))
    report = json.loads(subprocess.run(
        [amp_opt, path, "--mixed-precision=precision=f16 report=-", "-o", os.devnull],
        check=True, capture_output=True, text=True).stdout)
    low, total = flops.low_flops_from_report(ops, report)
    print("total", total, "low", low)
    print("weight bytes", flops.float_constant_bytes(ops))

# matmul 2*1*4*3*8; conv 2 * 64 outputs * 3*3*2; max pool 16 outputs * 2*2;
# depthwise 2 * 72 outputs * 3*3; add 72; reduce_sum reads 72; exp 72.
# CHECK: tosa.matmul 192
# CHECK: tosa.conv2d 2304
# CHECK: tosa.max_pool2d 64
# CHECK: tosa.depthwise_conv2d 1296
# CHECK: tosa.add 72
# CHECK: tosa.reduce_sum 72
# CHECK: tosa.exp 72
# The reduce_sum and the exp stay f32: 144 of the 4072 FLOPs.
# CHECK: total 4072 low 3928
# Float constants: the zero point (1), conv weights (72) and bias (4),
# depthwise weights (18) and bias (2): 97 f32 values.
# CHECK: weight bytes 388

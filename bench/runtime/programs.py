# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The programs the run-time benchmarks time (bench/runtime, bench/gpu).

Each is an f32 function on tensors, written in the linalg dialect:
bandwidth-bound ones (a few flops per element moved) and a compute-bound
one (a matmul, 2 n^3 flops for 3 n^2 elements).
"""


def chain(rows, cols):
    """add, mul, relu, tanh, sub: 2 reads and 1 write per element."""
    t = "tensor<%dx%dxf32>" % (rows, cols)
    return f"""func.func @chain(%a: {t}, %b: {t}) -> {t} {{
  %e = tensor.empty() : {t}
  %zero = arith.constant dense<0.0> : {t}
  %0 = linalg.add ins(%a, %b : {t}, {t}) outs(%e : {t}) -> {t}
  %1 = linalg.mul ins(%0, %a : {t}, {t}) outs(%e : {t}) -> {t}
  %2 = linalg.max ins(%1, %zero : {t}, {t}) outs(%e : {t}) -> {t}
  %3 = math.tanh %2 : {t}
  %4 = arith.subf %3, %b : {t}
  return %4 : {t}
}}
"""


def axpy_relu(rows, cols):
    """relu(a * b + a): 2 reads and 1 write per element and no
    transcendental, so its time is the bytes it moves."""
    t = "tensor<%dx%dxf32>" % (rows, cols)
    return f"""func.func @axpy_relu(%a: {t}, %b: {t}) -> {t} {{
  %e = tensor.empty() : {t}
  %zero = arith.constant dense<0.0> : {t}
  %0 = linalg.mul ins(%a, %b : {t}, {t}) outs(%e : {t}) -> {t}
  %1 = linalg.add ins(%0, %a : {t}, {t}) outs(%e : {t}) -> {t}
  %2 = linalg.max ins(%1, %zero : {t}, {t}) outs(%e : {t}) -> {t}
  return %2 : {t}
}}
"""


def softmax(rows, cols):
    """linalg.softmax along rows: max, exp, sum, divide."""
    t = "tensor<%dx%dxf32>" % (rows, cols)
    return f"""func.func @softmax(%x: {t}) -> {t} {{
  %e = tensor.empty() : {t}
  %s = linalg.softmax dimension(1) ins(%x : {t}) outs(%e : {t}) -> {t}
  return %s : {t}
}}
"""


def matmul(n):
    """n x n x n matmul with an f32 accumulator."""
    t = "tensor<%dx%dxf32>" % (n, n)
    return f"""func.func @matmul(%a: {t}, %b: {t}) -> {t} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {t}
  %acc = linalg.fill ins(%zero : f32) outs(%e : {t}) -> {t}
  %c = linalg.matmul ins(%a, %b : {t}, {t}) outs(%acc : {t}) -> {t}
  return %c : {t}
}}
"""


def default_programs():
    """(name, entry, kind, mlir) of the benchmark: bandwidth-bound programs
    (16M and 4M elements) and a 512^3 matmul."""
    return [
        ("axpy-relu 4096x4096", "axpy_relu", "bandwidth", axpy_relu(4096, 4096)),
        ("chain 2048x2048", "chain", "bandwidth", chain(2048, 2048)),
        ("softmax 2048x2048", "softmax", "bandwidth", softmax(2048, 2048)),
        ("matmul 512^3", "matmul", "compute", matmul(512)),
    ]

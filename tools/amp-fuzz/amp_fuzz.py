#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""amp-fuzz: amp's differential fuzzer.

Generates seeded f32 programs (linalg named and generic ops, arith/math,
tensor, scf.if, and the constructs of --constructs: TOSA v1.0 ops, scf.for
loops carrying a tensor, cf branches with tensor block arguments, private
helper functions and calls, dynamic shapes, memrefs), inputs of one
magnitude class each (+-1, +-100, +-1e4,
tiny values around 1e-6, exact zeros), converts every program with
`mixed-precision` in f16 and bf16 under each placement, and checks:

- verifier: the converted program parses and verifies;
- idempotence: converting the output again prints the same text;
- numerics: amp-run on the CPU of the converted program against the f32
  program on the same inputs, within a bound derived from the program's op
  mix (first-order error propagation with the unit roundoff of the low type
  over interval bounds of every value, plus the subnormal spacing of f16);
- finiteness: no inf or NaN where f32 is finite.

amp is told each program's input magnitudes (`input-range=`), so an
overflow in the low type is a wrong decision, not bad luck.

    amp_fuzz.py [--seed S] [--count N] [--precisions f16,bf16]
                [--placements optimal,greedy,naive] [--failures DIR]
                [--reduce] [--keep DIR] [--constructs tosa,for,cf,...|none]

Prints one line per failure and a summary
`N programs, M conversions: crash=C verifier=V idempotence=I numeric=U nonfinite=F`;
exits 1 when anything failed. With --failures, each failing program is
written there (with the inputs and the command that fails); with --reduce,
also reduced by mlir-reduce to the smallest program that still fails.
"""

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, "build", "bin")
LLVM_BIN = "/usr/lib/llvm-22/bin"

# Unit roundoff and smallest subnormal of each low type.
UNIT = {"f16": 2.0 ** -11, "bf16": 2.0 ** -8}
SUBNORMAL = {"f16": 2.0 ** -24, "bf16": 0.0}
MAGNITUDES = {"one": 1.0, "hundred": 100.0, "ten-thousand": 1e4, "tiny": 1e-6,
              "zeros": 0.0}
F32_SAFE = 1e30  # the generator keeps every f32 value below this
# amp assumes that values it knows nothing of (results of ops it has no
# model for, such as bufferization.to_tensor) fit f16, and so does arithmetic
# on them (docs/Ranges.md): the generator keeps such values well inside f16.
ASSUMED_LIMIT = 32768.0

UNARY_OPS = ["negf", "absf", "tanh", "exp", "relu", "sqrt_abs", "logistic", "square"]
# A dense constant cannot have a dynamic shape: on tensor<?xNxf32> values
# only the unary ops without one.
UNARY_DYN_OPS = ["negf", "absf", "tanh", "exp", "sqrt_abs", "square"]
BINARY_OPS = ["addf", "subf", "mulf", "maximumf", "minimumf"]
TOSA_OPS = ["add", "sub", "mul", "maximum", "minimum", "exp", "tanh", "sigmoid",
            "reciprocal", "abs", "negate", "reduce_sum", "matmul", "clamp"]
# Elementwise ops of other dialects and the arith op whose error model they share.
TOSA_BINARY = {"add": "addf", "sub": "subf", "mul": "mulf", "maximum": "maximumf",
               "minimum": "minimumf"}
TOSA_UNARY = {"exp": "exp", "tanh": "tanh", "sigmoid": "logistic", "abs": "absf",
              "negate": "negf"}
LINALG_BINARY = {"add": "addf", "sub": "subf", "mul": "mulf", "max": "maximumf",
                 "min": "minimumf"}
# Clamp bounds exact in f16 and bf16, lo <= 0 <= hi (so |clamp(x)| <= |x|).
CLAMPS = [(-1.0, 1.0), (0.0, 6.0), (-100.0, 100.0), (0.0, 1000.0)]

BASE_KINDS = ["unary", "unary", "binary", "binary", "matmul", "row_sum", "softmax",
              "select"]
CONSTRUCTS = {"tosa": ["tosa", "tosa", "tosa"], "for": ["for"], "cf": ["branch"],
              "call": ["call"], "dynamic": ["dynamic"], "memref": ["memref"]}
# What a private helper's body may contain: no branches on inputs (its
# parameters are not inputs), no nested calls, no memref round trips.
HELPER_KINDS = ["unary", "unary", "binary", "binary", "matmul", "row_sum", "softmax",
                "tosa", "tosa", "for", "dynamic"]


def dims(shape, dyn=False):
    return "x".join("?" if dyn and i == 0 else str(d) for i, d in enumerate(shape))


class Value:
    """An SSA tensor value: its name, shape, magnitude bound and error bound
    (absolute, first order, in units of the low type's unit roundoff u, plus
    a term in the subnormal spacing s: err <= eu * u + es * s). `dyn`: its
    type has a dynamic first dimension (the shape is what it holds).
    `assumed`: computed from a value whose range amp does not know (a
    memref read as a tensor), so amp assumes it fits f16."""

    def __init__(self, name, shape, bound, eu, es, dyn=False, assumed=False):
        self.name, self.shape, self.bound, self.eu, self.es = name, shape, bound, eu, es
        self.dyn, self.assumed = dyn, assumed

    def like(self, name, bound, eu, es, other=None):
        """A value of this one's type (computed from this one and other)."""
        return Value(name, self.shape, bound, eu, es, self.dyn,
                     self.assumed or (other is not None and other.assumed))

    def fits(self):
        """Within what amp may assume of it (see ASSUMED_LIMIT)."""
        return not self.assumed or self.bound <= ASSUMED_LIMIT

    def within(self, other):
        """Every bound of this value is at most other's: a model derived for
        other holds for this (every model here is monotone in its inputs)."""
        return (self.bound <= other.bound and self.eu <= other.eu
                and self.es <= other.es)

    @property
    def size(self):
        return math.prod(self.shape)

    @property
    def type(self):
        return "tensor<%sxf32>" % dims(self.shape, self.dyn)

    @property
    def static_type(self):
        return "tensor<%sxf32>" % dims(self.shape)

    @property
    def memref_type(self):
        return "memref<%sxf32>" % dims(self.shape)


def unary_model(op, name, x):
    """The error model of a unary op (arith/math or the TOSA op of the same
    function); None when its bound would leave f32's safe range."""
    if op in ("negf", "absf"):
        return x.like(name, x.bound, x.eu + x.bound, x.es + 1)
    if op == "tanh":
        return x.like(name, min(1.0, x.bound), x.eu + 1, x.es + 1)
    if op == "exp":
        if x.bound > 60:
            return None
        b = math.exp(x.bound)
        return x.like(name, b, b * x.eu + b, b * x.es + 1)
    if op == "relu":
        return x.like(name, x.bound, x.eu, x.es)
    if op == "sqrt_abs":
        # sqrt is not Lipschitz at 0: |sqrt(a) - sqrt(b)| <= sqrt(|a - b|),
        # and sqrt(e u) = sqrt(e) u^-1/2 u: in units of u, the input's error
        # counts sqrt(e) 2^5.5 times in f16 (u = 2^-11; 2^4 in bf16), and in
        # units of f16's subnormal spacing s = 2^-24, sqrt(e) 2^12 times.
        b = math.sqrt(x.bound)
        return x.like(name, b, b + math.sqrt(x.eu) * 2 ** 5.5 + 1,
                      math.sqrt(x.es) * 2 ** 12 + 1)
    if op == "logistic":
        if x.bound > 60:
            return None
        # The derivative is at most 1/4; a few roundings of values <= 1
        # (the exponential's relative error is divided by 1 + e).
        return x.like(name, 1.0, x.eu / 4 + 4, x.es + 4)
    if op == "square":
        b = x.bound * x.bound
        if b > F32_SAFE:
            return None
        return x.like(name, b, 2 * x.bound * x.eu + b, 2 * x.bound * x.es + 1)
    raise ValueError(op)


def binary_model(op, name, x, y):
    if op in ("addf", "subf"):
        b = x.bound + y.bound
        return x.like(name, b, x.eu + y.eu + b, x.es + y.es + 1, y)
    if op == "mulf":
        b = x.bound * y.bound
        if b > F32_SAFE:
            return None
        return x.like(name, b, x.bound * y.eu + y.bound * x.eu + b,
                      x.bound * y.es + y.bound * x.es + 1, y)
    return x.like(name, max(x.bound, y.bound), max(x.eu, y.eu), max(x.es, y.es), y)


def join(name, x, y):
    """A value that is x or y (the same choice in f32 and the low type)."""
    return x.like(name, max(x.bound, y.bound), max(x.eu, y.eu), max(x.es, y.es), y)


def product_model(name, shape, x, y, c):
    """sum_k x[i, k] y[j, k] over c terms."""
    b = c * x.bound * y.bound
    if b > F32_SAFE:
        return None
    # Long sums accumulate in f32 (amp's policy), short ones may not: the
    # sum's rounding is bounded by c u b either way.
    return Value(name, shape, b, c * (x.bound * y.eu + y.bound * x.eu) + c * b + b,
                 c * (x.bound * y.es + y.bound * x.es) + c, assumed=x.assumed or y.assumed)


def sum_model(name, shape, x, c):
    """A sum of c elements of x."""
    b = c * x.bound
    return Value(name, shape, b, c * x.eu + c * b + b, c * x.es + c, assumed=x.assumed)


class Program:
    def __init__(self, rng, magnitude, constructs=(), large=False):
        self.rng = rng
        self.lines = []
        self.counter = 0
        self.constructs = set(constructs)
        if large:
            # Ops of 16384 iterations and more: split across threads.
            rows, cols = rng.choice([64, 256, 450]), rng.choice([64, 128, 257])
        else:
            rows, cols = rng.choice([1, 3, 8, 16, 17]), rng.choice([1, 4, 16, 31])
        self.shape = [rows, cols]
        self.params = []   # main's (name, type)
        self.args = []     # the inputs as tensors of main's body
        self.helpers = []  # text of the private functions
        self.callees = []  # (symbol, parameter Values, result Value)
        self.blocks = 0
        self.depth = 0     # > 0 while generating a helper's body
        for i in range(rng.choice([1, 2, 3])):
            form = "tensor"
            if "dynamic" in self.constructs and rng.random() < 0.2:
                form = "dynamic"
            elif "memref" in self.constructs and rng.random() < 0.15:
                form = "memref"
            # Inputs are rounded to the low type by the conversion: one u.
            v = Value("%%arg%d" % i, self.shape, magnitude, magnitude, 1.0,
                      dyn=form == "dynamic")
            if form == "memref":
                # amp-run passes identity-layout memrefs; the body reads it
                # as a tensor that nothing writes, so input-range holds for
                # it as for tensor arguments.
                self.params.append((v.name, v.memref_type))
                t = self.fresh()
                self.emit("%s = bufferization.to_tensor %s restrict : %s to %s"
                          % (t, v.name, v.memref_type, v.type))
                v = v.like(t, v.bound, v.eu, v.es)
            else:
                self.params.append((v.name, v.type))
            self.args.append(v)
        self.magnitude = magnitude

    def fresh(self):
        self.counter += 1
        return "%%v%d" % self.counter

    def emit(self, text):
        self.lines.append("    " + text)

    def label(self, text):
        self.lines.append("  " + text)

    def empty(self, shape):
        name = self.fresh()
        self.emit("%s = tensor.empty() : tensor<%sxf32>" % (name, "x".join(map(str, shape))))
        return name

    def const(self, value, type_):
        name = self.fresh()
        self.emit("%s = arith.constant %s : %s" % (name, value, type_))
        return name

    def tosa_const(self, value, type_):
        name = self.fresh()
        self.emit('%s = "tosa.const"() <{values = dense<%s> : %s}> : () -> %s'
                  % (name, value, type_, type_))
        return name

    # Each op returns a Value or None when its bounds would leave f32's safe
    # range (then its text is dropped and another op is tried).
    def unary(self, x, op=None):
        if op is None:
            op = self.rng.choice(UNARY_DYN_OPS if x.dyn else UNARY_OPS)
        v = unary_model(op, self.fresh(), x)
        if v is None:
            return None
        name, t = v.name, x.type
        if op == "negf":
            self.emit("%s = arith.negf %s : %s" % (name, x.name, t))
        elif op in ("absf", "tanh", "exp"):
            self.emit("%s = math.%s %s : %s" % (name, op, x.name, t))
        elif op == "relu":
            zero = self.const("dense<0.0>", t)
            self.emit("%s = arith.maximumf %s, %s : %s" % (name, x.name, zero, t))
        elif op == "sqrt_abs":
            a = self.fresh()
            self.emit("%s = math.absf %s : %s" % (a, x.name, t))
            self.emit("%s = math.sqrt %s : %s" % (name, a, t))
        elif op == "logistic":
            n, e, d = self.fresh(), self.fresh(), self.fresh()
            self.emit("%s = arith.negf %s : %s" % (n, x.name, t))
            self.emit("%s = math.exp %s : %s" % (e, n, t))
            one = self.const("dense<1.0>", t)
            self.emit("%s = arith.addf %s, %s : %s" % (d, one, e, t))
            self.emit("%s = arith.divf %s, %s : %s" % (name, one, d, t))
        elif op == "square":
            self.emit("%s = arith.mulf %s, %s : %s" % (name, x.name, x.name, t))
        return v

    def binary(self, x, y, op=None):
        op = op or self.rng.choice(BINARY_OPS)
        v = binary_model(op, self.fresh(), x, y)
        if v is not None:
            self.emit("%s = arith.%s %s, %s : %s" % (v.name, op, x.name, y.name, x.type))
        return v

    def matmul(self, x, y):
        # x (r, c) by y^T (c, r): a square-free product with K = c.
        r, c = x.shape
        v = product_model(self.fresh(), [r, r], x, y, c)
        if v is None:
            return None
        t = self.fresh()
        e = self.empty([c, r])
        self.emit("%s = linalg.transpose ins(%s : %s) outs(%s : tensor<%dx%dxf32>) permutation = [1, 0]"
                  % (t, y.name, y.type, e, c, r))
        out = self.empty([r, r])
        z = self.const("0.0", "f32")
        acc = self.fresh()
        self.emit("%s = linalg.fill ins(%s : f32) outs(%s : tensor<%dx%dxf32>) -> tensor<%dx%dxf32>"
                  % (acc, z, out, r, r, r, r))
        self.emit("%s = linalg.matmul ins(%s, %s : %s, tensor<%dx%dxf32>) outs(%s : tensor<%dx%dxf32>) -> tensor<%dx%dxf32>"
                  % (v.name, x.name, t, x.type, c, r, acc, r, r, r, r))
        return v

    def row_sum(self, x):
        r, c = x.shape
        out = self.empty([r])
        z = self.const("0.0", "f32")
        acc, s = self.fresh(), self.fresh()
        self.emit("%s = linalg.fill ins(%s : f32) outs(%s : tensor<%dxf32>) -> tensor<%dxf32>"
                  % (acc, z, out, r, r))
        self.emit("%s = linalg.reduce ins(%s : %s) outs(%s : tensor<%dxf32>) dimensions = [1]" % (s, x.name, x.type, acc, r))
        self.emit("  (%in: f32, %init: f32) { %a = arith.addf %in, %init : f32\n      linalg.yield %a : f32 }")
        e = self.empty([r, c])
        name = self.fresh()
        self.emit("%s = linalg.broadcast ins(%s : tensor<%dxf32>) outs(%s : %s) dimensions = [1]"
                  % (name, s, r, e, x.type))
        return sum_model(name, x.shape, x, c)

    def softmax(self, x):
        e = self.empty(x.shape)
        name = self.fresh()
        self.emit("%s = linalg.softmax dimension(1) ins(%s : %s) outs(%s : %s) -> %s"
                  % (name, x.name, x.type, e, x.type, x.type))
        # Bounded in [0, 1]; the error of its input enters through the
        # exponentials relative to their sum: at most 2 err_x.
        return x.like(name, 1.0, 2 * x.eu + 8, 2 * x.es + 8)

    def condition(self):
        """An i1 that is the same in f32 and the low type: the sign of an
        input element that is the class's extreme or an exact zero (see
        the inputs in main; rounding never crosses zero)."""
        inputs = [a for a in self.args if a.size > 1]
        if not inputs:
            return None
        a = self.rng.choice(inputs)
        flat = self.rng.choice([0, 1]) if a.size > 2 else 0
        i, j = divmod(flat, a.shape[1])
        ci, cj = self.const(i, "index"), self.const(j, "index")
        elem, cond = self.fresh(), self.fresh()
        self.emit("%s = tensor.extract %s[%s, %s] : %s" % (elem, a.name, ci, cj, a.type))
        zf = self.const("0.0", "f32")
        self.emit("%s = arith.cmpf ogt, %s, %s : f32" % (cond, elem, zf))
        return cond

    def select(self, x, y):
        # scf.if on an element of an input: both branches are values of
        # this program.
        cond = self.condition()
        if cond is None:
            return None
        name = self.fresh()
        self.emit("%s = scf.if %s -> (%s) {\n      scf.yield %s : %s\n    } else {\n      scf.yield %s : %s\n    }"
                  % (name, cond, x.type, x.name, x.type, y.name, x.type))
        return join(name, x, y)

    def tosa(self, x, y):
        """One TOSA v1.0 op (or a short chain of them) on static tensors."""
        op = self.rng.choice(TOSA_OPS)
        t = x.type
        if op in TOSA_BINARY:
            v = binary_model(TOSA_BINARY[op], self.fresh(), x, y)
            if v is None:
                return None
            if op == "mul":
                shift = self.tosa_const("0", "tensor<1xi8>")
                self.emit("%s = tosa.mul %s, %s, %s : (%s, %s, tensor<1xi8>) -> %s"
                          % (v.name, x.name, y.name, shift, t, t, t))
            else:
                self.emit("%s = tosa.%s %s, %s : (%s, %s) -> %s"
                          % (v.name, op, x.name, y.name, t, t, t))
            return v
        if op in TOSA_UNARY:
            v = unary_model(TOSA_UNARY[op], self.fresh(), x)
            if v is None:
                return None
            if op == "negate":
                zp = self.tosa_const("0.0", "tensor<1xf32>")
                self.emit("%s = tosa.negate %s, %s, %s : (%s, tensor<1xf32>, tensor<1xf32>) -> %s"
                          % (v.name, x.name, zp, zp, t, t))
            else:
                self.emit("%s = tosa.%s %s : (%s) -> %s" % (v.name, op, x.name, t, t))
            return v
        if op == "reciprocal":
            # 1 / (|x| + 1): the divisor is at least 1 in either type, so
            # |1/d - 1/d'| <= |d - d'|, plus one rounding of a value <= 1.
            a, d, name = self.fresh(), self.fresh(), self.fresh()
            self.emit("%s = tosa.abs %s : (%s) -> %s" % (a, x.name, t, t))
            one = self.tosa_const("1.0", t)
            self.emit("%s = tosa.add %s, %s : (%s, %s) -> %s" % (d, a, one, t, t, t))
            self.emit("%s = tosa.reciprocal %s : (%s) -> %s" % (name, d, t, t))
            b = x.bound + 1
            return x.like(name, 1.0, x.eu + b + 1, x.es + 2)
        if op == "clamp":
            lo, hi = self.rng.choice(CLAMPS)
            name = self.fresh()
            self.emit("%s = tosa.clamp %s {min_val = %r : f32, max_val = %r : f32} : (%s) -> %s"
                      % (name, x.name, lo, hi, t, t))
            # 1-Lipschitz, and the bounds are exact in the low type.
            return x.like(name, min(x.bound, max(-lo, hi)), x.eu, x.es)
        r, c = x.shape
        if op == "reduce_sum":
            s = sum_model(self.fresh(), [r, 1], x, c)
            st = s.type
            self.emit("%s = tosa.reduce_sum %s {axis = 1 : i32} : (%s) -> %s"
                      % (s.name, x.name, t, st))
            if self.rng.random() < 0.5:
                return s
            # x + its row sums, broadcast along the rows.
            v = binary_model("addf", self.fresh(), x, s)
            self.emit("%s = tosa.add %s, %s : (%s, %s) -> %s" % (v.name, x.name, s.name, t, st, t))
            return v
        assert op == "matmul"
        v = product_model(self.fresh(), [r, r], x, y, c)
        if v is None:
            return None
        s3 = self.fresh()
        self.emit("%s = tosa.const_shape {values = dense<[1, %d, %d]> : tensor<3xindex>} : () -> !tosa.shape<3>"
                  % (s3, r, c))
        a, b, bt = self.fresh(), self.fresh(), self.fresh()
        t3 = "tensor<1x%dx%dxf32>" % (r, c)
        self.emit("%s = tosa.reshape %s, %s : (%s, !tosa.shape<3>) -> %s" % (a, x.name, s3, t, t3))
        self.emit("%s = tosa.reshape %s, %s : (%s, !tosa.shape<3>) -> %s" % (b, y.name, s3, t, t3))
        self.emit("%s = tosa.transpose %s {perms = array<i32: 0, 2, 1>} : (%s) -> tensor<1x%dx%dxf32>"
                  % (bt, b, t3, c, r))
        zp = self.tosa_const("0.0", "tensor<1xf32>")
        m = self.fresh()
        self.emit("%s = tosa.matmul %s, %s, %s, %s : (%s, tensor<1x%dx%dxf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x%dx%dxf32>"
                  % (m, a, bt, zp, zp, t3, c, r, r, r))
        s2 = self.fresh()
        self.emit("%s = tosa.const_shape {values = dense<[%d, %d]> : tensor<2xindex>} : () -> !tosa.shape<2>"
                  % (s2, r, r))
        self.emit("%s = tosa.reshape %s, %s : (tensor<1x%dx%dxf32>, !tosa.shape<2>) -> %s"
                  % (v.name, m, s2, r, r, v.type))
        return v

    def loop(self, x, y):
        """scf.for of k iterations of acc = binary(unary(acc), y) from x: the
        model is applied k times (the error compounds per iteration)."""
        k = self.rng.choice([2, 3, 4])
        op1 = self.rng.choice(UNARY_DYN_OPS if x.dyn else UNARY_OPS)
        op2 = self.rng.choice(BINARY_OPS)
        saved = self.lines
        self.lines = []  # the model's text is dropped
        v = x
        for _ in range(k):
            u = self.unary(v, op1)
            v = u and u.fits() and self.binary(u, y, op2)
            if not v or not v.fits():
                v = None
                break
        self.lines = saved
        if v is None:
            return None
        c0, c1, ck = self.const(0, "index"), self.const(1, "index"), self.const(k, "index")
        i, acc, name = self.fresh(), self.fresh(), self.fresh()
        self.lines = []
        u = self.unary(x.like(acc, x.bound, x.eu, x.es), op1)
        w = self.binary(u, y, op2)
        body, self.lines = self.lines, saved
        self.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (%s) {"
                  % (name, i, c0, ck, c1, acc, x.name, x.type))
        self.lines += ["  " + line for line in body]
        self.emit("  scf.yield %s : %s" % (w.name, x.type))
        self.emit("}")
        return v.like(name, v.bound, v.eu, v.es)

    def branch(self, x, y):
        """cf.cond_br on an input element to two blocks that take x and y as
        block arguments, apply a unary op each and branch to a join block."""
        cond = self.condition()
        if cond is None:
            return None
        b1, b2, bj = self.blocks + 1, self.blocks + 2, self.blocks + 3
        self.blocks += 3
        t = x.type
        self.emit("cf.cond_br %s, ^bb%d(%s : %s), ^bb%d(%s : %s)" % (cond, b1, x.name, t, b2, y.name, t))
        arms = []
        for block, v in ((b1, x), (b2, y)):
            p = v.like(self.fresh(), v.bound, v.eu, v.es)
            self.label("^bb%d(%s: %s):" % (block, p.name, t))
            op = self.rng.choice((UNARY_DYN_OPS if x.dyn else UNARY_OPS) + ["none"])
            a = p if op == "none" else self.unary(p, op)
            if a is None:
                return None
            self.emit("cf.br ^bb%d(%s : %s)" % (bj, a.name, t))
            arms.append(a)
        name = self.fresh()
        self.label("^bb%d(%s: %s):" % (bj, name, t))
        return join(name, arms[0], arms[1])

    def call(self, x, y, pool):
        """func.call of a private helper: a new one of parameters x (and y),
        or an existing one whose parameters' bounds cover values of the pool
        (its result's model then holds for them too)."""
        if self.callees and self.rng.random() < 0.5:
            sym, params, result = self.rng.choice(self.callees)
            args = []
            for p in params:
                fits = [v for v in pool if v.type == p.type and v.within(p)
                        and (p.assumed or not v.assumed)]
                if not fits:
                    return None
                args.append(self.rng.choice(fits))
        else:
            args = [x] if x is y or self.rng.random() < 0.5 else [x, y]
            sym = "@helper%d" % len(self.callees)
            params = [v.like("%%p%d" % i, v.bound, v.eu, v.es) for i, v in enumerate(args)]
            saved, self.lines = self.lines, []
            self.depth += 1
            body = self.grow(list(params), self.rng.randint(1, 3), HELPER_KINDS)
            self.depth -= 1
            lines, self.lines = self.lines, saved
            if len(body) == len(params):
                return None
            result = body[-1]
            self.helpers.append("func.func private %s(%s) -> %s {\n%s\n    return %s : %s\n}\n"
                                % (sym, ", ".join("%s: %s" % (p.name, p.type) for p in params),
                                   result.type, "\n".join(lines), result.name, result.type))
            self.callees.append((sym, params, result))
        name = self.fresh()
        self.emit("%s = func.call %s(%s) : (%s) -> %s"
                  % (name, sym, ", ".join(a.name for a in args),
                     ", ".join(p.type for p in params), result.type))
        return Value(name, result.shape, result.bound, result.eu, result.es, result.dyn,
                     result.assumed)

    def dynamic(self, x):
        """tensor.cast to a dynamic first dimension, or back to static: exact."""
        name = self.fresh()
        to = Value(name, x.shape, x.bound, x.eu, x.es, not x.dyn, x.assumed)
        self.emit("%s = tensor.cast %s : %s to %s" % (name, x.name, x.type, to.type))
        return to

    def memref(self, x, y):
        """An elementwise linalg op on memrefs: the operands' buffers, a
        memref.alloc for the result, read back as a tensor."""
        op = self.rng.choice(sorted(LINALG_BINARY))
        v = binary_model(LINALG_BINARY[op], self.fresh(), x, y)
        if v is None:
            return None
        v.assumed = True  # amp has no model of bufferization.to_tensor
        mt = x.memref_type
        mx, my = self.fresh(), self.fresh()
        self.emit("%s = bufferization.to_buffer %s read_only : %s to %s" % (mx, x.name, x.type, mt))
        self.emit("%s = bufferization.to_buffer %s read_only : %s to %s" % (my, y.name, y.type, mt))
        out = self.fresh()
        self.emit("%s = memref.alloc() : %s" % (out, mt))
        self.emit("linalg.%s ins(%s, %s : %s, %s) outs(%s : %s)" % (op, mx, my, mt, mt, out, mt))
        self.emit("%s = bufferization.to_tensor %s restrict : %s to %s" % (v.name, out, mt, x.type))
        return v

    def apply(self, kind, x, y, pool):
        if x.dyn and kind not in ("unary", "binary", "for", "branch", "dynamic"):
            return None
        if kind == "unary":
            return self.unary(x)
        if kind == "binary":
            return self.binary(x, y)
        if kind == "matmul" and len(x.shape) == 2:
            return self.matmul(x, y)
        if kind == "row_sum":
            return self.row_sum(x)
        if kind == "softmax":
            return self.softmax(x)
        if kind == "select" and self.depth == 0:
            return self.select(x, y)
        if kind == "tosa":
            return self.tosa(x, y)
        if kind == "for":
            return self.loop(x, y)
        if kind == "branch" and self.depth == 0:
            return self.branch(x, y)
        if kind == "call" and self.depth == 0:
            return self.call(x, y, pool)
        if kind == "dynamic":
            return self.dynamic(x)
        if kind == "memref":
            return self.memref(x, y)
        return None

    def grow(self, pool, length, kinds):
        steps = 0
        tries = 0
        while steps < length and tries < length * 10:
            tries += 1
            kind = self.rng.choice(kinds)
            x = self.rng.choice(pool)
            y = self.rng.choice([v for v in pool if v.type == x.type])
            mark = len(self.lines)
            v = self.apply(kind, x, y, pool)
            if v is None or not v.fits():
                del self.lines[mark:]
                continue
            pool.append(v)
            steps += 1
        return pool

    def generate(self, length):
        kinds = list(BASE_KINDS)
        for c in sorted(self.constructs):
            kinds += CONSTRUCTS[c]
        pool = self.grow(list(self.args), length, kinds)
        results = [v for v in pool[len(self.args):]][-2:] or [self.args[0]]
        return results

    def text(self, results):
        params = ", ".join("%s: %s" % p for p in self.params)
        rtypes = ", ".join(r.type for r in results)
        body = "\n".join(self.lines)
        return "".join(self.helpers) + (
            "func.func @main(%s) -> (%s) {\n%s\n    return %s : %s\n}\n"
            % (params, rtypes, body, ", ".join(r.name for r in results), rtypes))


class Converter:
    """Converts programs in a worker process through amp's Python API (the
    C API, in-process: no process start per call), which answers JSON lines.
    A worker that dies (a crash in amp) is replaced; the caller confirms
    every failure with amp-opt."""

    def __init__(self, python_dir):
        self.python_dir = python_dir
        self.proc = None

    def _start(self):
        env = dict(os.environ)
        env["PYTHONPATH"] = self.python_dir + os.pathsep + env.get("PYTHONPATH", "")
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__),
                                      "--convert-worker"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, env=env)

    def call(self, request):
        """The worker's answer to `request`, or None when it died."""
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            self.proc.kill()
            self.proc.wait()
            self.proc = None
            return None
        return json.loads(line)

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait()


def convert_worker():
    """--convert-worker: reads {"text", "options"} JSON lines (options:
    amp.convert's keywords; none: print the program as parsed) and answers
    {"once", "again"} (the conversion and the conversion of its text) or
    {"error", "stage"}."""
    import amp
    context = amp.Context(multithreading=False)
    for line in sys.stdin:
        request = json.loads(line)
        options = request.get("options")
        answer = {}
        try:
            if options is None:
                with context.parse(request["text"]) as module:
                    answer["once"] = module.print()
            else:
                answer["stage"] = "convert"
                once = amp.convert(request["text"], context=context, **options).ir
                answer["once"] = once
                answer["stage"] = "again"
                answer["again"] = amp.convert(once, context=context, **options).ir
                del answer["stage"]
        except amp.AmpError as e:
            answer["error"] = str(e)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


TIMEOUT = 300  # seconds a single amp-opt or amp-run call may take (--timeout)


def run(cmd, **kw):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, **kw)
    except (OSError, subprocess.TimeoutExpired) as e:
        return subprocess.CompletedProcess(cmd, -1, "", "%s: %s" % (cmd[0], e))


def tolerance(value, low):
    return value.eu * UNIT[low] + value.es * SUBNORMAL[low]


def check_conversion(converter, amp_opt, amp_run, src, stem, tag, options, opts, ins,
                     nresults, ran):
    """Converts `src` with `options` (amp.convert's keywords; `opts` as
    amp-opt's) into STEM.TAG.mlir and checks that the text parses, verifies
    and converts to itself. Returns a failure (count, kind, detail); None
    when the converted text is one of `ran` (its results are known); else
    amp-run's results of it."""
    out = "%s.%s.mlir" % (stem, tag)
    answer = None
    if converter is not None:
        answer = converter.call({"text": open(src).read(), "options": options})
    if answer is not None and "error" not in answer:
        text = answer["once"]
        with open(out, "w") as f:
            f.write(text)
        if answer["again"] != text:
            return ("idempotence", "idempotence", "converting the output again changes it")
    else:
        failure = check_with_amp_opt(amp_opt, src, out, opts)
        if failure:
            return failure
        if converter is not None:
            # amp-opt converts what the Python API could not.
            if answer is None:
                return ("crash", "crash", "amp.convert crashed; amp-opt did not")
            return ("verifier", "verifier", "amp.convert failed (%s) where amp-opt did not: %s"
                    % (answer.get("stage"), answer["error"]))
        text = open(out).read()
    if text in ran:
        return None
    outputs = ["%s.%s.%d.npy" % (stem, tag, k) for k in range(nresults)]
    # Low-precision arguments get the inputs rounded to their type.
    got = run([amp_run, out, "--entry=main", "--input=" + ins, "--threads=1",
               "--cast-inputs", "--output=" + ",".join(outputs)])
    if got.returncode != 0:
        return ("crash", "amp-run of the converted program failed", got.stderr[-2000:])
    return [load_result(o) for o in outputs]


def check_with_amp_opt(amp_opt, src, out, opts):
    """The conversion by amp-opt processes: a failure (count, kind, detail),
    or None with the converted text in `out`."""
    conv = run([amp_opt, src, "--mixed-precision=" + opts, "-o", out])
    if conv.returncode != 0 or "Stack dump" in conv.stderr:
        kind = "crash" if conv.returncode < 0 or "Stack dump" in conv.stderr else "verifier"
        return (kind, kind, conv.stderr[-2000:])
    # Converting the output again parses and verifies it too; only when that
    # fails is the output checked on its own, to tell the two apart.
    again = run([amp_opt, out, "--mixed-precision=" + opts])
    if again.returncode != 0:
        verify = run([amp_opt, out, "-o", os.devnull])
        if verify.returncode != 0:
            return ("verifier", "verifier", verify.stderr[-2000:])
        return ("idempotence", "idempotence", again.stderr[-2000:])
    if again.stdout != open(out).read():
        return ("idempotence", "idempotence", "converting the output again changes it")
    return None


def load_result(path):
    """A result .npy as float64; amp-run writes bf16 as its bits ('<u2',
    numpy has no bf16)."""
    a = np.load(path)
    if a.dtype == np.uint16:
        a = (a.astype(np.uint32) << 16).view(np.float32)
    return a.astype(np.float64)


def compare(expected, actual, value, low, low_result):
    """A failure (kind, detail, bound) when `actual` misses `expected`, the f32
    result, by more than the bound of `value`'s model; a low-precision
    result adds one rounding of its bound."""
    finite = np.isfinite(expected)
    tol = tolerance(value, low) + 1e-30
    if low_result:
        tol += value.bound * UNIT[low] + SUBNORMAL[low]
    if np.any(finite & ~np.isfinite(actual)):
        return ("nonfinite", "inf/NaN where f32 is finite", tol)
    err = np.max(np.abs(actual - expected)[finite], initial=0.0)
    if err > tol:
        return ("numeric", "max abs error %.3g > bound %.3g" % (err, tol), tol)
    return None


def report_failure(failure, folder, reduce, amp_opt, amp_run):
    """Prints one FAIL line; with `folder`, keeps the program, its inputs and
    what failed there (and reduces it with `reduce`)."""
    src, what, opts, kind, detail = failure[:5]
    numeric = failure[5] if len(failure) > 5 else None
    print("FAIL %s [%s] %s: %s" % (os.path.basename(src), what, kind,
                                   detail.strip().splitlines()[-1] if detail.strip() else ""),
          flush=True)
    if not folder:
        return
    os.makedirs(folder, exist_ok=True)
    base = os.path.join(folder, os.path.basename(src))
    shutil.copy(src, base)
    inputs = src[:-len(".mlir")] + ".in"
    if os.path.isdir(inputs):
        shutil.copytree(inputs, base[:-len(".mlir")] + ".in", dirs_exist_ok=True)
    with open(base + ".txt", "a") as f:
        f.write("%s: %s\noptions: %s\n%s\n" % (what, kind, opts, detail))
    # One reduction per program: the first conversion that failed.
    if not reduce or os.path.exists(base[:-len(".mlir")] + ".reduced.mlir"):
        return
    if kind in ("crash", "verifier", "idempotence"):
        reduce_failure(base, opts, kind, amp_opt)
    elif numeric:
        reduce_numeric_failure(base, opts, numeric, amp_opt, amp_run)


def summary(programs, conversions, counts):
    return ("%d programs, %d conversions (%d changed the program, %d ran): crash=%d "
            "verifier=%d idempotence=%d numeric=%d nonfinite=%d threads=%d"
            % (programs, conversions, counts["changed"], counts["run"], counts["crash"],
               counts["verifier"], counts["idempotence"], counts["numeric"],
               counts["nonfinite"], counts["threads"]))


def main():
    global TIMEOUT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--start", type=int, default=0,
                    help="index of the first program (program pS*1000003+I is "
                    "index I of seed S)")
    ap.add_argument("--length", type=int, default=6)
    ap.add_argument("--precisions", default="f16,bf16")
    ap.add_argument("--placements", default="optimal,greedy,naive")
    ap.add_argument("--targets", default="none,cpu",
                    help="targets each program is converted for, one drawn per "
                    "program: none (no target: f16 computes in f16) and the "
                    "mixed-precision targets, e.g. cpu (this host: f16 storage-only "
                    "without AVX512-FP16) or vulkan")
    ap.add_argument("--signatures", default="f32,low",
                    help="signatures of @main after conversion: f32 (keep-io-types, "
                    "the default of the pass) and low (keep-io-types=false)")
    ap.add_argument("--failures", help="write failing programs to this folder")
    ap.add_argument("--reduce", action="store_true",
                    help="reduce failing programs with mlir-reduce")
    ap.add_argument("--keep", help="keep every program and result here")
    ap.add_argument("--constructs", default=",".join(sorted(CONSTRUCTS)),
                    help="constructs generated besides linalg, arith/math, tensor and "
                    "scf.if (comma-separated; default: all of %s; 'none' for none)"
                    % ",".join(sorted(CONSTRUCTS)))
    ap.add_argument("--told-range", type=float, metavar="M",
                    help="tell amp that every input is in [-M, M] whatever its "
                    "class (input-range=-M:M), to see the checks fail when amp is "
                    "misinformed")
    ap.add_argument("--threads", type=int, default=0, metavar="N",
                    help="also run each f32 program on N threads and require the "
                    "one-thread results bit for bit (amp splits no reduction)")
    ap.add_argument("--large", action="store_true",
                    help="programs on 64 to 450 rows of 64 to 257 columns, large "
                    "enough to be split across threads")
    ap.add_argument("--timeout", type=int, default=TIMEOUT,
                    help="seconds one amp-opt or amp-run call may take before it "
                    "counts as a crash (default: %(default)s)")
    ap.add_argument("--progress", type=int, default=0, metavar="N",
                    help="print the summary so far after every N programs")
    ap.add_argument("--converter", choices=["api", "cli"], default="api",
                    help="convert through amp's Python API in a worker process "
                    "(default), or with amp-opt processes (cli; slower)")
    ap.add_argument("--python", default=os.path.join(ROOT, "python"),
                    help="folder of amp's Python package (default: python/)")
    ap.add_argument("--bin", default=BIN,
                    help="folder of amp-opt and amp-run (default: build/bin)")
    args = ap.parse_args()
    TIMEOUT = args.timeout
    amp_opt = os.path.abspath(os.path.join(args.bin, "amp-opt"))
    amp_run = os.path.abspath(os.path.join(args.bin, "amp-run"))
    precisions = args.precisions.split(",")
    placements = args.placements.split(",")
    signatures = args.signatures.split(",")
    targets = args.targets.split(",")
    for t in targets:
        if t not in ("none", "cpu", "vulkan", "vulkan-storage16") and not re.fullmatch(
                r"sm_[0-9]+", t):
            ap.error("unknown target '%s' (known: none, cpu, vulkan, vulkan-storage16, "
                     "sm_N)" % t)
    for sig in signatures:
        if sig not in ("f32", "low"):
            ap.error("unknown signature '%s' (known: f32, low)" % sig)
    if not 0 <= args.threads <= 1024:
        ap.error("--threads must be in [0, 1024], got %d" % args.threads)
    constructs = [c for c in args.constructs.split(",") if c and c != "none"]
    for c in constructs:
        if c not in CONSTRUCTS:
            ap.error("unknown construct '%s' (known: %s)" % (c, ",".join(sorted(CONSTRUCTS))))
    counts = {"crash": 0, "verifier": 0, "idempotence": 0, "numeric": 0, "nonfinite": 0,
              "threads": 0, "run": 0, "changed": 0, "targets": {}}
    conversions = 0
    converter = Converter(args.python) if args.converter == "api" else None  # cli: amp-opt processes
    failures = []

    def fail(failure):
        failures.append(failure)
        report_failure(failure, args.failures, args.reduce, amp_opt, amp_run)
    with tempfile.TemporaryDirectory(prefix="amp-fuzz-") as scratch:
        work = args.keep or scratch
        os.makedirs(work, exist_ok=True)
        for index in range(args.start, args.start + args.count):
            done = index - args.start
            if args.progress and done and done % args.progress == 0:
                print("progress: " + summary(done, conversions, counts), flush=True)
            seed = args.seed * 1000003 + index
            rng = random.Random(seed)
            magnitude_class = rng.choice(list(MAGNITUDES))
            magnitude = MAGNITUDES[magnitude_class]
            program = Program(rng, magnitude, constructs, args.large)
            results = program.generate(rng.randint(1, args.length))
            stem = os.path.join(work, "p%d" % seed)
            src = stem + ".mlir"
            with open(src, "w") as f:
                f.write(program.text(results))
            # Inputs of the class: uniform in [-m, m] with a few exact zeros
            # and extremes.
            nprng = np.random.default_rng(seed)
            inputs = stem + ".in"
            os.makedirs(inputs, exist_ok=True)
            for i, a in enumerate(program.args):
                x = nprng.uniform(-1, 1, a.shape).astype(np.float32) * np.float32(magnitude)
                x.flat[0] = np.float32(magnitude) if x.size > 1 else x.flat[0]
                if x.size > 2:
                    x.flat[1] = 0.0
                np.save(os.path.join(inputs, "arg%d.npy" % i), x)
            ins = ",".join(os.path.join(inputs, "arg%d.npy" % i) for i in range(len(program.args)))
            ref = run([amp_run, src, "--entry=main", "--input=" + ins, "--threads=1",
                       "--output=" + ",".join("%s.f32.%d.npy" % (stem, k) for k in range(len(results)))])
            if ref.returncode != 0:
                counts["crash"] += 1
                fail((src, "f32", "-", "amp-run of the f32 program failed", ref.stderr))
                continue
            expected = [np.load("%s.f32.%d.npy" % (stem, k)).astype(np.float64)
                        for k in range(len(results))]
            if args.threads:
                threaded = run([amp_run, src, "--entry=main", "--input=" + ins,
                                "--threads=%d" % args.threads, "--output=" + ",".join(
                                    "%s.f32.t%d.npy" % (stem, k) for k in range(len(results)))])
                # Bit for bit: -0 against +0 and NaN payloads count.
                same = threaded.returncode == 0 and all(
                    open("%s.f32.%d.npy" % (stem, k), "rb").read()
                    == open("%s.f32.t%d.npy" % (stem, k), "rb").read()
                    for k in range(len(results)))
                if not same:
                    counts["threads"] += 1
                    fail((src, "f32", "--threads=%d" % args.threads, "threads",
                          threaded.stderr + "\nthe f32 program's results on %d threads "
                          "differ from one thread's" % args.threads))
            bound = max(magnitude, 1e-30)
            if args.told_range is not None:
                bound = args.told_range
            # The f32 program as amp-opt prints it: a conversion that prints
            # this changed nothing.
            printed = converter.call({"text": open(src).read()}) if converter else None
            source_text = (printed or {}).get("once") or run([amp_opt, src]).stdout
            # Results of converted texts already run: a conversion that
            # prints the same text computes the same results.
            ran = {source_text: expected}
            # The target, drawn apart from the program (a seed's programs do
            # not depend on --targets).
            target = random.Random(seed ^ 0x5eed).choice(targets)
            counts["targets"][target] = counts["targets"].get(target, 0) + 1
            for low in precisions:
                for signature in signatures:
                    for placement in placements:
                        conversions += 1
                        opts = "precision=%s placement=%s input-range=%g:%g" % (
                            low, placement, -bound, bound)
                        if signature == "low":
                            opts += " keep-io-types=false"
                        if target != "none":
                            opts += " target=" + target
                        tag = "%s.%s.%s" % (low, signature, placement)
                        what = "%s %s signature %s%s" % (
                            low, signature, placement,
                            "" if target == "none" else " target=" + target)
                        options = {"precision": low, "placement": placement,
                                   "input_range": [-bound, bound],
                                   "keep_io_types": signature == "f32",
                                   "target": None if target == "none" else target}
                        outcome = check_conversion(converter, amp_opt, amp_run, src, stem,
                                                   tag, options, opts, ins, len(results), ran)
                        if isinstance(outcome, tuple):
                            counts[outcome[0]] += 1
                            fail((src, what, opts) + outcome[1:])
                            continue
                        converted = open(stem + "." + tag + ".mlir").read()
                        if converted != source_text:
                            counts["changed"] += 1
                        if outcome is not None:
                            counts["run"] += 1
                            ran[converted] = outcome
                        else:
                            outcome = ran[converted]
                        for k, value in enumerate(results):
                            failure = compare(expected[k], outcome[k], value, low,
                                              signature == "low")
                            if failure:
                                counts[failure[0]] += 1
                                fail((src, what, opts, failure[0],
                                      "result %d: %s" % (k, failure[1]),
                                      {"atol": failure[2], "results": len(results)}))
                                break
    if converter is not None:
        converter.close()
    total = sum(v for k, v in counts.items() if k not in ("run", "changed", "targets"))
    print("programs per target: " + " ".join(
        "%s=%d" % kv for kv in sorted(counts["targets"].items())))
    print(summary(args.count, conversions, counts))
    return 1 if total else 0


def reduce_failure(path, opts, kind, amp_opt):
    """mlir-reduce `path` to the smallest program on which amp-opt still
    fails the same way. mlir-reduce calls a test interesting when it exits
    with 1; the candidate must itself be a valid program."""
    script = path + ".interesting.sh"
    convert = "%s \"$1\" --mixed-precision='%s'" % (amp_opt, opts)
    with open(script, "w") as f:
        f.write("#!/bin/sh\n%s \"$1\" -o /dev/null 2>/dev/null || exit 0\n" % amp_opt)
        if kind == "idempotence":
            f.write("%s -o \"$1.once\" 2>/dev/null || exit 0\n" % convert)
            f.write("%s \"$1.once\" --mixed-precision='%s' 2>/dev/null | cmp -s - \"$1.once\" || exit 1\n"
                    % (amp_opt, opts))
        elif kind == "crash":
            f.write("%s -o /dev/null 2>&1 | grep -q 'Stack dump' && exit 1\n" % convert)
        else:
            f.write("%s -o /dev/null 2>/dev/null || exit 1\n" % convert)
        f.write("exit 0\n")
    os.chmod(script, 0o755)
    reduce_program(path, script)


def reduce_numeric_failure(path, opts, numeric, amp_opt, amp_run):
    """mlir-reduce `path` to the smallest program whose conversion with
    `opts` still misses the f32 program's results by more than the bound
    the first failure had (an inf or NaN included), on the same inputs."""
    stem = path[:-len(".mlir")]
    inputs = ",".join(os.path.join(stem + ".in", "arg%d.npy" % i)
                      for i in range(len(os.listdir(stem + ".in"))))
    refs = ",".join('"$1.ref%d.npy"' % k for k in range(numeric["results"]))
    script = path + ".interesting.sh"
    with open(script, "w") as f:
        f.write("#!/bin/sh\n")
        f.write("%s \"$1\" -o /dev/null 2>/dev/null || exit 0\n" % amp_opt)
        f.write("%s \"$1\" --entry=main --threads=1 --input=%s --output=%s "
                ">/dev/null 2>&1 || exit 0\n" % (amp_run, inputs, refs))
        f.write("%s \"$1\" --mixed-precision='%s' -o \"$1.low\" 2>/dev/null || exit 0\n"
                % (amp_opt, opts))
        f.write("%s \"$1.low\" --entry=main --threads=1 --cast-inputs --input=%s "
                "--compare=%s --rtol=0 --atol=%r 2>&1 | grep -q 'out of tolerance' "
                "&& exit 1\n" % (amp_run, inputs, refs, numeric["atol"]))
        f.write("exit 0\n")
    os.chmod(script, 0o755)
    reduce_program(path, script)


# An op's first line: its one result, and whether a region follows.
OP_LINE = re.compile(r"^\s*(%[\w$.-]+) = (\S+)(.*?)(\{)?\s*$")
VALUE = re.compile(r"%[\w$.-]+")


def interesting(script, text, scratch):
    """Whether `script` (mlir-reduce's convention: exit 1) finds the failure
    in `text`."""
    with open(scratch, "w") as f:
        f.write(text)
    return run(["sh", script, scratch]).returncode == 1


def forward_operands(text, script, scratch):
    """Shrinks `text` while `script` still finds the failure: an op (with
    its regions) is deleted and its result replaced by one of its operands,
    from the last op up, until no such step keeps the failure. The step
    mlir-reduce cannot take on these programs: without reduction patterns
    for arith, math, linalg or tensor it only erases ops nothing uses."""
    lines = text.split("\n")
    progress = True
    while progress:
        progress = False
        for i in reversed(range(len(lines))):
            if i >= len(lines):
                continue
            m = OP_LINE.match(lines[i])
            if not m or "#" in m.group(1):
                continue
            result, end = m.group(1), i
            if m.group(4):
                # The op's regions end where its braces balance.
                depth = 0
                for end in range(i, len(lines)):
                    depth += lines[end].count("{") - lines[end].count("}")
                    if depth <= 0:
                        break
            for operand in dict.fromkeys(VALUE.findall(m.group(3))):
                if operand == result:
                    continue
                use = re.compile(re.escape(result) + r"(?![\w$.-])")
                candidate = lines[:i] + [use.sub(operand, line)
                                         for line in lines[end + 1:]]
                if interesting(script, "\n".join(candidate), scratch):
                    lines = candidate
                    progress = True
                    break
    return "\n".join(lines)


def reduce_program(path, script):
    """STEM.reduced.mlir: `path` reduced by mlir-reduce, then by
    forward_operands, both with the interestingness `script`."""
    reduced = path[:-len(".mlir")] + ".reduced.mlir"
    run([os.path.join(LLVM_BIN, "mlir-reduce"), path,
         "--reduction-tree=traversal-mode=0 test=" + script, "-o", reduced])
    if not os.path.exists(reduced):
        shutil.copy(path, reduced)
    scratch = reduced + ".candidate.mlir"
    text = forward_operands(open(reduced).read(), script, scratch)
    with open(reduced, "w") as f:
        f.write(text)
    for leftover in [scratch] + [scratch + suffix for suffix in (".low", ".once")] + \
            [os.path.join(os.path.dirname(scratch), name)
             for name in os.listdir(os.path.dirname(scratch) or ".")
             if name.startswith(os.path.basename(scratch) + ".ref")]:
        if os.path.exists(leftover):
            os.remove(leftover)


if __name__ == "__main__":
    if sys.argv[1:] == ["--convert-worker"]:
        sys.exit(convert_worker())
    sys.exit(main())

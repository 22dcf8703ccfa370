#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes an MLIR module of N transformer-like blocks in linalg on tensors.

Each block is what amp meets in real models: a layer norm written as plain
linalg.generic ops (mean and variance as add-reductions, rsqrt), a QKV
projection, attention scores, a softmax, the weighted sum, an output
projection with a residual add, and an MLP with tanh. Blocks are chained in
one function so the analysis sees one long program.

With `--style named` each block is made of named linalg ops instead, as
importers of PyTorch/ONNX models emit them: matmul, add, max (relu),
softmax, a sum as linalg.reduce, linalg.broadcast of it, and mul.

  gen_model.py BLOCKS [--style generic|named] [--seq S] [--hidden H] > model.mlir
"""
import argparse
import sys


def block(b, x, s, h, out):
    """Emits block `b` reading SSA value `x`; returns the result's name."""
    t = f"tensor<{s}x{h}xf32>"
    row = f"tensor<{s}xf32>"
    sq = f"tensor<{s}x{s}xf32>"
    w = f"tensor<{h}x{h}xf32>"
    p = f"%b{b}_"
    e = out.append
    # Layer norm: mean, centre, variance, rsqrt, scale.
    e(f"  {p}sum = linalg.generic {{indexing_maps = [#id, #row], iterator_types = [\"parallel\", \"reduction\"]}} ins({x} : {t}) outs(%zrow : {row}) {{")
    e(f"  ^bb0(%in: f32, %acc: f32):\n    %s = arith.addf %acc, %in : f32\n    linalg.yield %s : f32\n  }} -> {row}")
    e(f"  {p}cen = linalg.generic {{indexing_maps = [#id, #row, #id], iterator_types = [\"parallel\", \"parallel\"]}} ins({x}, {p}sum : {t}, {row}) outs(%e2 : {t}) {{")
    e(f"  ^bb0(%v: f32, %m: f32, %o: f32):\n    %mean = arith.divf %m, %n : f32\n    %d = arith.subf %v, %mean : f32\n    linalg.yield %d : f32\n  }} -> {t}")
    e(f"  {p}var = linalg.generic {{indexing_maps = [#id, #row], iterator_types = [\"parallel\", \"reduction\"]}} ins({p}cen : {t}) outs(%zrow : {row}) {{")
    e(f"  ^bb0(%in: f32, %acc: f32):\n    %q = arith.mulf %in, %in : f32\n    %s = arith.addf %acc, %q : f32\n    linalg.yield %s : f32\n  }} -> {row}")
    e(f"  {p}ln = linalg.generic {{indexing_maps = [#id, #row, #id], iterator_types = [\"parallel\", \"parallel\"]}} ins({p}cen, {p}var : {t}, {row}) outs(%e2 : {t}) {{")
    e(f"  ^bb0(%v: f32, %var: f32, %o: f32):\n    %mv = arith.divf %var, %n : f32\n    %ve = arith.addf %mv, %eps : f32\n    %r = math.rsqrt %ve : f32\n    %y = arith.mulf %v, %r : f32\n    linalg.yield %y : f32\n  }} -> {t}")
    # Attention.
    for name in ("q", "k", "v"):
        e(f"  {p}{name} = linalg.matmul ins({p}ln, %w{name} : {t}, {w}) outs(%z2 : {t}) -> {t}")
    e(f"  {p}kt = linalg.transpose ins({p}k : {t}) outs(%e2t : tensor<{h}x{s}xf32>) permutation = [1, 0]")
    e(f"  {p}sc = linalg.matmul ins({p}q, {p}kt : {t}, tensor<{h}x{s}xf32>) outs(%zsq : {sq}) -> {sq}")
    e(f"  {p}scl = linalg.generic {{indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\"]}} ins({p}sc : {sq}) outs(%esq : {sq}) {{")
    e(f"  ^bb0(%v: f32, %o: f32):\n    %y = arith.mulf %v, %scale : f32\n    linalg.yield %y : f32\n  }} -> {sq}")
    e(f"  {p}sm = linalg.softmax dimension(1) ins({p}scl : {sq}) outs(%esq : {sq}) -> {sq}")
    e(f"  {p}att = linalg.matmul ins({p}sm, {p}v : {sq}, {t}) outs(%z2 : {t}) -> {t}")
    e(f"  {p}o = linalg.matmul ins({p}att, %wo : {t}, {w}) outs(%z2 : {t}) -> {t}")
    e(f"  {p}res = arith.addf {p}o, {x} : {t}")
    # MLP with tanh.
    e(f"  {p}h1 = linalg.matmul ins({p}res, %w1 : {t}, {w}) outs(%z2 : {t}) -> {t}")
    e(f"  {p}act = math.tanh {p}h1 : {t}")
    e(f"  {p}h2 = linalg.matmul ins({p}act, %w2 : {t}, {w}) outs(%z2 : {t}) -> {t}")
    e(f"  {p}out = arith.addf {p}h2, {p}res : {t}")
    return f"{p}out"


def named_block(b, x, s, h, out):
    """A block of named linalg ops reading `x`; returns the result's name."""
    t = f"tensor<{s}x{h}xf32>"
    row = f"tensor<{s}xf32>"
    w = f"tensor<{h}x{h}xf32>"
    p = f"%b{b}_"
    e = out.append
    e(f"  {p}mm = linalg.matmul ins({x}, %wq : {t}, {w}) outs(%z2 : {t}) -> {t}")
    e(f"  {p}add = linalg.add ins({p}mm, {x} : {t}, {t}) outs(%e2 : {t}) -> {t}")
    e(f"  {p}relu = linalg.max ins({p}add, %z2 : {t}, {t}) outs(%e2 : {t}) -> {t}")
    e(f"  {p}sm = linalg.softmax dimension(1) ins({p}relu : {t}) outs(%e2 : {t}) -> {t}")
    e(f"  {p}sum = linalg.reduce ins({p}sm : {t}) outs(%zrow : {row}) dimensions = [1]")
    e(f"    (%in: f32, %acc: f32) {{\n      %r = arith.addf %in, %acc : f32\n      linalg.yield %r : f32\n    }}")
    e(f"  {p}bc = linalg.broadcast ins({p}sum : {row}) outs(%e2 : {t}) dimensions = [1]")
    e(f"  {p}out = linalg.mul ins({p}bc, {p}mm : {t}, {t}) outs(%e2 : {t}) -> {t}")
    return f"{p}out"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("blocks", type=int)
    ap.add_argument("--style", choices=["generic", "named"], default="generic")
    ap.add_argument("--seq", type=int, default=16)
    ap.add_argument("--hidden", type=int, default=32)
    args = ap.parse_args()
    s, h = args.seq, args.hidden
    t = f"tensor<{s}x{h}xf32>"
    w = f"tensor<{h}x{h}xf32>"
    out = []
    out.append("#id = affine_map<(d0, d1) -> (d0, d1)>")
    out.append("#row = affine_map<(d0, d1) -> (d0)>")
    weights = ", ".join(f"%w{n}: {w}" for n in ("q", "k", "v", "o", "1", "2"))
    out.append(f"func.func @model(%x: {t}, {weights}) -> {t} {{")
    out.append("  %zero = arith.constant 0.0 : f32")
    out.append(f"  %n = arith.constant {float(h)} : f32")
    out.append("  %eps = arith.constant 1.0e-5 : f32")
    out.append(f"  %scale = arith.constant {1.0 / h ** 0.5} : f32")
    out.append(f"  %erow = tensor.empty() : tensor<{s}xf32>")
    out.append(f"  %zrow = linalg.fill ins(%zero : f32) outs(%erow : tensor<{s}xf32>) -> tensor<{s}xf32>")
    out.append(f"  %e2 = tensor.empty() : {t}")
    out.append(f"  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : {t}) -> {t}")
    out.append(f"  %e2t = tensor.empty() : tensor<{h}x{s}xf32>")
    out.append(f"  %esq = tensor.empty() : tensor<{s}x{s}xf32>")
    out.append(f"  %zsq = linalg.fill ins(%zero : f32) outs(%esq : tensor<{s}x{s}xf32>) -> tensor<{s}x{s}xf32>")
    x = "%x"
    for b in range(args.blocks):
        x = (named_block if args.style == "named" else block)(b, x, s, h, out)
    out.append(f"  return {x} : {t}")
    out.append("}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()

"""Seeded generator of f32 tensor programs for amp's pass-level checks.

Each program is one function of square N x N tensors built from a random
sequence of linalg named ops and generics, arith/math elementwise ops,
tensor data movement and scf control flow, the shapes amp sees in models.
The same seed always gives the same programs.
"""

import random

N = 8
T = f"tensor<{N}x{N}xf32>"
V = f"tensor<{N}xf32>"


class Program:
    def __init__(self, rng, name):
        self.rng = rng
        self.name = name
        self.lines = []
        self.count = 0
        self.values = []  # N x N values available as operands

    def fresh(self):
        self.count += 1
        return f"%v{self.count}"

    def pick(self):
        return self.rng.choice(self.values)

    def emit(self, text, result=True):
        if result:
            v = self.fresh()
            self.lines.append(f"  {v} = {text}")
            self.values.append(v)
            return v
        self.lines.append(f"  {text}")
        return None

    def empty(self, ty=T):
        v = self.fresh()
        self.lines.append(f"  {v} = tensor.empty() : {ty}")
        return v

    def step(self):
        kind = self.rng.choice([
            "matmul", "add", "mul", "max", "exp", "tanh", "softmax", "sum",
            "transpose", "scale", "slice", "relu_generic", "if", "loop",
            "sub", "div_const", "sqrt_abs"])
        a, b = self.pick(), self.pick()
        if kind == "matmul":
            z = self.fresh()
            self.lines.append(f"  {z} = arith.constant dense<0.0> : {T}")
            self.emit(f"linalg.matmul ins({a}, {b} : {T}, {T}) outs({z} : {T}) -> {T}")
        elif kind in ("add", "mul", "max", "sub"):
            e = self.empty()
            op = {"max": "max"}.get(kind, kind)
            self.emit(f"linalg.{op} ins({a}, {b} : {T}, {T}) outs({e} : {T}) -> {T}")
        elif kind in ("exp", "tanh"):
            self.emit(f"math.{kind} {a} : {T}")
        elif kind == "sqrt_abs":
            x = self.emit(f"math.absf {a} : {T}")
            self.emit(f"math.sqrt {x} : {T}")
        elif kind == "div_const":
            c = self.fresh()
            self.lines.append(f"  {c} = arith.constant dense<{self.rng.choice(['3.0', '0.125', '1.0e-3'])}> : {T}")
            self.emit(f"arith.divf {a}, {c} : {T}")
        elif kind == "softmax":
            e = self.empty()
            self.emit(f"linalg.softmax dimension(1) ins({a} : {T}) outs({e} : {T}) -> {T}")
        elif kind == "sum":
            z = self.fresh()
            self.lines.append(f"  {z} = arith.constant dense<0.0> : {V}")
            s = self.fresh()
            self.lines.append(
                f"  {s} = linalg.reduce ins({a} : {T}) outs({z} : {V}) dimensions = [1]\n"
                f"    (%in: f32, %acc: f32) {{\n"
                f"      %r{s[1:]} = arith.addf %in, %acc : f32\n"
                f"      linalg.yield %r{s[1:]} : f32\n    }}")
            e = self.empty()
            self.emit(f"linalg.broadcast ins({s} : {V}) outs({e} : {T}) dimensions = [1]")
        elif kind == "transpose":
            e = self.empty()
            self.emit(f"linalg.transpose ins({a} : {T}) outs({e} : {T}) permutation = [1, 0]")
        elif kind == "scale":
            c = self.fresh()
            self.lines.append(f"  {c} = arith.constant {self.rng.choice(['0.5', '2.0', '70000.0'])} : f32")
            e = self.empty()
            self.emit(
                f"linalg.generic {{indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\"]}}"
                f" ins({a} : {T}) outs({e} : {T}) {{\n"
                f"  ^bb0(%in: f32, %out: f32):\n"
                f"    %m{c[1:]} = arith.mulf %in, {c} : f32\n"
                f"    linalg.yield %m{c[1:]} : f32\n  }} -> {T}")
        elif kind == "relu_generic":
            e = self.empty()
            self.emit(
                f"linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = [\"parallel\", \"parallel\"]}}"
                f" ins({a}, {b} : {T}, {T}) outs({e} : {T}) {{\n"
                f"  ^bb0(%x: f32, %y: f32, %out: f32):\n"
                f"    %z{e[1:]} = arith.constant 0.0 : f32\n"
                f"    %s{e[1:]} = arith.addf %x, %y : f32\n"
                f"    %r{e[1:]} = arith.maximumf %s{e[1:]}, %z{e[1:]} : f32\n"
                f"    linalg.yield %r{e[1:]} : f32\n  }} -> {T}")
        elif kind == "slice":
            s = self.fresh()
            self.lines.append(f"  {s} = tensor.extract_slice {a}[0, 0] [{N // 2}, {N}] [1, 1] : {T} to tensor<{N // 2}x{N}xf32>")
            self.emit(f"tensor.insert_slice {s} into {b}[{N // 2}, 0] [{N // 2}, {N}] [1, 1] : tensor<{N // 2}x{N}xf32> into {T}")
        elif kind == "if":
            c = self.fresh()
            self.lines.append(f"  {c} = arith.cmpf olt, %s0, %s1 : f32")
            e = self.empty()
            self.emit(
                f"scf.if {c} -> ({T}) {{\n"
                f"    %t{c[1:]} = linalg.add ins({a}, {b} : {T}, {T}) outs({e} : {T}) -> {T}\n"
                f"    scf.yield %t{c[1:]} : {T}\n  }} else {{\n"
                f"    scf.yield {a} : {T}\n  }}")
        elif kind == "loop":
            lo, hi, one = self.fresh(), self.fresh(), self.fresh()
            self.lines.append(f"  {lo} = arith.constant 0 : index")
            self.lines.append(f"  {hi} = arith.constant 3 : index")
            self.lines.append(f"  {one} = arith.constant 1 : index")
            z = self.fresh()
            self.lines.append(f"  {z} = arith.constant dense<0.0> : {T}")
            self.emit(
                f"scf.for %i{lo[1:]} = {lo} to {hi} step {one} iter_args(%acc{lo[1:]} = {a}) -> ({T}) {{\n"
                f"    %m{lo[1:]} = linalg.matmul ins(%acc{lo[1:]}, {b} : {T}, {T}) outs({z} : {T}) -> {T}\n"
                f"    %t{lo[1:]} = math.tanh %m{lo[1:]} : {T}\n"
                f"    scf.yield %t{lo[1:]} : {T}\n  }}")

    def text(self):
        results = self.values[-2:]
        head = (f"func.func @{self.name}(%a: {T}, %b: {T}, %s0: f32, %s1: f32) -> "
                f"({', '.join([T] * len(results))}) {{")
        ret = f"  return {', '.join(results)} : {', '.join([T] * len(results))}"
        return "\n".join([head] + self.lines + [ret, "}"])


def generate(seed, count, min_ops=3, max_ops=12):
    """`count` programs as one --split-input-file text."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        p = Program(rng, f"p{i}")
        p.values = ["%a", "%b"]
        for _ in range(rng.randint(min_ops, max_ops)):
            p.step()
        out.append("#id = affine_map<(d0, d1) -> (d0, d1)>\n" + p.text())
    return "\n// -----\n".join(out) + "\n"


if __name__ == "__main__":
    import sys
    print(generate(int(sys.argv[1]), int(sys.argv[2])), end="")

# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""FLOPs, weight bytes and casts of a tensor-level MLIR function, from its text.

The program is printed in MLIR's generic form (amp-opt
--mlir-print-op-generic, large constants elided), which gives every op as
`%r = "name"(operands) ... : (operand types) -> result types`. The ops
directly in a function body are listed in order, with the names of the ops
in their regions (linalg.generic bodies).

FLOPs are counted from static shapes, one multiply-add as two:

  tosa.matmul                 2 B M N K
  tosa.conv2d                 2 numel(out) KH KW IC          (weight OC KH KW IC)
  tosa.depthwise_conv2d       2 numel(out) KH KW             (weight KH KW C M)
  tosa.transpose_conv2d       2 numel(in) OC KH KW
  linalg named contractions   2 numel(out) * reduced size     (matmul, batch_matmul)
  tosa pools                  numel(out) KH KW
  reductions                  numel(in)
  linalg.softmax              5 numel (max, subtract, exp, sum, divide)
  linalg.generic / map        largest operand x arithmetic ops in the body
  other elementwise ops       numel(result)
  data movement, constants, casts, control flow: 0

so that "the fraction of FLOPs run in low precision" weighs a convolution
by its multiply-adds and a bias add by its elements.
"""

import re
import subprocess

_TENSOR = re.compile(r"tensor<([^>]*)>")
_OP_START = re.compile(r'^\s*(?:(%[\w#:, %]+?)\s*=\s*)?"([\w.]+)"\(')
_ZERO_COST = (
    "arith.constant", "tosa.const", "tosa.const_shape", "tensor.empty", "tosa.reshape",
    "tosa.transpose", "tosa.slice", "tosa.concat", "tosa.pad", "tosa.tile", "tosa.gather",
    "tosa.identity", "tosa.cast", "tensor.extract_slice", "tensor.insert_slice",
    "tensor.concat", "tensor.pad", "tensor.expand_shape", "tensor.collapse_shape",
    "tensor.reshape", "tensor.cast", "tensor.extract", "tensor.from_elements",
    "linalg.fill", "linalg.transpose", "linalg.broadcast", "linalg.copy",
    "arith.truncf", "arith.extf", "func.return", "func.call", "linalg.yield",
    "scf.yield", "scf.for", "scf.if")
_CASTS = ("arith.truncf", "arith.extf", "tosa.cast")
FLOAT_BYTES = {"f32": 4, "f16": 2, "bf16": 2, "f64": 8}


def parse_type(t):
    """'450x64xf32' -> ([450, 64], 'f32')."""
    parts = t.split("x")
    dims = []
    for p in parts[:-1]:
        dims.append(int(p) if p.isdigit() else 1)
    return dims, parts[-1]


def numel(dims):
    n = 1
    for d in dims:
        n *= d
    return n


class Op:
    def __init__(self, name, attrs):
        self.name = name
        self.attrs = attrs
        self.operands = []   # [(dims, element type)] of tensor operands
        self.results = []
        self.body = []       # names of the ops in its regions

    def __repr__(self):
        return "Op(%s)" % self.name


def _signature(op, text):
    lhs, _, rhs = text.partition("->")
    op.operands = [parse_type(t) for t in _TENSOR.findall(lhs)]
    op.results = [parse_type(t) for t in _TENSOR.findall(rhs)]


def function_ops(generic_text):
    """The ops of every function body, in order (nested ops in `body`)."""
    ops = []
    stack = []  # enclosing region ops: (Op or None for module/func, is-func-body)
    for line in generic_text.splitlines():
        s = line.strip()
        if s.startswith("})") or s.startswith("}) :"):
            op = stack.pop()
            if isinstance(op, Op):
                _signature(op, s[2:])
            continue
        if s.startswith("}, {") or s.startswith("^") or not s:
            continue
        m = _OP_START.match(line)
        if not m:
            continue
        name = m.group(2)
        opens_region = s.endswith("({")
        op = Op(name, s)
        in_func = bool(stack) and stack[-1] == "func"
        nested = [o for o in stack if isinstance(o, Op)]
        if nested:
            nested[-1].body.append(name)
        elif in_func:
            ops.append(op)
        if opens_region:
            if name == "func.func":
                stack.append("func")
            elif name == "builtin.module":
                stack.append("module")
            elif in_func or nested:
                stack.append(op)
            else:
                stack.append(None)
        elif in_func and not nested:
            _signature(op, s.rsplit(" : ", 1)[-1] if " : " in s else "")
    return ops


def _kernel(attrs):
    m = re.search(r"kernel = array<i64: (\d+), (\d+)>", attrs)
    return int(m.group(1)) * int(m.group(2)) if m else 1


def flops(op):
    n = op.name
    if n in _ZERO_COST or n.startswith(("tensor.", "bufferization.", "memref.", "cf.")):
        return 0
    ins, outs = op.operands, op.results
    out = numel(outs[0][0]) if outs else 0
    if n == "tosa.matmul":
        (b, m, k), (_, _, nn) = ins[0][0], ins[1][0]
        return 2 * b * m * k * nn
    if n == "tosa.conv2d":
        _, kh, kw, ic = ins[1][0]
        return 2 * out * kh * kw * ic
    if n == "tosa.depthwise_conv2d":
        kh, kw, _, _ = ins[1][0]
        return 2 * out * kh * kw
    if n == "tosa.transpose_conv2d":
        oc, kh, kw, _ = ins[1][0]
        return 2 * numel(ins[0][0]) * oc * kh * kw
    if n in ("tosa.max_pool2d", "tosa.avg_pool2d"):
        return out * _kernel(op.attrs)
    if n.startswith("tosa.reduce_") or n == "tosa.argmax":
        return numel(ins[0][0])
    if n in ("linalg.matmul", "linalg.batch_matmul"):
        return 2 * out * ins[0][0][-1]
    if n == "linalg.softmax":
        return 5 * out
    if n in ("linalg.generic", "linalg.map", "linalg.reduce"):
        arith = sum(1 for b in op.body if b.startswith(("arith.", "math."))
                    and b not in ("arith.constant", "arith.truncf", "arith.extf"))
        biggest = max([numel(d) for d, _ in ins + outs] or [0])
        return biggest * max(arith, 1)
    return out


def float_constant_bytes(ops, elem_bytes=None):
    """Bytes of the floating-point constants (weights); elem_bytes overrides sizes."""
    total = 0
    for op in ops:
        if op.name in ("arith.constant", "tosa.const") and op.results:
            dims, et = op.results[0]
            if et in FLOAT_BYTES:
                total += numel(dims) * (elem_bytes or FLOAT_BYTES[et])
    return total


def casts(ops):
    return sum(1 for op in ops if op.name in _CASTS)


def low_flops_from_types(ops, low):
    """FLOPs of ops that read or write `low` tensors (for programs without a report)."""
    total = low_flops = 0
    for op in ops:
        f = flops(op)
        total += f
        if any(et == low for _, et in op.operands + op.results):
            low_flops += f
    return low_flops, total


def low_flops_from_report(ops, report):
    """FLOPs of the ops amp's report decided `low`, matched to `ops` in order.

    The report lists the ops it decided in program order (a subsequence of
    the function's ops: it skips index/integer constants and shapes), so each
    entry is matched to the next op of the same name.
    """
    total = sum(flops(op) for op in ops)
    low_flops, k, matched = 0, 0, 0
    for entry in report["ops"]:
        while k < len(ops) and ops[k].name != entry["op"]:
            k += 1
        if k == len(ops):
            raise ValueError("report entry %s has no matching op" % entry["op"])
        if entry["mode"] == "low":
            low_flops += flops(ops[k])
        matched += 1
        k += 1
    return low_flops, total


def generic_form(amp_opt, path):
    return subprocess.run([amp_opt, path, "--mlir-print-op-generic",
                           "--mlir-elide-elementsattrs-if-larger=16"],
                          check=True, capture_output=True, text=True).stdout

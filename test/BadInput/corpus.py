# amp's bad-input corpus: one case per class of bad input to amp-opt and
# amp-run (malformed IR, unknown dialects, bad options, bad policy and range
# files, unsupported element types, huge shapes, deep nesting, bad .npy
# files). Every case must end in a clear diagnostic ("error:" or the tool's
# own "amp-run: ..." line) and exit status 1: never a signal, a crash report
# or an assertion, and never an output file (-o, --output) left behind;
# inputs saved with --save-inputs (before the call) are whole .npy files.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: %python %s --bin %amp_bin --work %t | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: bad-input corpus: [[N:[0-9]+]] cases, [[N]] diagnosed, 0 failed

import argparse
import os
import shutil
import struct
import subprocess
import sys

import numpy as np

ADD = """func.func @add(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = arith.addf %a, %b : tensor<2x3xf32>
  %1 = math.exp %0 : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
"""


def typed(element):
    """@f over one element type: arguments, result and an elementwise op."""
    op = "arith.addi" if element.startswith("i") else (
        "complex.add" if element.startswith("complex") else "arith.addf")
    return ("func.func @f(%%a: tensor<4x%s>) -> tensor<4x%s> {\n"
            "  %%0 = %s %%a, %%a : tensor<4x%s>\n"
            "  return %%0 : tensor<4x%s>\n}\n") % ((element,) * 2 + (op,) +
                                                 (element,) * 2)


def nested(depth):
    return ("func.func @add(%c: i1, %a: tensor<4xf32>) -> tensor<4xf32> {\n" +
            "scf.if %c {\n" * depth + "}\n" * depth +
            "return %a : tensor<4xf32>\n}\n")


def npy_bytes(header, payload=b"", version=(1, 0), magic=b"\x93NUMPY"):
    """A .npy file with the given header dictionary text, padded as numpy
    pads it."""
    text = header.encode("latin1")
    size_format = "<H" if version[0] == 1 else "<I"
    prefix = len(magic) + 2 + struct.calcsize(size_format)
    padding = -(prefix + len(text) + 1) % 64
    text += b" " * padding + b"\n"
    return (magic + bytes(version) + struct.pack(size_format, len(text)) +
            text + payload)


def f32_header(shape, descr="<f4", fortran=False):
    return "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, fortran, shape)


GOOD_2X3 = np.ones((2, 3), np.float32).tobytes()

# Program files: name -> text.
PROGRAMS = {
    "add.mlir": ADD,
    "syntax.mlir": ADD.replace("return %1 :", "return %1"),
    "truncated.mlir": ADD[: len(ADD) // 2],
    "binary.mlir": "\x00\x01\x02\xff\xfe garbage",
    "unknown-dialect.mlir": ADD.replace(
        "%1 = math.exp %0 : tensor<2x3xf32>",
        '%1 = "vendor.exp"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>'),
    "unverifiable.mlir": ADD.replace("return %1 : tensor<2x3xf32>",
                                     "return %1 : tensor<3x2xf32>"),
    "deep.mlir": nested(5000),
    "deep-types.mlir": "func.func private @g(%%a: %s)\n" % (
        "tuple<" * 3000 + "f32" + ">" * 3000),
    "past-int64.mlir": ADD.replace("2x3", "99999999999999999999x3"),
    "huge-shape.mlir": ADD.replace("2x3", "9223372036854775807x3"),
    "huge-elements.mlir": ADD.replace("2x3", "4611686018427387904x4"),
    "f8.mlir": typed("f8E4M3FN"),
    "i1.mlir": typed("i1"),
    "complex-f64.mlir": typed("complex<f64>"),
    "bad-bytecode.mlir": "ML\xefR\x00\x05garbage-after-the-magic",
}

# Good programs near the nesting limit, and brackets that do not nest
# (in strings, comments, arrows and comparisons): amp reads them.
ACCEPTED = {
    "deep-990.mlir": nested(990),
    "brackets-in-text.mlir": (
        "// " + "(" * 3000 + "\n" +
        "#set = affine_set<(d0) : (d0 - 1 >= 0, 10 - d0 >= 0)>\n" +
        "func.func @add(%a: tensor<4xf32>) -> tensor<4xf32> "
        "attributes {note = \"" + "{[(<" * 1000 + "\\\"\"} {\n"
        "  %0 = math.exp %a : tensor<4xf32>\n"
        "  return %0 : tensor<4xf32>\n}\n"),
}

# .npy files: name -> bytes.
NPYS = {
    "good.npy": npy_bytes(f32_header((2, 3)), GOOD_2X3),
    "truncated-data.npy": npy_bytes(f32_header((2, 3)), GOOD_2X3[:10]),
    "trailing-data.npy": npy_bytes(f32_header((2, 3)), GOOD_2X3 + b"\0" * 8),
    "truncated-header.npy": npy_bytes(f32_header((2, 3)))[:30],
    "header-length-past-end.npy": b"\x93NUMPY\x01\x00\xff\xff{'descr'",
    "no-magic.npy": b"PK\x03\x04 this is a zip file",
    "empty.npy": b"",
    "version-9.npy": npy_bytes(f32_header((2, 3)), GOOD_2X3, version=(9, 0)),
    "f64-dtype.npy": npy_bytes(f32_header((2, 3), "<f8"),
                               np.ones((2, 3)).tobytes()),
    "bool-dtype.npy": npy_bytes(f32_header((2, 3), "|b1"), b"\1" * 6),
    "object-dtype.npy": npy_bytes(f32_header((2, 3), "|O"), b"\0" * 48),
    "unicode-dtype.npy": npy_bytes(f32_header((2, 3), "<U3"), b"\0" * 72),
    "big-endian.npy": npy_bytes(f32_header((2, 3), ">f4"), GOOD_2X3),
    "fortran.npy": npy_bytes(f32_header((2, 3), fortran=True), GOOD_2X3),
    "negative-shape.npy": npy_bytes(f32_header((2, -3)), GOOD_2X3),
    "huge-shape.npy": npy_bytes(f32_header((1 << 40, 1 << 40)), GOOD_2X3),
    "garbage-header.npy": npy_bytes("{'descr': <f4, shape: [[[", GOOD_2X3),
    "wrong-shape.npy": npy_bytes(f32_header((3, 2)), GOOD_2X3),
}

POLICIES = {
    "policy-syntax.json": '{"never": ["math.exp"',
    "policy-not-object.json": '[1, 2, 3]',
    "policy-bad-list.json": '{"never": "math.exp"}',
    "policy-unknown-key.json": '{"sometimes": ["math.exp"]}',
    "policy-binary.yaml": "\x00\xff\x00\xfe: [",
    "ranges-bad.json": '{"add": {"args": [[1, "x"]]}}',
}


def cases(work):
    """(name, tool, arguments, files that must not exist afterwards)."""
    p = lambda name: os.path.join(work, name)
    out_mlir, out_npy = p("out.mlir"), p("out.npy")
    saved = p("saved")
    opt = lambda *a: ["amp-opt", *a, "-o", out_mlir]
    run = lambda *a: ["amp-run", *a, "--output=" + out_npy,
                      "--save-inputs=" + saved]
    good_inputs = "--input=%s,%s" % (p("good.npy"), p("good.npy"))
    for name, program in (
            ("malformed IR", "syntax.mlir"), ("truncated IR", "truncated.mlir"),
            ("binary garbage", "binary.mlir"),
            ("bad bytecode", "bad-bytecode.mlir"),
            ("unknown dialect", "unknown-dialect.mlir"),
            ("IR that does not verify", "unverifiable.mlir"),
            ("regions nested 5000 deep", "deep.mlir"),
            ("types nested 3000 deep", "deep-types.mlir"),
            ("dimension past int64", "past-int64.mlir"),
            ("missing input file", "absent.mlir")):
        yield "opt: " + name, opt(p(program), "--mixed-precision")
    for name, option in (
            ("unknown pass option", "colour=red"),
            ("option without value", "precision"),
            *(("precision=" + low, "precision=" + low)
              for low in ("f64", "f8E4M3FN", "i8", "complex<f32>", "f17")),
            ("unknown placement", "placement=psychic"),
            ("unknown target", "target=tpu9"),
            ("bad input-range", "input-range=1:-inf")):
        yield "opt: " + name, opt(p("add.mlir"), "--mixed-precision=" + option)
    yield "opt: malformed pipeline", opt(
        p("add.mlir"), "--pass-pipeline=builtin.module(func.func(mixed-precision")
    for name in POLICIES:
        key = "ranges" if name.startswith("ranges") else "policy-file"
        yield "opt: %s=%s" % (key, name), opt(
            p("add.mlir"), "--mixed-precision=%s=%s" % (key, p(name)))
    yield "opt: policy file is a folder", opt(
        p("add.mlir"), "--mixed-precision=policy-file=" + work)

    yield "run: malformed IR", run(p("syntax.mlir"), "--entry=add", "--seed=1")
    yield "run: unknown dialect", run(p("unknown-dialect.mlir"), "--entry=add",
                                      "--seed=1")
    yield "run: regions nested 5000 deep", run(p("deep.mlir"), "--entry=add",
                                               "--seed=1")
    yield "run: dimension past int64", run(p("past-int64.mlir"), "--entry=add",
                                          "--seed=1")
    yield "run: a dimension of 2^63-1", run(p("huge-shape.mlir"), "--entry=add",
                                          "--seed=1")
    yield "run: more elements than memory", run(p("huge-elements.mlir"),
                                                "--entry=add", "--seed=1")
    for name in ("f8.mlir", "i1.mlir", "complex-f64.mlir"):
        yield "run: argument of " + name[:-5], run(p(name), "--entry=f",
                                                   "--seed=1")
    yield "run: unknown backend", run(p("add.mlir"), "--entry=add",
                                      "--backend=abacus", "--seed=1")
    yield "run: negative threads", run(p("add.mlir"), "--entry=add",
                                       "--threads=-2", "--seed=1")
    yield "run: threads not a number", run(p("add.mlir"), "--entry=add",
                                           "--threads=many", "--seed=1")
    yield "run: repeat=0", run(p("add.mlir"), "--entry=add", "--repeat=0",
                               "--seed=1")
    yield "run: negative rtol", run(p("add.mlir"), "--entry=add",
                                    "--compare=" + p("good.npy"), "--rtol=-1",
                                    "--seed=1")
    for name in NPYS:
        if name == "good.npy":
            continue
        yield "run: input " + name, run(
            p("add.mlir"), "--entry=add",
            "--input=%s,%s" % (p(name), p("good.npy")))
        if name == "f64-dtype.npy":
            continue  # --cast-inputs converts f64 to f32
        yield "run: input %s with --cast-inputs" % name, run(
            p("add.mlir"), "--entry=add", "--cast-inputs",
            "--input=%s,%s" % (p("good.npy"), p(name)))
    yield "run: reference truncated-data.npy", run(
        p("add.mlir"), "--entry=add", good_inputs,
        "--compare=" + p("truncated-data.npy"))
    yield "run: input folder missing", run(p("add.mlir"), "--entry=add",
                                           "--input-dir=" + p("nowhere"))


CRASH_SIGNS = ("Stack dump", "PLEASE submit a bug report", "Assertion",
               "Segmentation fault", "AddressSanitizer", "runtime error:",
               "terminate called", "LLVM ERROR")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    for name, text in PROGRAMS.items():
        with open(os.path.join(args.work, name), "w", encoding="latin1") as f:
            f.write(text)
    for name, data in NPYS.items():
        with open(os.path.join(args.work, name), "wb") as f:
            f.write(data)
    for name, text in POLICIES.items():
        with open(os.path.join(args.work, name), "w", encoding="latin1") as f:
            f.write(text)

    total = diagnosed = failed = 0
    for name, text in ACCEPTED.items():
        path = os.path.join(args.work, name)
        with open(path, "w") as f:
            f.write(text)
        for command in (["amp-opt", path, "--mixed-precision"],
                        ["amp-opt", path, "--mixed-precision",
                         "--amp-lower-to-llvm"]):
            result = subprocess.run(
                [os.path.join(args.bin, command[0])] + command[1:],
                capture_output=True, errors="replace", timeout=120)
            if result.returncode != 0:
                failed += 1
                print("FAIL accepted %s: exit status %d\n  %s" % (
                    " ".join(command), result.returncode,
                    result.stderr.strip()[:2000]))

    for name, command in cases(args.work):
        total += 1
        outputs = [os.path.join(args.work, n)
                   for n in ("out.mlir", "out.npy", "saved")]
        for path in outputs:
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.remove(path)
        command = [os.path.join(args.bin, command[0])] + command[1:]
        try:
            result = subprocess.run(command, capture_output=True, timeout=120,
                                    errors="replace")
        except subprocess.TimeoutExpired:
            failed += 1
            print("FAIL %s: no answer within 120 s" % name)
            continue
        problems = []
        if result.returncode != 1:
            problems.append("exit status %d" % result.returncode)
        crash = [s for s in CRASH_SIGNS if s in result.stderr]
        if crash:
            problems.append("crash report (%s)" % crash[0])
        first = next((line for line in result.stderr.splitlines()
                      if line.strip()), "")
        if "error" not in result.stderr and not first.startswith("amp-"):
            problems.append("no diagnostic")
        left = [os.path.basename(p) for p in outputs[:2] if os.path.exists(p)]
        if left:
            problems.append("left %s behind" % ", ".join(left))
        # Inputs are saved before the call (to reproduce a failing one):
        # when there, each is a whole .npy file.
        if os.path.isdir(outputs[2]):
            for saved in sorted(os.listdir(outputs[2])):
                try:
                    np.load(os.path.join(outputs[2], saved))
                except Exception as error:  # any unreadable file
                    problems.append("saved %s unreadable: %s" % (saved, error))
        if problems:
            failed += 1
            print("FAIL %s: %s\n  %s\n  %s" % (
                name, "; ".join(problems), " ".join(command),
                result.stderr.strip().replace("\n", "\n  ")[:2000]))
        else:
            diagnosed += 1
            print("ok   %s: %s" % (name, first.strip()[:160]))
    print("bad-input corpus: %d cases, %d diagnosed, %d failed" %
          (total, diagnosed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

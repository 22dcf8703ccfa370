"""Run an imported (tensor-level) MLIR function on the CPU with numpy inputs.

    outputs = amp.onnx.run.run_mlir(text, [x], func_name="main", precision="bf16")

The function is optionally converted with `amp-opt --mixed-precision`,
lowered with amp's `amp-lower-to-llvm` pipeline and run by mlir-runner
through a generated driver that passes the inputs as constants and prints
every result with the runner library's printMemref*. Used by the tests and
by `python3 -m amp.onnx.check`; results are f32/i32/i64 numpy arrays.
"""

import os
import re
import shutil
import subprocess
import tempfile

import numpy as np

from ._ir import dense_attr

LLVM_BIN = "/usr/lib/llvm-22/bin"
LLVM_LIB = "/usr/lib/llvm-22/lib"


class RunError(Exception):
    pass


def find_amp_opt():
    env = os.environ.get("AMP_OPT")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.join(here, "..", "..", "..", "build", "bin", "amp-opt")
    if os.path.exists(built):
        return os.path.normpath(built)
    found = shutil.which("amp-opt")
    if found:
        return found
    raise RunError("amp-opt not found: build amp or set $AMP_OPT")


_SIG = re.compile(r"func\.func @(\S+)\((.*?)\) -> (.*?) \{")


def _signature(text, func_name):
    for m in _SIG.finditer(text):
        if m.group(1) == func_name:
            return m.group(2), m.group(3)
    raise RunError("function @%s not found" % func_name)


def _split_types(s):
    s = s.strip()
    if s.startswith("(") and s.endswith(")"):
        s = s[1:-1]
    return re.findall(r"tensor<[^>]*>", s)


def _parse_type(t):
    body = t[len("tensor<"):-1]
    parts = body.split("x")
    et = parts[-1]
    dims = [int(p) for p in parts[:-1]]
    dtype = {"f32": np.float32, "f16": np.float16, "f64": np.float64, "i64": np.int64,
             "i32": np.int32, "i16": np.int16, "i8": np.int8, "ui8": np.uint8,
             "i1": np.bool_}.get(et)
    return dims, et, dtype


def _split_module(text):
    """(prefix, body): attribute aliases before `module {`, and the ops inside."""
    lines = text.rstrip().splitlines()
    for i, line in enumerate(lines):
        if line.startswith("module"):
            last = max(j for j, l in enumerate(lines) if l.rstrip() == "}")
            return "\n".join(lines[:i]), "\n".join(lines[i + 1:last])
    return "", text


def _module_body(text):
    return _split_module(text)[1]


def combine(texts):
    """One module holding the functions of several modules (attribute
    aliases of printed modules are kept; they must not clash)."""
    parts = [_split_module(t) for t in texts]
    prefix = "\n".join(p for p, _ in parts if p.strip())
    return prefix + "\nmodule {\n" + "\n".join(b for _, b in parts) + "\n}\n"


def driver(text, calls):
    """text (one module) plus an @amp_onnx_driver that calls each function
    of calls [(inputs, func name)] with constant inputs and prints every
    result in order."""
    lines = ["  func.func private @printMemrefF32(memref<*xf32>)",
             "  func.func private @printMemrefI64(memref<*xi64>)",
             "  func.func private @printMemrefI32(memref<*xi32>)",
             "  func.func @amp_onnx_driver() {"]
    kinds = []
    for c, (inputs, func_name) in enumerate(calls):
        args, results = _signature(text, func_name)
        arg_types = re.findall(r"tensor<[^>]*>", args)
        res_types = _split_types(results)
        if len(arg_types) != len(inputs):
            raise RunError("@%s takes %d inputs, %d given"
                           % (func_name, len(arg_types), len(inputs)))
        names = []
        for i, (t, x) in enumerate(zip(arg_types, inputs)):
            dims, et, dtype = _parse_type(t)
            x = np.asarray(x)
            if list(x.shape) != dims:
                raise RunError("input %d has shape %s, @%s takes %s"
                               % (i, list(x.shape), func_name, t))
            if dtype is None:
                raise RunError("%s inputs are not supported by the driver" % et)
            name = "%%c%d_in%d" % (c, i)
            lines.append("    %s = arith.constant %s" % (name, dense_attr(x.astype(dtype))))
            names.append(name)
        res = ["%%c%d_r%d" % (c, i) for i in range(len(res_types))]
        lines.append("    %s = func.call @%s(%s) : (%s) -> (%s)"
                     % (", ".join(res), func_name, ", ".join(names), ", ".join(arg_types),
                        ", ".join(res_types)))
        case_kinds = []
        for i, t in enumerate(res_types):
            dims, et, dtype = _parse_type(t)
            r = res[i]
            shape = "".join("%dx" % d for d in dims)
            if et in ("f16", "bf16"):
                ext = "tensor<%sf32>" % shape
                lines.append("    %s_x = arith.extf %s : %s to %s" % (r, r, t, ext))
                r, t, et = r + "_x", ext, "f32"
            elif et == "f64":
                ext = "tensor<%sf32>" % shape
                lines.append("    %s_x = arith.truncf %s : %s to %s" % (r, r, t, ext))
                r, t, et = r + "_x", ext, "f32"
            elif et in ("i1", "ui8", "i8", "i16"):
                ext = "tensor<%si32>" % shape
                op = "arith.extsi" if et in ("i8", "i16") else "arith.extui"
                if et == "ui8":  # signless in the driver's view
                    t = t.replace("xui8>", "xi8>")
                lines.append("    %s_x = %s %s : %s to %s" % (r, op, r, t, ext))
                r, t, et = r + "_x", ext, "i32"
            if et not in ("f32", "i64", "i32"):
                raise RunError("%s results are not supported by the driver" % et)
            fn = {"f32": "printMemrefF32", "i64": "printMemrefI64", "i32": "printMemrefI32"}[et]
            mt = "memref<%s%s>" % (shape, et)
            lines.append("    %s_m = bufferization.to_buffer %s : %s to %s" % (r, r, t, mt))
            lines.append("    %s_u = memref.cast %s_m : %s to memref<*x%s>" % (r, r, mt, et))
            lines.append("    func.call @%s(%s_u) : (memref<*x%s>) -> ()" % (fn, r, et))
            case_kinds.append((dims, {"f32": np.float32, "i64": np.int64, "i32": np.int32}[et]))
        kinds.append(case_kinds)
    lines.append("    return")
    lines.append("  }")
    prefix, body = _split_module(text)
    return prefix + "\nmodule {\n" + body + "\n" + "\n".join(lines) + "\n}\n", kinds


_HEADER = re.compile(r"sizes = \[([^\]]*)\].*?data =", re.S)
_NUMBER = re.compile(r"[-+]?(?:nan|inf|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)", re.I)


def parse_printed(out, kinds):
    headers = list(_HEADER.finditer(out))
    if len(headers) != len(kinds):
        raise RunError("expected %d printed results, found %d:\n%s"
                       % (len(kinds), len(headers), out[-2000:]))
    results = []
    for k, (h, (dims, dtype)) in enumerate(zip(headers, kinds)):
        end = headers[k + 1].start() if k + 1 < len(headers) else len(out)
        body = out[h.end():end]
        depth, stop = 0, len(body)
        for i, c in enumerate(body):
            if c == "[":
                depth += 1
            elif c == "]":
                depth -= 1
                if depth == 0:
                    stop = i + 1
                    break
        vals = [float(v) for v in _NUMBER.findall(body[:stop])]
        arr = np.asarray(vals, dtype=np.float64)
        if arr.size != int(np.prod(dims, dtype=np.int64)):
            raise RunError("result %d: %d values for shape %s" % (k, arr.size, dims))
        results.append(arr.reshape(dims).astype(dtype))
    return results


def run_mlir(text, inputs, func_name="main", precision=None, options="", keep=None):
    """Convert (precision f16/bf16, or None for as-is), lower, run; the results."""
    return run_many([(text, inputs, func_name)], precision, options, keep)[0]


def run_many(cases, precision=None, options="", keep=None):
    """run_mlir for several (text, inputs, func_name) at once: one compile,
    one runner process. Returns one list of results per case."""
    amp_opt = find_amp_opt()
    with tempfile.TemporaryDirectory(prefix="amp-onnx-") as tmp:
        text = combine([c[0] for c in cases])
        if precision:
            src = os.path.join(tmp, "model.mlir")
            with open(src, "w") as f:
                f.write(text)
            opt = "precision=%s%s" % (precision, (" " + options) if options else "")
            text = _check([amp_opt, src, "-p", "builtin.module(mixed-precision{%s})" % opt],
                          "amp-opt --mixed-precision")
        full, kinds = driver(text, [(c[1], c[2]) for c in cases])
        src = os.path.join(tmp, "driver.mlir")
        with open(src, "w") as f:
            f.write(full)
        if keep:
            shutil.copy(src, keep)
        low = os.path.join(tmp, "lowered.mlir")
        _check([amp_opt, src, "-p", "builtin.module(amp-lower-to-llvm)", "-o", low],
               "amp-opt amp-lower-to-llvm")
        libs = ",".join(os.path.join(LLVM_LIB, l) for l in
                        ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
        out = _check([os.path.join(LLVM_BIN, "mlir-runner"), low, "-e", "amp_onnx_driver",
                      "-entry-point-result=void", "-shared-libs=" + libs], "mlir-runner")
        flat = parse_printed(out, [k for ks in kinds for k in ks])
        results, i = [], 0
        for ks in kinds:
            results.append(flat[i:i + len(ks)])
            i += len(ks)
        return results


def _check(cmd, what):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise RunError("cannot run %s (%s): %s" % (what, cmd[0], e)) from None
    if p.returncode != 0:
        raise RunError("%s failed (exit %d):\n%s" % (what, p.returncode, p.stderr[-4000:]))
    return p.stdout


def find_amp_run():
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.normpath(os.path.join(here, "..", "..", "..", "build", "bin", "amp-run"))
    if os.path.exists(built):
        return built
    return shutil.which("amp-run")


def run_amp_run(text, inputs, func_name="main", precision=None, options=""):
    """run_mlir through amp's own runner (build/bin/amp-run): .npy inputs and
    outputs, so results are exact rather than printed to 6 digits."""
    amp_run = find_amp_run()
    if not amp_run:
        raise RunError("amp-run not found: build amp")
    with tempfile.TemporaryDirectory(prefix="amp-onnx-") as tmp:
        src = os.path.join(tmp, "model.mlir")
        with open(src, "w") as f:
            f.write(text)
        if precision:
            conv = os.path.join(tmp, "converted.mlir")
            opt = "precision=%s%s" % (precision, (" " + options) if options else "")
            _check([find_amp_opt(), src, "-p", "builtin.module(mixed-precision{%s})" % opt,
                    "-o", conv], "amp-opt --mixed-precision")
            src = conv
        args, results = _signature(text, func_name)
        cmd = [amp_run, src, "--entry=" + func_name, "--backend=cpu"]
        for i, x in enumerate(inputs):
            path = os.path.join(tmp, "in%d.npy" % i)
            np.save(path, np.asarray(x))
            cmd.append("--input=" + path)
        outs = [os.path.join(tmp, "out%d.npy" % i) for i in range(len(_split_types(results)))]
        cmd += ["--output=" + o for o in outs]
        _check(cmd, "amp-run")
        return [np.load(o) for o in outs]

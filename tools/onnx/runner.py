# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Run imported (tensor-level) MLIR functions on the CPU with amp-run.

    from runner import run_mlir, run_many
    outputs = run_mlir(text, [x], func_name="main", precision="bf16")

The functions are optionally converted with `amp-opt --mixed-precision`
(precision f16/bf16, extra pass options), then run by amp-run
(docs/Runner.md), which lowers them with amp's CPU pipeline and exchanges
inputs and results as .npy files: results are exact, not printed text.

amp-run exchanges f16, bf16, f32, f64, i32 and i64; for anything else (i1,
i8, i16, ui8) and for bf16 this module adds an entry function that converts
arguments from i32/f32 and results to i32/f32, and gives the results back in
the function's own numpy dtype (bool, int8, ...; bf16 as float32). Several
functions run through one entry that calls them all, so that a batch of
cases is compiled once; `run_each` splits a large batch into chunks, runs
them in parallel and isolates a case that does not compile or run.

Tools: $AMP_RUN and $AMP_OPT, else build/bin of this source tree, else PATH.
"""

import concurrent.futures
import os
import re
import shutil
import subprocess
import tempfile

import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

ENTRY = "amp_onnx_entry"


class RunError(Exception):
    pass


def _find(tool, env):
    path = os.environ.get(env)
    if path:
        return path
    built = os.path.join(ROOT, "build", "bin", tool)
    if os.path.exists(built):
        return built
    found = shutil.which(tool)
    if found:
        return found
    raise RunError("%s not found: build amp or set $%s" % (tool, env))


def find_amp_run():
    return _find("amp-run", "AMP_RUN")


def find_amp_opt():
    return _find("amp-opt", "AMP_OPT")


# --- signatures ----------------------------------------------------------------

_SIG = re.compile(r"func\.func @(\S+)\((.*?)\) -> (.*?) \{")

_DTYPES = {"f32": np.float32, "f16": np.float16, "f64": np.float64, "i64": np.int64,
           "i32": np.int32, "i16": np.int16, "i8": np.int8, "ui8": np.uint8, "i1": np.bool_,
           "bf16": np.float32}


def parse_type(t):
    """(dims, element type, numpy dtype) of `tensor<AxBxf32>`; bf16's numpy
    dtype is float32 (what it is exchanged as)."""
    body = t[len("tensor<"):-1]
    parts = body.split("x")
    et = parts[-1]
    dims = [int(p) for p in parts[:-1]]
    return dims, et, _DTYPES.get(et)


def signature(text, func_name):
    """([argument types], [result types]) of @func_name in module text."""
    for m in _SIG.finditer(text):
        if m.group(1) == func_name:
            return (re.findall(r"tensor<[^>]*>", m.group(2)),
                    re.findall(r"tensor<[^>]*>", m.group(3)))
    raise RunError("function @%s not found" % func_name)


# --- modules -------------------------------------------------------------------

def _split_module(text):
    """(prefix, body): attribute aliases before `module {`, and the ops inside."""
    lines = text.rstrip().splitlines()
    for i, line in enumerate(lines):
        if line.startswith("module"):
            last = max(j for j, l in enumerate(lines) if l.rstrip() == "}")
            return "\n".join(lines[:i]), "\n".join(lines[i + 1:last])
    return "", text


def combine(texts):
    """One module holding the functions of several modules (attribute
    aliases of printed modules are kept; they must not clash)."""
    parts = [_split_module(t) for t in texts]
    prefix = "\n".join(p for p, _ in parts if p.strip())
    return prefix + "\nmodule {\n" + "\n".join(b for _, b in parts) + "\n}\n"


def _with_type(t, et):
    return t[:t.rindex("x") + 1] + et + ">" if "x" in t[len("tensor<"):] else "tensor<%s>" % et


# Argument element types amp-run cannot exchange: (exchanged as, conversion).
_ARG_CONVERSIONS = {"bf16": ("f32", "arith.truncf"), "i1": ("i32", "arith.trunci"),
                    "i8": ("i32", "arith.trunci"), "i16": ("i32", "arith.trunci"),
                    "ui8": ("i32", "arith.trunci")}
# Result element types amp-run cannot exchange: (exchanged as, conversion).
_RESULT_CONVERSIONS = {"bf16": ("f32", "arith.extf"), "i1": ("i32", "arith.extui"),
                       "i8": ("i32", "arith.extsi"), "i16": ("i32", "arith.extsi"),
                       "ui8": ("i32", "arith.extui")}


def entry(text, calls):
    """`text` (one module) plus @amp_onnx_entry, which takes the arguments of
    every call [(inputs, func name)] in order, calls each function and
    returns all their results. Returns (module text, [input arrays as
    amp-run reads them], [(result count, [numpy dtype per result])] per call).
    """
    args, arg_types, body, rets, ret_types, arrays, kinds = [], [], [], [], [], [], []
    for c, (inputs, func_name) in enumerate(calls):
        in_types, out_types = signature(text, func_name)
        if len(in_types) != len(inputs):
            raise RunError("@%s takes %d inputs, %d given"
                           % (func_name, len(in_types), len(inputs)))
        operands = []
        for i, (t, x) in enumerate(zip(in_types, inputs)):
            dims, et, dtype = parse_type(t)
            x = np.asarray(x)
            if list(x.shape) != dims:
                raise RunError("input %d of @%s has shape %s, it takes %s"
                               % (i, func_name, list(x.shape), t))
            if dtype is None:
                raise RunError("@%s: %s arguments are not supported" % (func_name, et))
            name = "%%a%d" % len(args)
            if et in _ARG_CONVERSIONS:
                wide_et, op = _ARG_CONVERSIONS[et]
                wide = _with_type(t, wide_et)
                arrays.append(np.array(x, dtype=_DTYPES[wide_et], order="C"))
                args.append(name)
                arg_types.append(wide)
                value = "%%c%d_in%d" % (c, i)
                if et == "ui8":
                    narrow = _with_type(t, "i8")
                    body.append("%s_s = %s %s : %s to %s" % (value, op, name, wide, narrow))
                    body.append("%s = tensor.bitcast %s_s : %s to %s" % (value, value, narrow, t))
                else:
                    body.append("%s = %s %s : %s to %s" % (value, op, name, wide, t))
                operands.append(value)
            else:
                arrays.append(np.array(x, dtype=dtype, order="C"))
                args.append(name)
                arg_types.append(t)
                operands.append(name)
        results = ["%%c%d_r%d" % (c, i) for i in range(len(out_types))]
        call = "func.call @%s(%s) : (%s) -> (%s)" % (func_name, ", ".join(operands),
                                                     ", ".join(in_types), ", ".join(out_types))
        body.append(("%s = %s" % (", ".join(results), call)) if results else call)
        dtypes = []
        for r, t in zip(results, out_types):
            dims, et, dtype = parse_type(t)
            if dtype is None:
                raise RunError("@%s: %s results are not supported" % (func_name, et))
            if et in _RESULT_CONVERSIONS:
                wide_et, op = _RESULT_CONVERSIONS[et]
                wide = _with_type(t, wide_et)
                src, src_t = r, t
                if et == "ui8":
                    src_t = _with_type(t, "i8")
                    body.append("%s_s = tensor.bitcast %s : %s to %s" % (r, r, t, src_t))
                    src = r + "_s"
                body.append("%s_x = %s %s : %s to %s" % (r, op, src, src_t, wide))
                rets.append(r + "_x")
                ret_types.append(wide)
            else:
                rets.append(r)
                ret_types.append(t)
            dtypes.append(np.dtype(dtype))
        kinds.append((len(out_types), dtypes))
    lines = ["  func.func @%s(%s) -> (%s) {"
             % (ENTRY, ", ".join("%s: %s" % a for a in zip(args, arg_types)),
                ", ".join(ret_types))]
    lines += ["    " + b for b in body]
    lines.append("    return %s : %s" % (", ".join(rets), ", ".join(ret_types)))
    lines.append("  }")
    prefix, mbody = _split_module(text)
    return (prefix + "\nmodule {\n" + mbody + "\n" + "\n".join(lines) + "\n}\n", arrays,
            kinds)


def _check(cmd, what):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise RunError("cannot run %s (%s): %s" % (what, cmd[0], e)) from None
    if p.returncode != 0:
        raise RunError("%s failed (exit %d):\n%s" % (what, p.returncode, p.stderr[-4000:]))
    return p.stdout


# --- running -------------------------------------------------------------------

def convert(text, precision, options="", tmp=None):
    """`text` through amp-opt's mixed-precision{precision=... options}."""
    with tempfile.TemporaryDirectory(prefix="amp-onnx-", dir=tmp) as work:
        src = os.path.join(work, "model.mlir")
        with open(src, "w") as f:
            f.write(text)
        opt = "precision=%s%s" % (precision, (" " + options) if options else "")
        return _check([find_amp_opt(), src, "-p", "builtin.module(mixed-precision{%s})" % opt],
                      "amp-opt --mixed-precision")


def _run_batch(cases, precision, options, keep, backend="cpu"):
    """One amp-opt (with precision) and one amp-run for all `cases`, on
    `backend` (amp-run --backend)."""
    amp_run = find_amp_run()
    text = combine([c[0] for c in cases])
    if precision:
        text = convert(text, precision, options)
    full, arrays, kinds = entry(text, [(c[1], c[2]) for c in cases])
    with tempfile.TemporaryDirectory(prefix="amp-onnx-") as tmp:
        src = os.path.join(tmp, "entry.mlir")
        with open(src, "w") as f:
            f.write(full)
        if keep:
            shutil.copy(src, keep)
        cmd = [amp_run, src, "--entry=" + ENTRY, "--backend=" + backend]
        for i, x in enumerate(arrays):
            path = os.path.join(tmp, "in%d.npy" % i)
            np.save(path, x)
            cmd.append("--input=" + path)
        total = sum(n for n, _ in kinds)
        outs = [os.path.join(tmp, "out%d.npy" % i) for i in range(total)]
        cmd += ["--output=" + o for o in outs]
        _check(cmd, "amp-run")
        flat = [np.load(o) for o in outs]
    results, i = [], 0
    for n, dtypes in kinds:
        results.append([a.astype(d) if a.dtype != d else a
                        for a, d in zip(flat[i:i + n], dtypes)])
        i += n
    return results


def run_each(cases, precision=None, options="", chunk=64, jobs=None):
    """Runs (text, inputs, func_name) cases, `chunk` at a time, chunks in
    parallel (`jobs` processes, default the CPU count). Returns, per case,
    its list of results or the RunError saying why it did not compile or
    run (a failing chunk is rerun case by case to find out)."""
    chunks = [cases[i:i + chunk] for i in range(0, len(cases), chunk)]

    def run_chunk(batch):
        try:
            return _run_batch(batch, precision, options, None)
        except RunError as e:
            if len(batch) == 1:
                return [e]
        out = []
        for case in batch:
            try:
                out.append(_run_batch([case], precision, options, None)[0])
            except RunError as e:
                out.append(e)
        return out

    jobs = jobs or os.cpu_count() or 1
    if len(chunks) <= 1 or jobs == 1:
        done = [run_chunk(b) for b in chunks]
    else:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            done = list(pool.map(run_chunk, chunks))
    return [r for batch in done for r in batch]


def run_many(cases, precision=None, options="", keep=None, backend="cpu"):
    """Results (a list of arrays) for each (text, inputs, func_name) case,
    compiled and run together on `backend` (cpu, vulkan, cuda); raises
    RunError when any fails. keep: a path to copy the module amp-run ran
    to."""
    return _run_batch(cases, precision, options, keep, backend)


def run_mlir(text, inputs, func_name="main", precision=None, options=""):
    """Convert (precision f16/bf16, or None for as-is) and run one function;
    its results."""
    return run_many([(text, inputs, func_name)], precision, options)[0]

# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""calibrate() and find_nonfinite(): amp-run with probes, as a subprocess;
compile(): amp-compile's work in-process, through the C API.

amp-run is looked for, in order: $AMP_RUN (the file; when set, the only
place tried); bin/amp-run next to the lib/ folder of the C API library
amp loads (a build tree's build/bin, an install prefix's bin); amp-run on
the PATH. The arrays go to amp-run
as .npy files, so calibrate() and find_nonfinite() need NumPy (the rest of
the package does not).
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import warnings

from . import _capi
from ._convert import ConvertResult
from ._core import AmpError, AmpOptionError

# func.func @name( without `private`: the functions amp-run may call.
_PUBLIC_FUNCTION = re.compile(r"func\.func\s+(?:public\s+)?@([A-Za-z_][\w$.-]*)\s*\(")
_FUNCTION = re.compile(r"func\.func\s+(?:(?:public|private|nested)\s+)?@([A-Za-z_][\w$.-]*)\s*\(")


def amp_run_path():
    """The amp-run executable calibrate() and find_nonfinite() run; raises
    AmpError listing where it looked when there is none."""
    env = os.environ.get("AMP_RUN")
    if env:
        if os.path.isfile(env):
            return env
        raise AmpError(f"$AMP_RUN is {env!r}, which is not a file")
    tried = []
    library = _capi.library_path()
    if os.sep in library:
        candidate = os.path.join(os.path.dirname(os.path.dirname(library)), "bin",
                                 "amp-run")
        if os.path.isfile(candidate):
            return candidate
        tried.append(candidate)
    found = shutil.which("amp-run")
    if found:
        return found
    tried.append("amp-run on the PATH")
    raise AmpError("cannot find amp-run; looked in: " + ", ".join(tried)
                   + " (build amp, or set $AMP_RUN)")


def _numpy():
    try:
        import numpy
    except ImportError as e:
        raise AmpError("calibrate() and find_nonfinite() need NumPy") from e
    return numpy


def _text(ir, what):
    if isinstance(ir, ConvertResult):
        return ir.ir
    if not isinstance(ir, str):
        raise TypeError(f"{what} must be MLIR text (str) or a ConvertResult, not "
                        f"{type(ir).__name__}")
    return ir


def _entry(ir, entry):
    """`entry`, or the one public function of `ir` when it is None."""
    if entry is not None:
        if not isinstance(entry, str) or not entry:
            raise AmpOptionError(f"entry must be a function name (str), not {entry!r}")
        return entry
    names = [m.group(1) for m in _FUNCTION.finditer(ir)
             if _PUBLIC_FUNCTION.match(m.group(0))]
    if len(names) != 1:
        raise AmpOptionError("give the function to run with entry=: the program has "
                             + (f"{len(names)} public functions ({', '.join(names)})"
                                if names else "no public function"))
    return names[0]


def _input_sets(inputs):
    """[[array, ...], ...]: one list per call. `inputs` is a list of arrays
    (one call) or a list of such lists (one call each)."""
    np = _numpy()
    if not isinstance(inputs, (list, tuple)):
        raise AmpOptionError("inputs must be a list of arrays (one call) or a list of "
                             f"lists of arrays (one call each), not {type(inputs).__name__}")
    several = len(inputs) > 0 and all(isinstance(s, (list, tuple)) for s in inputs)
    sets = [list(s) for s in inputs] if several else [list(inputs)]
    arrays = []
    for k, arguments in enumerate(sets):
        converted = []
        for i, a in enumerate(arguments):
            if isinstance(a, (list, tuple)):
                raise AmpOptionError(f"inputs: call {k} argument {i} is a list; give "
                                     "arrays, or one list of arrays per call")
            a = np.asarray(a)
            if a.dtype.kind not in "fiu":
                raise AmpOptionError(f"inputs: call {k} argument {i} has dtype {a.dtype}; "
                                     "amp-run takes float and integer arrays")
            converted.append(a)
        arrays.append(converted)
    return arrays


def _run(args, what):
    try:
        done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    except OSError as e:
        raise AmpError(f"{what}: cannot run {args[0]}: {e}") from e
    if done.returncode != 0:
        raise AmpError(f"{what} failed (amp-run exit status {done.returncode}):\n"
                       + done.stderr.strip())
    return done.stdout


def _file_name(name):
    """The file an MLIR text is written to so that amp-run's locations name
    it as amp.convert(name=...) does: formatLocation keeps a location's
    file name only."""
    if not isinstance(name, str) or not os.path.basename(name) or \
            os.path.basename(name) in (".", ".."):
        raise AmpOptionError(f"name must name a file (str), not {name!r}")
    return os.path.basename(name)


def _write(folder, name, text):
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def _prepare(tmp, ir, inputs, entry, name):
    """Writes the program (as `name`) and the inputs under `tmp`; returns
    amp-run's arguments for them."""
    np = _numpy()
    program = _write(os.path.join(tmp, "program"), name, ir)
    folders = []
    for k, arguments in enumerate(_input_sets(inputs)):
        folder = os.path.join(tmp, f"call{k}")
        os.makedirs(folder)
        for i, a in enumerate(arguments):
            np.save(os.path.join(folder, f"arg{i}.npy"), a)
        folders.append(folder)
    # Float arrays of another dtype (NumPy's float64) are rounded to the
    # argument's type, as amp-run --cast-inputs does.
    return [amp_run_path(), program, f"--entry={entry}",
            "--input-dir=" + ",".join(folders), "--cast-inputs"]


def calibrate(ir, inputs, entry=None, path=None, name="<input>"):
    """Runs the f32 program `ir` (MLIR text) on the CPU with a probe after
    every op (amp-run --calibrate) and returns the ranges it observed, the
    dict of the ranges file that mixed-precision{ranges=...} reads (and
    amp.convert(ranges=...) takes): {"amp_ranges_version": 1, "calls": N,
    "values": [{"op", "result", "name", "loc", "count", "min", "max",
    "max_abs", "min_nonzero_abs", "f16_zero_or_subnormal",
    "bf16_zero_or_subnormal", "nonfinite"}, ...]}.

    inputs: the arguments of one call (a list of NumPy arrays, or values
            np.asarray takes; float arrays are rounded to the argument's
            float type), or a list of such lists, one call each.
    entry:  the function to call; None when the program has one public
            function.
    path:   also write the ranges file there.
    name:   the name locations give the text, as amp.convert's `name`: the
            ranges name each op's location, and the pass checks them
            against the program it converts (the same text, the same name).

    Raises AmpError with amp-run's message when it fails.
    """
    ir = _text(ir, "ir")
    entry = _entry(ir, entry)
    name = _file_name(name)
    with tempfile.TemporaryDirectory(prefix="amp-calibrate-") as tmp:
        args = _prepare(tmp, ir, inputs, entry, name)
        out = os.fspath(path) if path is not None else os.path.join(tmp, "ranges.json")
        _run(args + [f"--calibrate={out}"], "calibrate")
        with open(out) as f:
            return json.load(f)


def find_nonfinite(ir, inputs, entry=None, f32=None, name="<input>"):
    """Runs the program `ir` (a converted one) on the CPU with a probe after
    every op (amp-run --find-nonfinite) and returns what it found, a dict:

      found:  whether some value held inf or NaN;
      first:  (when found) the first one, in the order the program computed
              them: {"kind": "op", "op", "name", "loc", "result", "call",
              "elements", "nonfinite", "operands": [{"operand", "source":
              "op"|"argument"|"unobserved", "count", "min", "max",
              "max_abs", "nonfinite", ...}]}, or {"kind": "argument",
              "argument", ...} for an input holding inf or NaN;
      f32:    (with f32=) the same op in the f32 program: {"match":
              "location"|"position"|"none", "finite", "max_abs", "count",
              "nonfinite", ...};
      text:   amp-run's report as printed.

    f32: the f32 program `ir` was converted from (MLIR text), run on the
    same inputs, and `name` the name it was converted under (amp.convert's
    `name`). Its op is the one at the same location when `ir` kept the
    f32 program's locations, else the one of the same name at the same
    rank among ops of that name (match "position"). `ir` itself is
    written as "converted.mlir".
    """
    ir = _text(ir, "ir")
    entry = _entry(ir, entry)
    name = _file_name(name)
    with tempfile.TemporaryDirectory(prefix="amp-nonfinite-") as tmp:
        args = _prepare(tmp, ir, inputs, entry, "converted.mlir")
        report = os.path.join(tmp, "report.json")
        args += ["--find-nonfinite", f"--nonfinite-report={report}"]
        if f32 is not None:
            original = _write(os.path.join(tmp, "f32"), name, _text(f32, "f32"))
            args.append(f"--f32={original}")
        stdout = _run(args, "find_nonfinite")
        with open(report) as f:
            result = json.load(f)
    lines = stdout.splitlines()
    start = next((i for i, l in enumerate(lines)
                  if l.startswith(("first non-finite:", "no non-finite values"))),
                 len(lines))
    result["text"] = "\n".join(lines[start:])
    return result


def compile(ir, output, entry=None, header=None, function=None, threads=1,
            opt_level=3, name="<input>", compiler=None):
    """Compiles the function `entry` of `ir` (MLIR text or a ConvertResult;
    by default its one public function) ahead of time into the shared
    library `output` (a .so file), as amp-compile does, in-process through
    the C API (ampModuleCompileLibrary): amp's CPU pipeline for this host's
    CPU, and a C entry `function` (default amp_<entry>) taking one pointer
    per tensor argument and one per result, dense and row-major
    (docs/Embedding.md, "Deploying"). With `header`, also writes a C header
    declaring it. With threads > 1 large ops run on that many OpenMP
    threads (the library then needs LLVM's libomp). The C compiler that
    links is `compiler`, else $CC, else cc.

    The library needs libc and libm only (and libomp): no MLIR, no LLVM, no
    Python. The compiled code is kept in the compile cache amp-run shares
    (off with AMP_NO_CACHE=1): compiling a program again only links it; what
    goes wrong with the cache is a warning. Returns `output`. Bad arguments
    raise AmpOptionError; a failure raises AmpError with the one-line reason.
    """
    from ._core import Context
    ir = _text(ir, "ir")
    for option, value in (("output", output), ("header", header)):
        if value is not None and (not isinstance(value, (str, os.PathLike))
                                  or not os.fspath(value)):
            raise AmpOptionError(f"compile: {option} must be a path, not {value!r}")
    if output is None:
        raise AmpOptionError("compile: output must be a path, not None")
    entry = _entry(ir, entry)
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
        raise AmpOptionError(f"compile: threads must be an int >= 1, not {threads!r}")
    if isinstance(opt_level, bool) or not isinstance(opt_level, int) or opt_level < 0:
        raise AmpOptionError(f"compile: opt_level must be an int in [0, 3], not {opt_level!r}")
    with Context() as context:
        module = context.parse(ir, name)
        module.compile_library(output, entry=entry, function=function, header=header,
                               threads=threads, opt_level=opt_level, compiler=compiler)
        for diagnostic in context.take_diagnostics():
            if diagnostic.severity == "warning":
                warnings.warn(diagnostic.message, stacklevel=2)
    return os.fspath(output)

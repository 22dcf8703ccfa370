# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Running a tensor-level MLIR function on the CPU with numpy inputs.

Two ways, the first that works is used:

  amp-run   build/bin/amp-run FILE --entry=main --backend=cpu --input=*.npy
            --output=*.npy: lowers with amp's CPU pipeline and JIT-runs it;
            results come back bit-exact through .npy files.
  fallback  a generated driver that embeds the inputs as constants and
            prints the results, lowered by amp-opt (TOSA to linalg, tensor
            and arith first, transpose_conv2d decomposed, f16/bf16 math that
            LLVM lacks (erf) computed in f32, math.erf as libm's erff, then
            amp-lower-to-llvm) and run by mlir-runner. printMemrefF32 prints
            6 significant digits, so errors below ~1e-6 relative are not
            resolved this way.
"""

import os
import re
import subprocess
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, "build", "bin")
LLVM = "/usr/lib/llvm-22"


class RunError(Exception):
    pass


def amp_opt():
    return os.environ.get("AMP_OPT", os.path.join(BIN, "amp-opt"))


def amp_run():
    """$AMP_RUN, else amp-run next to amp-opt."""
    return os.environ.get("AMP_RUN", os.path.join(os.path.dirname(amp_opt()), "amp-run"))


def _check(cmd, what, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if p.returncode != 0:
        raise RunError("%s failed (exit %d):\n%s" % (what, p.returncode, p.stderr[-3000:]))
    return p.stdout


def run_amp_run(path, inputs, n_outputs, tmp, opt):
    tool = amp_run()
    if not os.path.exists(tool):
        raise RunError("amp-run is not built")
    cmd = [tool, path, "--entry=main", "--backend=cpu", "-O%d" % opt]
    for k, x in enumerate(inputs):
        f = os.path.join(tmp, "in%d.npy" % k)
        np.save(f, np.ascontiguousarray(x))
        cmd.append("--input=" + f)
    outs = [os.path.join(tmp, "out%d.npy" % k) for k in range(n_outputs)]
    cmd += ["--output=" + f for f in outs]
    _check(cmd, "amp-run")
    return [np.load(f).astype(np.float32) for f in outs]


_SIG = re.compile(r"func\.func @main\((.*?)\) -> (.*?) \{")
_TENSOR = re.compile(r"tensor<[^>]*>")
_HEADER = re.compile(r"sizes = \[([^\]]*)\].*?data =", re.S)
_NUMBER = re.compile(r"[-+]?(?:nan|inf|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)", re.I)


def driver(text, inputs):
    """`text` with an @amp_acc_driver that calls @main on the inputs (f32
    constants) and prints every f32 result with printMemrefF32."""
    m = _SIG.search(text)
    if not m:
        raise RunError("no func.func @main with a result found")
    arg_types, res_types = _TENSOR.findall(m.group(1)), _TENSOR.findall(m.group(2))
    if len(arg_types) != len(inputs):
        raise RunError("@main takes %d inputs, %d given" % (len(arg_types), len(inputs)))
    lines = ["  func.func private @printMemrefF32(memref<*xf32>)",
             "  func.func @amp_acc_driver() {"]
    for i, (t, x) in enumerate(zip(arg_types, inputs)):
        if not t.endswith("xf32>"):
            raise RunError("input %d: only f32 inputs are supported, @main takes %s" % (i, t))
        data = np.ascontiguousarray(x, dtype="<f4").tobytes().hex().upper()
        lines.append('    %%in%d = arith.constant dense<"0x%s"> : %s' % (i, data, t))
    lines.append("    %s = func.call @main(%s) : (%s) -> (%s)" % (
        ", ".join("%%r%d" % i for i in range(len(res_types))),
        ", ".join("%%in%d" % i for i in range(len(inputs))), ", ".join(arg_types),
        ", ".join(res_types)))
    shapes = []
    for i, t in enumerate(res_types):
        if not t.endswith("xf32>"):
            raise RunError("result %d: only f32 results are supported, @main returns %s" % (i, t))
        dims = t[len("tensor<"):-len("xf32>")]
        shapes.append([int(d) for d in dims.split("x")])
        lines.append("    %%m%d = bufferization.to_buffer %%r%d : %s to memref<%sxf32>"
                     % (i, i, t, dims))
        lines.append("    %%u%d = memref.cast %%m%d : memref<%sxf32> to memref<*xf32>" % (i, i, dims))
        lines.append("    func.call @printMemrefF32(%%u%d) : (memref<*xf32>) -> ()" % i)
    lines += ["    return", "  }"]
    end = text.rstrip().rfind("}")
    return text[:end] + "\n".join(lines) + "\n}\n", shapes


def parse_printed(out, shapes):
    headers = list(_HEADER.finditer(out))
    if len(headers) != len(shapes):
        raise RunError("expected %d printed results, found %d" % (len(shapes), len(headers)))
    results = []
    for k, (h, dims) in enumerate(zip(headers, shapes)):
        end = headers[k + 1].start() if k + 1 < len(headers) else len(out)
        vals = np.array([float(v) for v in _NUMBER.findall(out[h.end():end])])
        n = int(np.prod(dims))
        if vals.size < n:
            raise RunError("result %d: %d values for shape %s" % (k, vals.size, dims))
        results.append(vals[:n].reshape(dims).astype(np.float32))
    return results


def run_fallback(path, inputs, tmp, opt):
    with open(path) as f:
        text = f.read()
    full, shapes = driver(text, inputs)
    drv = os.path.join(tmp, "driver.mlir")
    with open(drv, "w") as f:
        f.write(full)
    low = os.path.join(tmp, "lowered.mlir")
    _check([amp_opt(), drv, "-p",
            "builtin.module(func.func(tosa-optional-decompositions,tosa-to-linalg-named,"
            "tosa-to-linalg,tosa-to-arith,tosa-to-tensor,math-extend-to-supported-types),"
            "convert-math-to-libm,amp-lower-to-llvm)",
            "-o", low], "amp-opt (lowering)")
    # math-extend-to-supported-types marks its llvm.fpext with an arith
    # fastmath attribute that mlir-runner's context (no arith dialect)
    # cannot parse; it means nothing on an extension.
    with open(low) as f:
        lowered = f.read().replace(" {fastmath = #arith.fastmath<contract>}", "")
    with open(low, "w") as f:
        f.write(lowered)
    libs = ",".join(os.path.join(LLVM, "lib", l) for l in
                    ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
    out = _check([os.path.join(LLVM, "bin", "mlir-runner"), low, "-O%d" % opt, "-e", "amp_acc_driver",
                  "-entry-point-result=void", "-shared-libs=" + libs], "mlir-runner")
    return parse_printed(out, shapes)


_WORKING = []  # the method that worked last, tried first next time


def run(path, inputs, n_outputs=1, opt=0):
    """Runs @main of the MLIR file at `path`; a list of float32 arrays.

    `opt` is the JIT's optimisation level: compiling at -O2 costs more time
    than it saves on all but the largest model here.
    """
    errors = []
    methods = [("amp-run", lambda t: run_amp_run(path, inputs, n_outputs, t, opt)),
               ("fallback", lambda t: run_fallback(path, inputs, t, opt))]
    methods.sort(key=lambda m: m[0] not in _WORKING)
    for name, fn in methods:
        with tempfile.TemporaryDirectory(prefix="amp-acc-") as tmp:
            try:
                result = fn(tmp)
            except (RunError, OSError) as e:
                errors.append("%s: %s" % (name, e))
                continue
        _WORKING[:] = [name]
        return result
    raise RunError("\n".join(errors))


def method():
    return _WORKING[0] if _WORKING else None

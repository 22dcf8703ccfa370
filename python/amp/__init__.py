# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""amp from Python: convert MLIR programs to mixed precision, in-process.

    import amp
    result = amp.convert(open("examples/mlp.mlir").read(), precision="bf16")
    print(result.ir)                      # the converted program
    print(result.report["summary"])       # ops low / f32, casts, bytes
    for op in result.report["ops"]:       # why each op runs where it does
        print(op["op"], op["mode"], op["reason"])
    llvm = amp.lower(result, target="cpu")
    amp.compile(result, "libmlp.so", header="mlp.h")   # a C library (amp-compile)
    # Ranges observed by running the f32 program (amp-run, NumPy):
    ranges = amp.calibrate(f32_text, [x, w])
    result = amp.convert(f32_text, ranges=ranges)
    amp.find_nonfinite(result, [x, w], f32=f32_text)["first"]
    # The most low-precision policy that meets a tolerance (docs/Accuracy.md):
    tuned = amp.tune(f32_text, [[x, w]], precision="bf16", budget="max-rel=0.01")

The package loads amp's C API library (libAmpCAPI.so) with ctypes, from
$AMP_CAPI_LIBRARY, else the path recorded in amp/_library_path.txt, else an
installed prefix's lib/, else build/lib of this source tree (`amp._capi`).
Failures raise AmpError with MLIR's diagnostics; bad option values raise
AmpOptionError (also a ValueError). `Context` and `Module` run any pass
pipeline. See docs/Python.md.
"""

from ._convert import ConvertResult, backend_options, backends, convert, lower
from ._core import (AmpError, AmpOptionError, Context, Diagnostic,
                    LowPrecisionWarning, Module, version)
from ._run import calibrate, compile, find_nonfinite
from ._tune import Budget, TuneResult, tune
from ._version import __version__

__all__ = ["AmpError", "AmpOptionError", "Context", "ConvertResult", "Diagnostic",
           "backend_options", "backends",
           "Budget", "LowPrecisionWarning", "Module", "TuneResult", "__version__", "calibrate", "compile",
           "convert", "find_nonfinite", "lower", "tune", "version"]

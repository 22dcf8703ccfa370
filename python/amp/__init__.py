"""amp from Python: convert MLIR programs to mixed precision, in-process.

    import amp
    result = amp.convert(open("examples/mlp.mlir").read(), precision="bf16")
    print(result.ir)                      # the converted program
    print(result.report["summary"])       # ops low / f32, casts, bytes
    for op in result.report["ops"]:       # why each op runs where it does
        print(op["op"], op["mode"], op["reason"])
    llvm = amp.lower(result, target="cpu")

The package loads amp's C API library (libAmpCAPI.so: $AMP_CAPI_LIBRARY, else
build/lib of this source tree) with ctypes. Failures raise AmpError with
MLIR's diagnostics. `Context` and `Module` run any pass pipeline. See
docs/Python.md.
"""

from ._convert import ConvertResult, convert, lower
from ._core import AmpError, Context, Diagnostic, Module, version

__all__ = ["AmpError", "Context", "ConvertResult", "Diagnostic", "Module",
           "convert", "lower", "version"]

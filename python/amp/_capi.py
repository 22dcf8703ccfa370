"""ctypes declarations of amp's C API (include/amp-c/Amp.h).

The library is found through $AMP_CAPI_LIBRARY (the file, or the folder that
holds it), then in build/lib of the source tree this package belongs to. It
is loaded on first use, so that `import amp` works before amp is built.
"""

import ctypes
import os
import sys
import threading

_LIBRARY_NAME = {"darwin": "libAmpCAPI.dylib", "win32": "AmpCAPI.dll"}.get(
    sys.platform, "libAmpCAPI.so")


class AmpDiagnostic(ctypes.Structure):
    """struct AmpDiagnostic."""
    _fields_ = [("severity", ctypes.c_int),
                ("location", ctypes.c_char_p),
                ("message", ctypes.c_char_p)]


# AmpSeverity values, in order.
SEVERITIES = ("error", "warning", "note", "remark")

# ampModulePrint flags.
PRINT_DEBUG_INFO = 1
PRINT_GENERIC_FORM = 2


def library_path():
    """Where libAmpCAPI is expected: $AMP_CAPI_LIBRARY, else build/lib."""
    env = os.environ.get("AMP_CAPI_LIBRARY")
    if env:
        return os.path.join(env, _LIBRARY_NAME) if os.path.isdir(env) else env
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.path.join(root, "build", "lib", _LIBRARY_NAME)


def _declare(lib):
    c_void_p, c_size_t = ctypes.c_void_p, ctypes.c_size_t
    signatures = {
        "ampGetVersion": (ctypes.c_char_p, []),
        "ampFree": (None, [c_void_p]),
        "ampContextCreate": (c_void_p, []),
        "ampContextDestroy": (None, [c_void_p]),
        "ampContextEnableMultithreading": (None, [c_void_p, ctypes.c_bool]),
        "ampContextTakeDiagnostics": (ctypes.POINTER(AmpDiagnostic),
                                      [c_void_p, ctypes.POINTER(c_size_t)]),
        "ampDiagnosticsDestroy": (None, [ctypes.POINTER(AmpDiagnostic), c_size_t]),
        "ampModuleParse": (c_void_p, [c_void_p, ctypes.c_char_p, c_size_t,
                                      ctypes.c_char_p]),
        "ampModuleDestroy": (None, [c_void_p]),
        # Returned strings are read, then freed with ampFree: c_void_p keeps
        # ctypes from converting (and losing) the pointer.
        "ampModulePrint": (c_void_p, [c_void_p, ctypes.c_uint,
                                      ctypes.POINTER(c_size_t)]),
        "ampModuleRunPipeline": (ctypes.c_bool, [c_void_p, ctypes.c_char_p]),
        "ampContextGetNumReports": (c_size_t, [c_void_p]),
        "ampContextGetReport": (c_void_p, [c_void_p, c_size_t]),
    }
    for name, (restype, argtypes) in signatures.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


_lib = None
_lock = threading.Lock()


def lib():
    """The loaded library; raises OSError (with the path) when it is missing."""
    global _lib
    with _lock:
        if _lib is None:
            path = library_path()
            try:
                # ctypes releases the GIL during calls: distinct contexts can
                # work on distinct threads at once.
                _lib = _declare(ctypes.CDLL(path))
            except OSError as e:
                raise OSError(f"cannot load amp's C API library {path!r}: {e}; "
                              "build amp (scripts/setup.sh) or set "
                              "$AMP_CAPI_LIBRARY") from e
        return _lib


def take_string(ptr, length=None):
    """Decodes a string returned by the C API and frees it."""
    if not ptr:
        return None
    try:
        data = ctypes.string_at(ptr, length) if length is not None else ctypes.string_at(ptr)
        return data.decode("utf-8", errors="replace")
    finally:
        lib().ampFree(ptr)

# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ctypes declarations of amp's C API (include/amp-c/Amp.h).

The library (libAmpCAPI.so) is looked for, in order:

1. $AMP_CAPI_LIBRARY: the file, or the folder that holds it. When set, it
   is the only place tried.
2. The path recorded next to the package in amp/_library_path.txt (one
   line: the file or its folder, relative paths from the package folder),
   which an install step may write.
3. For a package installed as <prefix>/lib/python3*/site-packages/amp (or
   dist-packages): <prefix>/lib/libAmpCAPI.so (and lib64).
4. Otherwise, the package sits in <root>/python/amp: in amp's install
   prefix (`cmake --install build --prefix P` puts the package in P/python
   and P/lib/cmake/amp marks it), <root>/lib/libAmpCAPI.so; else
   <root>/build/lib, as in the source tree.
5. The dynamic loader's own search (LD_LIBRARY_PATH, ldconfig).

`cmake --install` writes the prefix's library path into
amp/_library_path.txt, so that a copy pip installs from P/python finds it;
if the prefix moved since, the path is stale and 4 finds the library.

It is loaded on first use, so that `import amp` works before amp is built;
a failure lists every place tried.
"""

import ctypes
import os
import sys
import threading

_LIBRARY_NAME = {"darwin": "libAmpCAPI.dylib", "win32": "AmpCAPI.dll"}.get(
    sys.platform, "libAmpCAPI.so")

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))

# The file an install step may write next to the package (see pyproject.toml).
RECORDED_PATH_FILE = os.path.join(_PACKAGE_DIR, "_library_path.txt")


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


def _as_file(path):
    return os.path.join(path, _LIBRARY_NAME) if os.path.isdir(path) else path


def _recorded():
    """The path in amp/_library_path.txt, or None."""
    try:
        with open(RECORDED_PATH_FILE) as f:
            line = f.read().strip()
    except OSError:
        return None
    if not line:
        return None
    return _as_file(os.path.normpath(os.path.join(_PACKAGE_DIR, os.path.expanduser(line))))


def _installed():
    """Whether the package sits in a site-packages (or dist-packages) folder."""
    return os.path.basename(os.path.dirname(_PACKAGE_DIR)) in ("site-packages",
                                                                "dist-packages")


def _prefix_candidates():
    """<prefix>/lib/libAmpCAPI.so for <prefix>/lib/python3*/site-packages/amp."""
    if not _installed():
        return []
    site = os.path.dirname(_PACKAGE_DIR)
    libdir = os.path.dirname(os.path.dirname(site))       # <prefix>/lib
    prefix = os.path.dirname(libdir)
    found = [os.path.join(libdir, _LIBRARY_NAME)]
    for name in ("lib", "lib64"):
        path = os.path.join(prefix, name, _LIBRARY_NAME)
        if path not in found:
            found.append(path)
    return found


def candidates():
    """[(path, where it comes from)] in the order they are tried."""
    env = os.environ.get("AMP_CAPI_LIBRARY")
    if env:
        return [(_as_file(env), "$AMP_CAPI_LIBRARY")]
    found = []
    recorded = _recorded()
    if recorded:
        found.append((recorded, RECORDED_PATH_FILE))
    found += [(p, "installed prefix") for p in _prefix_candidates()]
    if not _installed():
        root = os.path.dirname(os.path.dirname(_PACKAGE_DIR))
        if os.path.isdir(os.path.join(root, "lib", "cmake", "amp")):
            found.append((os.path.join(root, "lib", _LIBRARY_NAME), "amp's install prefix"))
        else:
            found.append((os.path.join(root, "build", "lib", _LIBRARY_NAME), "source tree"))
    found.append((_LIBRARY_NAME, "the dynamic loader's search path"))
    return found


def library_path():
    """The first candidate that exists (else the first one tried)."""
    tried = candidates()
    for path, _ in tried:
        if os.path.exists(path):
            return path
    return tried[0][0]


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
        "ampModuleDescribeLowPrecisionWorkOnHost": (c_void_p, [c_void_p]),
        "ampModuleCompileLibrary": (ctypes.c_bool, [c_void_p, ctypes.c_char_p,
                                                    ctypes.c_char_p, ctypes.c_char_p,
                                                    ctypes.c_char_p, ctypes.c_uint,
                                                    ctypes.c_uint, ctypes.c_char_p]),
        "ampGetBackendNames": (c_void_p, []),
        "ampGetBackendPipeline": (c_void_p, [ctypes.c_char_p, ctypes.c_char_p,
                                             ctypes.POINTER(c_void_p)]),
        "ampGetBackendOptions": (c_void_p, [ctypes.c_char_p]),
        "ampCheckTargetName": (c_void_p, [ctypes.c_char_p]),
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
    """The loaded library; raises OSError listing where it looked when it
    cannot be loaded."""
    global _lib
    with _lock:
        if _lib is None:
            _lib = _declare(_load())
        return _lib


def _load():
    tried = []
    for path, origin in candidates():
        bare = os.sep not in path
        if not bare and not os.path.exists(path):
            tried.append(f"{path} ({origin}: not found)")
            continue
        try:
            # ctypes releases the GIL during calls: distinct contexts can
            # work on distinct threads at once.
            return ctypes.CDLL(path)
        except OSError as e:
            if not bare:
                # A library that is there but does not load is not skipped.
                raise OSError(f"cannot load amp's C API library {path!r} ({origin}): "
                              f"{e}") from e
            tried.append(f"{path} ({origin}: {e})")
    raise OSError("cannot find amp's C API library " + _LIBRARY_NAME + "; looked in:\n  "
                  + "\n  ".join(tried) + "\nbuild amp (scripts/setup.sh), set "
                  "$AMP_CAPI_LIBRARY, or record the path in " + RECORDED_PATH_FILE)


def backend_names():
    """amp's backends as C++ defines them: ["cpu", "vulkan", "cuda", "spirv"]."""
    return take_string(lib().ampGetBackendNames()).split(",")


def backend_pipeline(backend, options):
    """(pipeline, None) for `backend` with `options` ("name=value ..."),
    checked by the pipeline's parser; (None, the one-line reason) when the
    name or an option is bad."""
    error = ctypes.c_void_p()
    pipeline = lib().ampGetBackendPipeline(backend.encode(), options.encode(),
                                           ctypes.byref(error))
    if pipeline:
        return take_string(pipeline), None
    return None, take_string(error.value)


def backend_options(backend):
    """The options of `backend`'s pipeline with their defaults,
    "{name=value ...}", or None for an unknown backend."""
    return take_string(lib().ampGetBackendOptions(backend.encode()))


def check_target(name):
    """None when mixed-precision{target=} takes `name`, else the reason."""
    return take_string(lib().ampCheckTargetName(name.encode()))


def take_string(ptr, length=None):
    """Decodes a string returned by the C API and frees it."""
    if not ptr:
        return None
    try:
        data = ctypes.string_at(ptr, length) if length is not None else ctypes.string_at(ptr)
        return data.decode("utf-8", errors="replace")
    finally:
        lib().ampFree(ptr)

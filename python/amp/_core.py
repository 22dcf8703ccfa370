# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Contexts, modules and diagnostics over amp's C API."""

import ctypes
import os
import json
import threading
import weakref
from typing import NamedTuple

from . import _capi


class Diagnostic(NamedTuple):
    """One MLIR diagnostic: severity ("error", "warning", "note", "remark"),
    location ("file:line:col", or "" when unknown) and message."""
    severity: str
    location: str
    message: str

    def __str__(self):
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.severity}: {self.message}"


class AmpError(Exception):
    """An amp operation that failed: bad MLIR text, a bad pipeline or option,
    a bad policy, a pass that failed. `diagnostics` holds what MLIR said
    (a list of Diagnostic); the message includes its errors, warnings and
    notes."""

    def __init__(self, message, diagnostics=()):
        self.diagnostics = list(diagnostics)
        lines = [str(d) for d in self.diagnostics if d.severity != "remark"]
        super().__init__("\n".join([message] + lines))


class AmpOptionError(AmpError, ValueError):
    """A bad option value or type given to convert() or lower(), found in
    Python before anything runs (no diagnostics)."""


class LowPrecisionWarning(UserWarning):
    """amp.lower("cpu") of a program that computes in f16 or bf16 where this
    machine's CPU has no units for that work (converted without a target):
    it runs slower than f32; convert(..., target="cpu") converts for it."""


def version():
    """amp's version and the MLIR it was built against, from the C API
    library ("amp 0.1.0 (MLIR 22.1.0)"; `amp.__version__` is the package's)."""
    try:
        lib = _capi.lib()
    except OSError as e:
        raise AmpError(str(e)) from e
    return lib.ampGetVersion().decode()


class Context:
    """An MLIR context with every upstream dialect and pass that amp-opt
    registers, plus amp's. Diagnostics are collected, not printed: a failing
    call raises AmpError with them; the others (warnings, remarks) wait until
    `take_diagnostics()`.

    A context and its modules may be used from several threads: calls are
    serialised by a lock. Distinct contexts run in parallel. Use it as a
    context manager, or call `close()`; modules still open are closed with
    it.
    """

    def __init__(self, multithreading=True):
        try:
            lib = _capi.lib()
        except OSError as e:
            raise AmpError(str(e)) from e
        self._lib = lib
        self._lock = threading.RLock()
        self._modules = weakref.WeakSet()
        self._handle = lib.ampContextCreate()
        if not multithreading:
            lib.ampContextEnableMultithreading(self._handle, False)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        # Modules keep their context alive, so none is left when this runs.
        if getattr(self, "_handle", None):
            self._lib.ampContextDestroy(self._handle)
            self._handle = None

    def close(self):
        """Destroys the context and its open modules (idempotent)."""
        with self._lock:
            for module in list(self._modules):
                module.close()
            if self._handle:
                self._lib.ampContextDestroy(self._handle)
                self._handle = None

    def _check_open(self):
        if not self._handle:
            raise AmpError("the amp context is closed")

    def take_diagnostics(self):
        """The diagnostics collected since the last take, oldest first."""
        with self._lock:
            self._check_open()
            return self._take()

    def _take(self):
        count = ctypes.c_size_t(0)
        array = self._lib.ampContextTakeDiagnostics(self._handle, ctypes.byref(count))
        if not array:
            return []
        try:
            return [Diagnostic(_capi.SEVERITIES[array[i].severity],
                               (array[i].location or b"").decode("utf-8", "replace"),
                               (array[i].message or b"").decode("utf-8", "replace"))
                    for i in range(count.value)]
        finally:
            self._lib.ampDiagnosticsDestroy(array, count)

    def _fail(self, message):
        raise AmpError(message, self._take())

    def parse(self, text, name="<input>"):
        """Parses MLIR text into a Module; `name` appears in locations."""
        if not isinstance(text, str):
            raise TypeError(f"MLIR text must be a str, not {type(text).__name__}")
        data = text.encode("utf-8")
        with self._lock:
            self._check_open()
            handle = self._lib.ampModuleParse(self._handle, data, len(data),
                                              name.encode("utf-8"))
            if not handle:
                self._fail(f"cannot parse {name}")
            module = Module(self, handle)
            self._modules.add(module)
            return module

    @property
    def reports(self):
        """mixed-precision's JSON reports (as dicts) from the last pipeline
        run: one per run of the pass (one per function when it is nested in
        func.func)."""
        with self._lock:
            self._check_open()
            count = self._lib.ampContextGetNumReports(self._handle)
            return [json.loads(_capi.take_string(
                        self._lib.ampContextGetReport(self._handle, i)))
                    for i in range(count)]


class Module:
    """A builtin.module parsed by a Context (see Context.parse)."""

    def __init__(self, context, handle):
        self.context = context
        self._handle = handle

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_handle", None):
            self.close()

    def close(self):
        """Destroys the module (idempotent)."""
        with self.context._lock:
            # When a reference cycle made the collector destroy the context
            # first, destroying the module would touch the freed context;
            # it is left (leaked) instead.
            if self._handle and self.context._handle:
                self.context._lib.ampModuleDestroy(self._handle)
            self._handle = None

    def _check_open(self):
        if not self._handle:
            raise AmpError("the module is closed")
        self.context._check_open()

    def run_pipeline(self, pipeline):
        """Runs a textual pass pipeline on the module in place, e.g.
        "builtin.module(mixed-precision{precision=bf16},amp-lower-to-llvm)".
        Raises AmpError with the diagnostics when it does not parse or a pass
        fails; the module may then be partly transformed."""
        with self.context._lock:
            self._check_open()
            if not self.context._lib.ampModuleRunPipeline(self._handle,
                                                          pipeline.encode("utf-8")):
                self.context._fail(f"pass pipeline failed: {pipeline}")

    def compile_library(self, output, entry=None, function=None, header=None,
                        threads=1, opt_level=3, compiler=None):
        """Compiles a function of the module ahead of time into the shared
        library `output`, as amp-compile does (the C API's
        ampModuleCompileLibrary); the module is unchanged. Raises AmpError
        with the one-line reason on failure."""
        enc = lambda v: None if v is None else os.fspath(v).encode("utf-8")
        with self.context._lock:
            self._check_open()
            if not self.context._lib.ampModuleCompileLibrary(
                    self._handle, enc(entry), enc(function), enc(output),
                    enc(header), threads, opt_level, enc(compiler)):
                self.context._fail("compile failed")

    def low_precision_note(self):
        """When the module computes in f16 or bf16 where this machine's CPU
        has no units for that work, one sentence saying so and naming
        mixed-precision{target=cpu} (as amp-run's note); None otherwise."""
        with self.context._lock:
            self._check_open()
            return _capi.take_string(
                self.context._lib.ampModuleDescribeLowPrecisionWorkOnHost(
                    self._handle))

    def print(self, debug_info=False, generic=False):
        """The module as MLIR text (with locations; in generic form)."""
        flags = ((_capi.PRINT_DEBUG_INFO if debug_info else 0)
                 | (_capi.PRINT_GENERIC_FORM if generic else 0))
        with self.context._lock:
            self._check_open()
            length = ctypes.c_size_t(0)
            ptr = self.context._lib.ampModulePrint(self._handle, flags,
                                                   ctypes.byref(length))
            if not ptr:
                raise MemoryError("cannot print the module")
            return _capi.take_string(ptr, length.value)

    def __str__(self):
        return self.print()

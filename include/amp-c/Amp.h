/*===-- amp-c/Amp.h - C API for amp ------------------------------*- C -*-===*\
|*                                                                            *|
|* Part of amp, under the Apache License v2.0 with LLVM Exceptions.           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|* amp's C API: parse MLIR text, run pass pipelines (mixed-precision and the  *|
|* lowerings), print the result, and read diagnostics and mixed-precision's   *|
|* JSON report, all in-process. Handles are opaque; strings are UTF-8.        *|
|*                                                                            *|
|* The API is for languages that load C libraries (Python's ctypes): it does  *|
|* not need MLIR's own C API and exposes no C++ types. No C++ exception       *|
|* crosses it (amp and MLIR are built without exceptions).                    *|
|*                                                                            *|
|* Threads: one context and its modules must be used by one thread at a time; *|
|* distinct contexts may be used from distinct threads at once.               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef AMP_C_AMP_H
#define AMP_C_AMP_H

#include <stdbool.h>
#include <stddef.h>

#if defined(_WIN32)
#define AMP_CAPI_EXPORTED __declspec(dllexport)
#else
#define AMP_CAPI_EXPORTED __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*
 * Handles
 *===----------------------------------------------------------------------===*/

/// An MLIR context with every upstream dialect, extension and pass that
/// amp-opt registers, plus amp's dialect, models, passes and pipelines. It
/// collects diagnostics instead of printing them.
typedef struct AmpContextImpl *AmpContext;

/// A `builtin.module` owned by the caller; it belongs to one context.
typedef struct AmpModuleImpl *AmpModule;

/*===----------------------------------------------------------------------===*
 * Library
 *===----------------------------------------------------------------------===*/

/// amp's version and the MLIR it was built against, e.g.
/// "amp 0.1.0 (MLIR 22.1.8)". A static string; do not free it.
AMP_CAPI_EXPORTED const char *ampGetVersion(void);

/// Frees a string or buffer returned by this API (ampModulePrint,
/// ampContextGetReport). Null is ignored.
AMP_CAPI_EXPORTED void ampFree(void *ptr);

/*===----------------------------------------------------------------------===*
 * Context
 *===----------------------------------------------------------------------===*/

/// Creates a context. Registering passes and pipelines happens once per
/// process, on the first call. Never returns null.
AMP_CAPI_EXPORTED AmpContext ampContextCreate(void);

/// Destroys `context`. Every module of the context must have been destroyed
/// before. Null is ignored.
AMP_CAPI_EXPORTED void ampContextDestroy(AmpContext context);

/// Lets pass pipelines run nested passes (e.g. on each function) on several
/// threads (the default) or only on the calling thread.
AMP_CAPI_EXPORTED void ampContextEnableMultithreading(AmpContext context,
                                                      bool enable);

/*===----------------------------------------------------------------------===*
 * Diagnostics
 *===----------------------------------------------------------------------===*/

typedef enum AmpSeverity {
  AmpSeverityError = 0,
  AmpSeverityWarning = 1,
  AmpSeverityNote = 2,
  AmpSeverityRemark = 3,
} AmpSeverity;

/// One diagnostic. A note attached to a diagnostic follows it as its own
/// entry of severity AmpSeverityNote.
typedef struct AmpDiagnostic {
  AmpSeverity severity;
  /// "file:line:col" when the location has one ("file" for the module that
  /// wraps the parsed text), the printed location otherwise, "" when it is
  /// unknown.
  const char *location;
  const char *message;
} AmpDiagnostic;

/// Moves the diagnostics collected since the previous call (by parsing,
/// pipeline parsing and passes) into a new array of `*count` entries, in the
/// order they were emitted. Returns null when there are none. Free the array
/// with ampDiagnosticsDestroy.
AMP_CAPI_EXPORTED AmpDiagnostic *ampContextTakeDiagnostics(AmpContext context,
                                                           size_t *count);

/// Frees an array returned by ampContextTakeDiagnostics.
AMP_CAPI_EXPORTED void ampDiagnosticsDestroy(AmpDiagnostic *diagnostics,
                                             size_t count);

/*===----------------------------------------------------------------------===*
 * Modules
 *===----------------------------------------------------------------------===*/

/// Parses `length` bytes of MLIR text; `sourceName` names it in locations
/// (null: "<input>"). Top-level ops other than one `builtin.module` are
/// wrapped in a module. Returns null when the text does not parse or verify;
/// the reasons are in the context's diagnostics.
AMP_CAPI_EXPORTED AmpModule ampModuleParse(AmpContext context, const char *text,
                                           size_t length,
                                           const char *sourceName);

/// Destroys `module`. Null is ignored.
AMP_CAPI_EXPORTED void ampModuleDestroy(AmpModule module);

/// Flags of ampModulePrint.
enum {
  /// Print locations (`loc(...)`).
  AmpPrintDebugInfo = 1,
  /// Print every op in the generic form.
  AmpPrintGenericForm = 2,
};

/// Prints `module` (`flags`: a combination of AmpPrint* values) into a new
/// NUL-terminated string of `*length` bytes (`length` may be null). Free it
/// with ampFree.
AMP_CAPI_EXPORTED char *ampModulePrint(AmpModule module, unsigned flags,
                                       size_t *length);

/// Runs a textual pass pipeline anchored on the module, e.g.
/// "builtin.module(mixed-precision{precision=bf16},amp-lower-to-llvm)".
/// Returns false when the pipeline does not parse or a pass fails; the
/// reasons are in the context's diagnostics (there is always at least one
/// error). The module may be partly transformed after a failure.
AMP_CAPI_EXPORTED bool ampModuleRunPipeline(AmpModule module,
                                            const char *pipeline);

/// When `module` computes in f16 or bf16 where this machine's CPU has no
/// units for that work (a program converted without a target, run on the
/// CPU), one sentence saying so and naming mixed-precision{target=cpu}, as
/// a new NUL-terminated string to free with ampFree; null when it does
/// not.
AMP_CAPI_EXPORTED char *
ampModuleDescribeLowPrecisionWorkOnHost(AmpModule module);

/// Compiles the function `entry` of `module` (null: its one public function)
/// ahead of time into the shared library `output` (a .so file) for this
/// machine's CPU, as amp-compile does: amp's CPU pipeline as amp-run sets
/// it for this host, LLVM, and a C entry `function` (null: amp_<entry>)
/// taking one pointer per tensor argument and result (docs/Embedding.md,
/// "Deploying"), linked by the C compiler `compiler` (null: $CC, else cc).
/// With `header` (may be null), also writes a C header declaring it. Large
/// ops run on `threads` OpenMP threads (1: none). `module` is unchanged (a
/// copy is lowered). The compiled objects are kept in the compile cache
/// amp-run and amp-compile share ($AMP_CACHE_DIR, $XDG_CACHE_HOME/amp or
/// ~/.cache/amp; none with AMP_NO_CACHE=1): a program compiled before is
/// only linked, and what goes wrong with the cache is a warning in the
/// context's diagnostics. Returns false on failure, the one-line reason in
/// the context's diagnostics.
AMP_CAPI_EXPORTED bool
ampModuleCompileLibrary(AmpModule module, const char *entry,
                        const char *function, const char *output,
                        const char *header, unsigned threads, unsigned optLevel,
                        const char *compiler);

/*===----------------------------------------------------------------------===*
 * Backends and targets: the names amp-run, amp-opt and Python share
 *===----------------------------------------------------------------------===*/

/// amp's backends, comma separated ("cpu,vulkan,cuda,spirv"), as a new
/// NUL-terminated string to free with ampFree.
AMP_CAPI_EXPORTED char *ampGetBackendNames(void);

/// The lowering pipeline of `backend` (one of ampGetBackendNames, or a
/// CUDA chip "sm_<N>" for the cuda backend with that chip) with `options`
/// ("name=value ..." as amp-opt takes them; may be null), checked by the
/// pipeline's own parser: "amp-lower-to-llvm{threads=2}", as a new string
/// to free with ampFree. Null when the name or an option is bad; then
/// `*error` (when `error` is not null) receives the one-line reason, to
/// free with ampFree.
AMP_CAPI_EXPORTED char *
ampGetBackendPipeline(const char *backend, const char *options, char **error);

/// The options of `backend`'s pipeline with their defaults,
/// "{name=value ...}", as a new string to free with ampFree; null for an
/// unknown backend.
AMP_CAPI_EXPORTED char *ampGetBackendOptions(const char *backend);

/// Null when mixed-precision{target=...} takes `name`; otherwise the
/// one-line reason it does not, as a new string to free with ampFree.
AMP_CAPI_EXPORTED char *ampCheckTargetName(const char *name);

/*===----------------------------------------------------------------------===*
 * mixed-precision reports
 *===----------------------------------------------------------------------===*/

/// The number of JSON reports that mixed-precision produced during the last
/// ampModuleRunPipeline of this context: one per run of the pass (one when it
/// runs on the module, one per function when nested in func.func).
AMP_CAPI_EXPORTED size_t ampContextGetNumReports(AmpContext context);

/// The `index`th report of the last pipeline run (the same JSON as the
/// pass's `report=FILE` option) as a new NUL-terminated string; free it with
/// ampFree. Null when `index` is out of range. With passes nested on
/// functions running on several threads, the order of reports is not fixed.
AMP_CAPI_EXPORTED char *ampContextGetReport(AmpContext context, size_t index);

#ifdef __cplusplus
}
#endif

#endif /* AMP_C_AMP_H */

/*===- amp-capi-test.c - Test of amp's C API ------------------------------===*/
/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * amp's C API, used from C: a context parses MLIR text, runs mixed-precision
 * (on the module and nested on functions), prints the result, and hands back
 * the JSON reports and the diagnostics it collected (remarks with explain,
 * errors for bad text, pipelines and options), which are then gone. Contexts
 * can be created and destroyed many times in one process, and used from
 * several threads at once (one context per thread).
 */

/* RUN: rm -rf %t && mkdir -p %t && cd %t && amp-capi-test 2>&1 | FileCheck %s
 */

#include "amp-c/Amp.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kSeverity[] = {"error", "warning", "note", "remark"};

static const char *kMatmulExp =
    "func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>,\n"
    "             %c: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
    "  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)\n"
    "                     outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>\n"
    "  %1 = math.exp %0 : tensor<4x4xf32>\n"
    "  return %1 : tensor<4x4xf32>\n"
    "}\n"
    "func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = arith.addf %a, %a : tensor<4xf32>\n"
    "  return %0 : tensor<4xf32>\n"
    "}\n";

/* Prints and frees the diagnostics collected since the last call. */
static void printDiagnostics(AmpContext ctx) {
  size_t count = 0;
  AmpDiagnostic *diags = ampContextTakeDiagnostics(ctx, &count);
  printf("diagnostics: %zu\n", count);
  for (size_t i = 0; i < count; ++i)
    printf("  %s at '%s': %s\n", kSeverity[diags[i].severity],
           diags[i].location, diags[i].message);
  ampDiagnosticsDestroy(diags, count);
}

/* Prints the lines of `module` that contain `needle`. */
static void printLinesWith(AmpModule module, unsigned flags,
                           const char *needle) {
  size_t length = 0;
  char *text = ampModulePrint(module, flags, &length);
  printf("printed %s\n", strlen(text) == length ? "length ok" : "bad length");
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
    if (strstr(line, needle))
      printf("  %s\n", line + strspn(line, " "));
  ampFree(text);
}

static AmpModule parse(AmpContext ctx, const char *text, const char *name) {
  return ampModuleParse(ctx, text, strlen(text), name);
}

/* One conversion (mixed-precision, then amp-lower-to-llvm) on a context of
 * its own; the printed result, to be freed with ampFree. With
 * `multithreaded`, the pipeline runs its function passes on threads. */
static char *convertAndLower(int multithreaded) {
  AmpContext ctx = ampContextCreate();
  ampContextEnableMultithreading(ctx, multithreaded);
  AmpModule module = parse(ctx, kMatmulExp, NULL);
  char *text = NULL;
  if (ampModuleRunPipeline(
          module, "builtin.module(mixed-precision{precision=bf16},"
                  "amp-lower-to-llvm)"))
    text = ampModulePrint(module, 0, NULL);
  ampModuleDestroy(module);
  ampContextDestroy(ctx);
  return text;
}

enum { kThreads = 4, kRounds = 8 };
static char *threadResults[kThreads][kRounds];

static void *convertOnThread(void *arg) {
  int t = (int)(size_t)arg;
  for (int round = 0; round < kRounds; ++round)
    threadResults[t][round] = convertAndLower(round % 2);
  return NULL;
}

/* Threads that each own a context convert at the same time -- the first of
 * them racing the process-wide registration of passes -- and every result
 * equals the single-threaded one, whether the pipeline itself is
 * multithreaded or not. */
static void testThreads(void) {
  printf("testThreads\n");
  pthread_t threads[kThreads];
  for (int t = 0; t < kThreads; ++t)
    pthread_create(&threads[t], NULL, convertOnThread, (void *)(size_t)t);
  for (int t = 0; t < kThreads; ++t)
    pthread_join(threads[t], NULL);
  char *reference = convertAndLower(0);
  int same = 0;
  for (int t = 0; t < kThreads; ++t)
    for (int round = 0; round < kRounds; ++round) {
      if (reference && threadResults[t][round] &&
          strcmp(reference, threadResults[t][round]) == 0)
        ++same;
      ampFree(threadResults[t][round]);
    }
  printf("lowered: %d, identical: %d of %d\n", reference != NULL, same,
         kThreads * kRounds);
  ampFree(reference);
  // CHECK-LABEL: testThreads
  // CHECK-NEXT: lowered: 1, identical: 32 of 32
}

static void testVersion(void) {
  printf("testVersion\n");
  printf("%s\n", ampGetVersion());
  // CHECK-LABEL: testVersion
  // CHECK-NEXT: amp {{[0-9]+\.[0-9]+\.[0-9]+}} (MLIR {{[0-9]+\.[0-9]+}}
}

static void testConvert(void) {
  printf("testConvert\n");
  AmpContext ctx = ampContextCreate();
  AmpModule module = parse(ctx, kMatmulExp, "matmul.mlir");
  printf("parsed: %d\n", module != NULL);
  bool ok = ampModuleRunPipeline(
      module, "builtin.module(mixed-precision{precision=bf16 explain=true})");
  printf("converted: %d\n", ok);
  printLinesWith(module, 0, "linalg.matmul");
  printLinesWith(module, 0, "math.exp");
  printDiagnostics(ctx);
  printDiagnostics(ctx);

  size_t reports = ampContextGetNumReports(ctx);
  printf("reports: %zu\n", reports);
  char *report = ampContextGetReport(ctx, 0);
  printf("report: %s\n", strstr(report, "\"precision\": \"bf16\"")
                             ? "precision bf16"
                             : report);
  printf("report ops-low: %s\n", strstr(report, "\"ops-low\": 1")
                                     ? "1"
                                     : report);
  ampFree(report);
  printf("report out of range: %p\n", (void *)ampContextGetReport(ctx, 1));

  /* Locations are printed when asked for. */
  printLinesWith(module, AmpPrintDebugInfo, "math.exp");
  ampModuleDestroy(module);
  ampContextDestroy(ctx);
  // CHECK-LABEL: testConvert
  // CHECK-NEXT: parsed: 1
  // CHECK-NEXT: converted: 1
  // CHECK-NEXT: printed length ok
  // CHECK-NEXT: linalg.matmul ins({{.*}} : tensor<4x8xbf16>, tensor<8x4xbf16>) outs({{.*}} : tensor<4x4xf32>)
  // CHECK-NEXT: printed length ok
  // CHECK-NEXT: math.exp {{.*}} : tensor<4x4xf32>
  // CHECK-NEXT: diagnostics: 4
  // CHECK-NEXT: remark at 'matmul.mlir:3:8': amp: linalg.matmul runs in {{.*}}bf16{{.*}} (allow, model): contraction
  // CHECK-NEXT: remark at 'matmul.mlir:5:8': amp: math.exp stays f32 (never, model)
  // CHECK-NEXT: remark at 'matmul.mlir:9:8': amp: arith.addf {{.*}} (follow, model)
  // CHECK-NEXT: remark at 'matmul.mlir': amp: summary: 1 ops low, 2 ops f32
  // CHECK-NEXT: diagnostics: 0
  // CHECK-NEXT: reports: 1
  // CHECK-NEXT: report: precision bf16
  // CHECK-NEXT: report ops-low: 1
  // CHECK-NEXT: report out of range: (nil)
  // CHECK-NEXT: printed length ok
  // CHECK-NEXT: math.exp {{.*}} : tensor<4x4xf32> loc(
}

/* Nested on functions, mixed-precision runs once per function: one report
 * each. */
static void testReportPerFunction(void) {
  printf("testReportPerFunction\n");
  AmpContext ctx = ampContextCreate();
  AmpModule module = parse(ctx, kMatmulExp, NULL);
  printf("converted: %d\n",
         ampModuleRunPipeline(module,
                              "builtin.module(func.func(mixed-precision))"));
  printf("reports: %zu\n", ampContextGetNumReports(ctx));
  /* The next run starts with no reports. */
  printf("canonicalized: %d\n",
         ampModuleRunPipeline(module, "builtin.module(canonicalize)"));
  printf("reports: %zu\n", ampContextGetNumReports(ctx));
  ampModuleDestroy(module);
  ampContextDestroy(ctx);
  // CHECK-LABEL: testReportPerFunction
  // CHECK-NEXT: converted: 1
  // CHECK-NEXT: reports: 2
  // CHECK-NEXT: canonicalized: 1
  // CHECK-NEXT: reports: 0
}

static void testErrors(void) {
  printf("testErrors\n");
  AmpContext ctx = ampContextCreate();

  AmpModule broken = parse(ctx, "func.func @broken(", "broken.mlir");
  printf("parsed: %d\n", broken != NULL);
  printDiagnostics(ctx);

  AmpModule module = parse(ctx, kMatmulExp, "matmul.mlir");
  printf("bad precision: %d\n",
         ampModuleRunPipeline(
             module, "builtin.module(mixed-precision{precision=f8})"));
  printDiagnostics(ctx);
  printf("reports: %zu\n", ampContextGetNumReports(ctx));

  printf("unknown pass: %d\n",
         ampModuleRunPipeline(module, "builtin.module(no-such-pass)"));
  printDiagnostics(ctx);

  printf("unknown option: %d\n",
         ampModuleRunPipeline(module,
                              "builtin.module(mixed-precision{colour=red})"));
  printDiagnostics(ctx);

  printf("not anchored: %d\n", ampModuleRunPipeline(module, "canonicalize"));
  printDiagnostics(ctx);

  printf("anchored on functions: %d\n",
         ampModuleRunPipeline(module, "func.func(canonicalize)"));
  printDiagnostics(ctx);

  printf("missing policy file: %d\n",
         ampModuleRunPipeline(
             module,
             "builtin.module(mixed-precision{policy-file=/nonexistent.json})"));
  printDiagnostics(ctx);

  ampModuleDestroy(module);
  ampContextDestroy(ctx);
  // CHECK-LABEL: testErrors
  // CHECK-NEXT: parsed: 0
  // CHECK-NEXT: diagnostics: 1
  // CHECK-NEXT: error at 'broken.mlir:1:18': expected non-function type
  // CHECK-NEXT: bad precision: 0
  // CHECK-NEXT: diagnostics: 1
  // CHECK-NEXT: error at '': invalid pass pipeline 'builtin.module(mixed-precision{precision=f8})': failed to add `mixed-precision` with options `precision=f8`
  // CHECK-NEXT: reports: 0
  // CHECK-NEXT: unknown pass: 0
  // CHECK-NEXT: diagnostics: 1
  // CHECK-NEXT: error at '': invalid pass pipeline 'builtin.module(no-such-pass)': {{.*}}'no-such-pass' does not refer to a registered pass or pass pipeline
  // CHECK-NEXT: unknown option: 0
  // CHECK-NEXT: diagnostics: 1
  // CHECK-NEXT: error at '': invalid pass pipeline 'builtin.module(mixed-precision{colour=red})': {{.*}}no such option colour
  // CHECK-NEXT: not anchored: 0
  // CHECK-NEXT: diagnostics: 1
  // CHECK-NEXT: error at '': invalid pass pipeline 'canonicalize': expected pass pipeline to be wrapped with the anchor operation type
  // CHECK-NEXT: anchored on functions: 0
  // CHECK-NEXT: diagnostics: 1
  // CHECK-NEXT: error at '': pass pipeline 'func.func(canonicalize)' is anchored on 'func.func'; a module needs 'builtin.module(...)'
  // CHECK-NEXT: missing policy file: 0
  // CHECK-NEXT: diagnostics: 1
  // CHECK-NEXT: error at '': mixed-precision: /nonexistent.json: cannot read policy file
}

/* Contexts are independent and release what they hold. */
static void testManyContexts(void) {
  printf("testManyContexts\n");
  int converted = 0;
  for (int i = 0; i < 50; ++i) {
    AmpContext ctx = ampContextCreate();
    AmpModule module = parse(ctx, kMatmulExp, NULL);
    if (ampModuleRunPipeline(module, "builtin.module(mixed-precision)") &&
        ampContextGetNumReports(ctx) == 1)
      ++converted;
    ampModuleDestroy(module);
    ampContextDestroy(ctx);
  }
  printf("converted: %d\n", converted);
  /* Null handles are ignored by the destroy functions. */
  ampModuleDestroy(NULL);
  ampContextDestroy(NULL);
  ampFree(NULL);
  ampDiagnosticsDestroy(NULL, 0);
  printf("done\n");
  // CHECK-LABEL: testManyContexts
  // CHECK-NEXT: converted: 50
  // CHECK-NEXT: done
}

/* The backends and targets as C++ defines them: what Python asks for
   instead of parsing names of its own. */
static void testBackends(void) {
  printf("testBackends\n");
  char *names = ampGetBackendNames();
  printf("backends: %s\n", names);
  ampFree(names);
  char *error = NULL;
  char *pipeline = ampGetBackendPipeline("cpu", "threads=2", &error);
  printf("cpu: %s\n", pipeline);
  ampFree(pipeline);
  pipeline = ampGetBackendPipeline("sm_90", "format=isa", &error);
  printf("sm_90: %s\n", pipeline);
  ampFree(pipeline);
  pipeline = ampGetBackendPipeline("nvvm", NULL, &error);
  printf("nvvm: %s / %s\n", pipeline ? pipeline : "(null)", error);
  ampFree(error);
  pipeline = ampGetBackendPipeline("cpu", "treads=2", &error);
  printf("treads: %s / %s\n", pipeline ? pipeline : "(null)", error);
  ampFree(error);
  /* A value of the wrong type: one line, nothing printed on stderr. */
  pipeline = ampGetBackendPipeline("cpu", "threads=x", &error);
  printf("threads=x: %s / %s\n", pipeline ? pipeline : "(null)", error);
  ampFree(error);
  pipeline = ampGetBackendPipeline("vulkan", "cooperative-matrix=maybe", &error);
  printf("maybe: %s / %s\n", pipeline ? pipeline : "(null)", error);
  ampFree(error);
  char *options = ampGetBackendOptions("cpu");
  printf("cpu options: %s\n", options);
  ampFree(options);
  printf("unknown options: %p\n", (void *)ampGetBackendOptions("tpu"));
  char *target = ampCheckTargetName("sm_90a");
  printf("sm_90a: %s\n", target ? target : "ok");
  target = ampCheckTargetName("tpu");
  printf("tpu: %s\n", target);
  ampFree(target);
  // CHECK-LABEL: testBackends
  // CHECK-NEXT: backends: cpu,vulkan,cuda,spirv
  // CHECK-NEXT: cpu: amp-lower-to-llvm{threads=2}
  // CHECK-NEXT: sm_90: amp-lower-to-nvvm{chip=sm_90 format=isa}
  // CHECK-NEXT: nvvm: (null) / unknown backend 'nvvm'; expected cpu, vulkan, cuda or spirv (sm_<N> is cuda for that chip)
  // CHECK-NEXT: treads: (null) / amp-lower-to-llvm: no such option treads
  // CHECK-NEXT: threads=x: (null) / amp-lower-to-llvm: option threads: expected an integer, got 'x'
  // CHECK-NEXT: maybe: (null) / amp-lower-to-vulkan: option cooperative-matrix: expected true or false, got 'maybe'
  // CHECK-NEXT: cpu options: {bf16-dot=false {{.*}}threads=1{{.*}}}
  // CHECK-NEXT: unknown options: {{\(nil\)|0x0|0}}
  // CHECK-NEXT: sm_90a: ok
  // CHECK-NEXT: tpu: mixed-precision: unsupported target 'tpu'; expected cpu, vulkan, vulkan-storage16 or sm_<N>[a|f] with N >= 20
}

/* A function of a module as a shared library (amp-compile's work, with
   the system's C compiler); the module itself stays as it was. */
static void testCompileLibrary(void) {
  printf("testCompileLibrary\n");
  AmpContext ctx = ampContextCreate();
  AmpModule module = parse(ctx, kMatmulExp, "two.mlir");
  printf("none: %d\n", ampModuleCompileLibrary(module, NULL, NULL,
                                                "capi-lib.so", NULL, 1, 3,
                                                NULL));
  printDiagnostics(ctx);
  printf("f: %d\n", ampModuleCompileLibrary(module, "f", "capi_f",
                                             "capi-lib.so", "capi-lib.h", 1,
                                             3, NULL));
  FILE *library = fopen("capi-lib.so", "rb");
  printf("library written: %d\n", library != NULL);
  if (library)
    fclose(library);
  printLinesWith(module, 0, "linalg.matmul");
  ampModuleDestroy(module);
  ampContextDestroy(ctx);
  // CHECK-LABEL: testCompileLibrary
  // CHECK-NEXT: none: 0
  // CHECK-NEXT: diagnostics: 1
  // CHECK-NEXT:   error at '': amp-compile: '<input>' has 2 public functions; give the one to compile with --entry=NAME
  // CHECK-NEXT: f: 1
  // CHECK-NEXT: library written: 1
  // CHECK-NEXT: printed length ok
  // CHECK-NEXT: %0 = linalg.matmul
}

int main(void) {
  /* First, before anything else registered amp's passes. */
  testThreads();
  testVersion();
  testConvert();
  testReportPerFunction();
  testErrors();
  testManyContexts();
  testBackends();
  testCompileLibrary();
  return 0;
}

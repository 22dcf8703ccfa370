# RUN: env %asan_rss AMP_CAPI_LIBRARY=%amp_capi_lib PYTHONPATH=%amp_python_path %python %s | FileCheck %s
# (%asan_rss: in a sanitizer build, ASan keeps no freed memory in quarantine,
# so that the process's size below measures what amp keeps.)
#
# The lower-level API: a Context parses text into Modules, runs any pass
# pipeline on them in place, prints them (with locations, in generic form),
# and keeps diagnostics until they are taken and the reports of the last run.
# Contexts are released: hundreds created and destroyed (closed or garbage
# collected) leave the process size flat. Threads: distinct contexts convert
# in parallel, and a context shared by threads serialises their calls; both
# give the same program as a single thread.
import os
import threading

import amp

PROGRAM = """
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = math.exp %0 : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}
func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.mulf %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""

print("version:", amp.version())
# CHECK-LABEL: version: amp {{[0-9]+\.[0-9]+\.[0-9]+}} (MLIR {{[0-9]+}}.

with amp.Context() as ctx:
    module = ctx.parse(PROGRAM, name="prog.mlir")
    print("parsed:", type(module).__name__, "@f" in str(module))
    # Nested on functions, mixed-precision runs (and reports) per function.
    module.run_pipeline("builtin.module(func.func(mixed-precision{precision=bf16 "
                        "explain=true never=math.nosuchop}))")
    reports = ctx.reports
    print("reports:", len(reports), sorted(r["precision"] for r in reports))
    diags = ctx.take_diagnostics()
    print("diagnostics:", sorted({d.severity for d in diags}))
    print("taken again:", ctx.take_diagnostics())
    print("with locations:", 'loc("prog.mlir":3:8)' in module.print(debug_info=True))
    print("generic:", '"linalg.matmul"' in module.print(generic=True))
    # The next run replaces the reports.
    module.run_pipeline("builtin.module(canonicalize,cse)")
    print("reports after canonicalize:", ctx.reports)
    # Closing the context closes its modules.
print("module closed with its context:", module._handle is None)
# CHECK-NEXT: parsed: Module True
# CHECK-NEXT: reports: 2 ['bf16', 'bf16']
# CHECK-NEXT: diagnostics: ['remark', 'warning']
# CHECK-NEXT: taken again: []
# CHECK-NEXT: with locations: True
# CHECK-NEXT: generic: True
# CHECK-NEXT: reports after canonicalize: []
# CHECK-NEXT: module closed with its context: True


def rss_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def convert_in_new_context():
    with amp.Context() as ctx:
        module = ctx.parse(PROGRAM)
        module.run_pipeline("builtin.module(mixed-precision{explain=true})")
        return module.print(), ctx.reports, ctx.take_diagnostics()


# A context that is kept costs about half a MiB here, so 300 leaked ones
# would grow the process by far more than the bound.
for _ in range(50):
    convert_in_new_context()
before = rss_mib()
for _ in range(300):
    convert_in_new_context()
for _ in range(100):
    ctx = amp.Context()
    ctx.parse(PROGRAM)
    del ctx
growth = rss_mib() - before
print("400 more contexts:", "flat" if growth < 10 else f"grew by {growth:.1f} MiB")
# CHECK-NEXT: 400 more contexts: flat

# Threads alternate f16 and bf16, so a report or program from another
# thread's run would show.
expected = {p: amp.convert(PROGRAM, precision=p).ir for p in ("f16", "bf16")}
results, errors = [], []


def worker(precision, context=None):
    try:
        for _ in range(10):
            r = amp.convert(PROGRAM, precision=precision, explain=True,
                            context=context)
            results.append(r.ir == expected[precision]
                           and r.report["precision"] == precision
                           and all(precision in d.message for d in r.remarks
                                   if "linalg.matmul" in d.message))
    except Exception as e:  # reported below
        errors.append(e)


def run_threads(context=None):
    results.clear()
    threads = [threading.Thread(target=worker, args=(p, context))
               for p in ("f16", "bf16", "f16", "bf16")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return f"{len(results)} results, {errors}, {all(results)}"


print("own contexts:", run_threads())
# CHECK-NEXT: own contexts: 40 results, [], True
with amp.Context(multithreading=False) as shared:
    print("shared context:", run_threads(shared))
# CHECK-NEXT: shared context: 40 results, [], True

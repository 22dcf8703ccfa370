# amp.compile(): a converted program as a shared library with a C entry
# (amp-compile's work, in-process through the C API's
# ampModuleCompileLibrary), loaded here with ctypes and called on NumPy arrays: its
# result is amp-run's bit for bit. Bad options are AmpOptionError, a
# failing amp-compile is AmpError with its message.
# REQUIRES: cc
# RUN: rm -rf %t && mkdir -p %t
# RUN: env AMP_CAPI_LIBRARY=%amp_capi_lib PYTHONPATH=%amp_python_path %python %s %t %amp_src_root/examples/mlp.mlir %amp_bin/amp-run 2>&1 | FileCheck %s

import ctypes
import os
import subprocess
import sys

import numpy as np

import amp

folder, source, amp_run = sys.argv[1:4]
result = amp.convert(open(source).read(), precision="f16")
library = amp.compile(result, os.path.join(folder, "libmlp.so"),
                      header=os.path.join(folder, "mlp.h"), function="mlp_f16")
print("library:", os.path.basename(library))
# CHECK: library: libmlp.so
print("header:", [l for l in open(os.path.join(folder, "mlp.h")) if l.startswith("int ")])
# CHECK-NEXT: header: ['int mlp_f16(\n']

rng = np.random.default_rng(0)
shapes = [(8, 64), (64, 128), (128,), (128, 10), (10,)]
arguments = [rng.uniform(-1, 1, s).astype(np.float32) for s in shapes]
out = np.zeros((8, 10), np.float32)
entry = ctypes.CDLL(library).mlp_f16
entry.restype = ctypes.c_int
pointer = lambda a: a.ctypes.data_as(ctypes.c_void_p)
print("status:", entry(*[pointer(a) for a in arguments], pointer(out)))
# CHECK-NEXT: status: 0

program = os.path.join(folder, "mlp.f16.mlir")
open(program, "w").write(result.ir)
for i, a in enumerate(arguments):
    np.save(os.path.join(folder, f"arg{i}.npy"), a)
subprocess.run([amp_run, program, "--entry=mlp", f"--input-dir={folder}",
                "--output=" + os.path.join(folder, "ref.npy")], check=True,
               stdout=subprocess.DEVNULL)
reference = np.load(os.path.join(folder, "ref.npy"))
print("bit for bit:", out.tobytes() == reference.tobytes(), "rows sum to 1:",
      bool(np.allclose(out.sum(axis=1), 1, atol=1e-3)))
# CHECK-NEXT: bit for bit: True rows sum to 1: True

for bad in (dict(threads="2"), dict(opt_level=None), dict(entry=3)):
    try:
        amp.compile(result, os.path.join(folder, "bad.so"), **bad)
    except amp.AmpOptionError as e:
        print("option:", e)
# CHECK-NEXT: option: compile: threads must be an int >= 1, not '2'
# CHECK-NEXT: option: compile: opt_level must be an int in [0, 3], not None
# CHECK-NEXT: option: entry must be a function name (str), not 3
try:
    amp.compile(result, os.path.join(folder, "bad.so"), entry="nothing")
except amp.AmpError as e:
    print("error:", str(e).replace("\n", " | "))
# CHECK-NEXT: error: compile failed | error: amp-compile: no function @nothing in the module; functions: @mlp
print("nothing written:", not os.path.exists(os.path.join(folder, "bad.so")))
# CHECK-NEXT: nothing written: True
# The library's own checks, as amp-compile reports them.
for bad in (dict(threads=0), dict(opt_level=7), dict(function="1st")):
    try:
        amp.compile(result, os.path.join(folder, "bad.so"), **bad)
    except amp.AmpError as e:
        print("error:", str(e).splitlines()[-1])
# CHECK-NEXT: error: error: amp-compile: --threads must be in [1, 1024], got 0
# CHECK-NEXT: error: error: amp-compile: -O must be 0, 1, 2 or 3, got 7
# CHECK-NEXT: error: error: amp-compile: --function must be a C identifier, got '1st'
# The module amp.compile was given is left as it was.
with amp.Context() as ctx:
    module = ctx.parse(result.ir)
    module.compile_library(os.path.join(folder, "libagain.so"), entry="mlp")
    print("unchanged:", "linalg" in module.print() and "llvm.func" not in module.print())
# CHECK-NEXT: unchanged: True

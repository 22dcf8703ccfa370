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

# The compiled code is kept in the compile cache amp-run uses: compiling the
# program again only links it (one entry, no warning, the same library).
import glob
import warnings

cache = os.path.join(folder, "cache")
os.environ["AMP_CACHE_DIR"] = cache
entries = lambda: sorted(glob.glob(os.path.join(cache, "*.amp")))


def run(library, function="mlp_f16"):
    result = np.zeros((8, 10), np.float32)
    getattr(ctypes.CDLL(library), function)(*[pointer(a) for a in arguments],
                                            pointer(result))
    return result.tobytes() == reference.tobytes()


def compile_logged(name, **options):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        library = amp.compile(result, os.path.join(folder, name), **options)
    for w in caught:
        print("warning:", w.message)
    return library


cold = compile_logged("libcold.so", function="mlp_f16")
print("cold: entries", len(entries()), "bit for bit", run(cold))
# CHECK-NEXT: cold: entries 1 bit for bit True
warm = compile_logged("libwarm.so", function="mlp_f16")
print("warm: entries", len(entries()), "bit for bit", run(warm))
# CHECK-NEXT: warm: entries 1 bit for bit True
# Another C name is another program; AMP_NO_CACHE=1 neither reads nor writes.
os.environ["AMP_NO_CACHE"] = "1"
other = compile_logged("libother.so", function="mlp_other")
print("bypassed: entries", len(entries()), "bit for bit", run(other, "mlp_other"))
# CHECK-NEXT: bypassed: entries 1 bit for bit True
del os.environ["AMP_NO_CACHE"]
# A damaged entry is a warning, removed and compiled again, never loaded.
with open(entries()[0], "r+b") as f:
    f.seek(os.path.getsize(entries()[0]) // 2)
    byte = f.read(1)
    f.seek(-1, 1)
    f.write(bytes([byte[0] ^ 0xFF]))
repaired = compile_logged("librepaired.so", function="mlp_f16")
# CHECK-NEXT: warning: amp-compile: the compile cache entry '{{.*}}.amp' is corrupt; it is removed and the program compiled again
print("repaired: entries", len(entries()), "bit for bit", run(repaired))
# CHECK-NEXT: repaired: entries 1 bit for bit True
# A bad cache size is a warning here (amp-run and amp-compile refuse it):
# the library is made without the cache.
os.environ["AMP_CACHE_MAX_SIZE"] = "12Q"
sized = compile_logged("libsized.so", function="mlp_f16")
# CHECK-NEXT: warning: amp-compile: AMP_CACHE_MAX_SIZE must be a size in bytes with an optional K, M or G suffix, got '12Q'; the compile cache is not used
print("without the cache: bit for bit", run(sized))
# CHECK-NEXT: without the cache: bit for bit True
del os.environ["AMP_CACHE_MAX_SIZE"]

# RUN: rm -rf %t && mkdir -p %t
# RUN: env AMP_CAPI_LIBRARY=%amp_capi_lib PYTHONPATH=%amp_python_path %python %s %t | FileCheck %s
#
# amp.calibrate runs an f32 program on NumPy inputs (amp-run --calibrate)
# and returns the ranges its values held, the dict amp.convert(ranges=...)
# takes; amp.find_nonfinite runs a converted program and says which op
# first computed inf or NaN, and what the f32 program computed there.
import json
import os
import sys

import numpy as np

import amp

tmp = sys.argv[1]

F32 = """
func.func @layer(%x: tensor<4x16xf32>, %w: tensor<16x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant dense<0.0> : tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%zero : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e = math.exp %m : tensor<4x16xf32>
  return %e : tensor<4x16xf32>
}
"""

# Row sums of x from -12.2 to 12.2: exp of the last row overflows f16.
x = np.linspace(-1, 1, 64).reshape(4, 16)          # float64: rounded to f32
w = np.ones((16, 16), np.float32)
small = np.random.default_rng(0).uniform(-0.1, 0.1, (4, 16)).astype(np.float32)

# One call: every f32 value of the function, exp's range as NumPy has it.
ranges = amp.calibrate(F32, [x, w])
by_name = {v["name"]: v for v in ranges["values"]}
print("version", ranges["amp_ranges_version"], "calls", ranges["calls"],
      "names", sorted(by_name))
# CHECK: version 1 calls 1 names ['arith.constant', 'linalg.matmul', 'math.exp']
exp = np.exp(x.astype(np.float32) @ w.astype(np.float64))
e = by_name["math.exp"]
print("exp count", e["count"], "max ok", abs(e["max"] - exp.max()) <= 1e-5 * exp.max(),
      "min ok", abs(e["min"] - exp.min()) <= 1e-5 * exp.min(), "loc", e["loc"])
# CHECK-NEXT: exp count 64 max ok True min ok True loc <input>:5:8

# Two calls (a list of lists), written to a file as well.
path = os.path.join(tmp, "ranges.json")
two = amp.calibrate(F32, [[x, w], [small, w]], entry="layer", path=path)
with open(path) as f:
    print("calls", two["calls"], "exp count", {v["name"]: v for v in two["values"]}["math.exp"]["count"],
          "file == dict", json.load(f) == two)
# CHECK-NEXT: calls 2 exp count 128 file == dict True

# The converted program: exp in f16 overflows in the last row; in f32 the
# same op (matched by position: amp.convert's text has no locations) is
# finite.
f16 = amp.convert(F32, allow=["math.exp"])
found = amp.find_nonfinite(f16, [x, w], f32=F32)
first = found["first"]
print("found", found["found"], first["name"], "nonfinite", first["nonfinite"], "of",
      first["elements"], "operand sources", [o["source"] for o in first["operands"]])
# CHECK-NEXT: found True math.exp nonfinite 16 of 64 operand sources ['op']
print("f32", found["f32"]["match"], "finite", found["f32"]["finite"],
      "max_abs ok", abs(found["f32"]["max_abs"] - exp.max()) <= 1e-5 * exp.max())
# CHECK-NEXT: f32 position finite True max_abs ok True
print(found["text"].splitlines()[0])
# CHECK-NEXT: first non-finite: math.exp at converted.mlir:{{[0-9]+}}:{{[0-9]+}} (op {{[0-9]+}}, result 0: 16 of 64 elements inf/nan)
quiet = amp.find_nonfinite(f16, [small, w])
print("small inputs:", quiet["found"], quiet["text"])
# CHECK-NEXT: small inputs: False no non-finite values ({{[0-9]+}} values observed over 1 call)


def expect_error(label, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except amp.AmpError as e:
        lines = str(e).splitlines()
        print(f"{label}: {type(e).__name__}: {lines[0]}")
        if len(lines) > 1:
            print(f"  {lines[-1]}")
    else:
        print(f"{label}: no error")


TWO_FUNCTIONS = F32 + F32.replace("@layer", "@other")
expect_error("entry", amp.calibrate, TWO_FUNCTIONS, [x, w])
# CHECK-NEXT: entry: AmpOptionError: give the function to run with entry=: the program has 2 public functions (layer, other)
expect_error("inputs", amp.calibrate, F32, x)
# CHECK-NEXT: inputs: AmpOptionError: inputs must be a list of arrays (one call) or a list of lists of arrays (one call each), not ndarray
expect_error("shape", amp.calibrate, F32, [w, w])
# CHECK-NEXT: shape: AmpError: calibrate failed (amp-run exit status 1):
# CHECK-NEXT:   amp-run: @layer argument 0 (tensor<4x16xf32>): '{{.*}}arg0.npy' has shape (16x16), expected (4x16)

# amp.convert takes the ranges (the dict, or the file) and input ranges,
# as mixed-precision{ranges=... input-range=...}.
from amp._convert import mixed_precision_options
print([o for o in mixed_precision_options(ranges_file="r.json", input_range=(-14, 14))
       if o.startswith(("ranges", "input-range"))])
# CHECK-NEXT: ['ranges=r.json', 'input-range=-14.0:14.0']
print([o for o in mixed_precision_options(input_range={1: (0, 1), 0: (-14, 14.5)})
       if o.startswith("input-range")])
# CHECK-NEXT: ['input-range=0=-14.0:14.5,1=0.0:1.0']
for bad in ((1, 0), (0, float("inf")), (0, "1"), (True, 1), {-1: (0, 1)}, {0: 3}, {}, 5):
    expect_error(f"input_range={bad!r}", amp.convert, F32, input_range=bad)
# CHECK-NEXT: input_range=(1, 0): AmpOptionError: convert: input_range: the range has lo > hi: (1, 0)
# CHECK-NEXT: input_range=(0, inf): AmpOptionError: convert: input_range: the range hi must be finite, got inf
# CHECK-NEXT: input_range=(0, '1'): AmpOptionError: convert: input_range: the range hi must be a number, not str '1'
# CHECK-NEXT: input_range=(True, 1): AmpOptionError: convert: input_range: the range lo must be a number, not bool True
# CHECK-NEXT: input_range={-1: (0, 1)}: AmpOptionError: convert: input_range keys must be argument numbers (int >= 0), not -1
# CHECK-NEXT: input_range={0: 3}: AmpOptionError: convert: input_range: argument 0 must be a (lo, hi) pair, not 3
# CHECK-NEXT: input_range={}: AmpOptionError: convert: input_range is an empty dict
# CHECK-NEXT: input_range=5: AmpOptionError: convert: input_range: the range must be a (lo, hi) pair, not 5
expect_error("ranges=3", amp.convert, F32, ranges=3)
# CHECK-NEXT: ranges=3: AmpOptionError: convert: ranges must be a path (str or os.PathLike), not int
expect_error("ranges={}", amp.convert, F32, ranges={})
# CHECK-NEXT: ranges={}: AmpOptionError: convert: a ranges dict needs a 'values' list (what amp.calibrate returns)

# The pass reads them: the ranges of this program (the dict, or its file)
# and input ranges are accepted; ranges made for another program are an
# error naming the entry that does not match.
for kw in ({"ranges": ranges}, {"ranges": path}, {"input_range": (-14, 14)},
           {"input_range": {0: (-1, 1), 1: (1, 1)}}):
    r = amp.convert(F32, **kw)
    print("convert", sorted(kw), "ok", "linalg.matmul" in r.ir)
# CHECK-NEXT: convert ['ranges'] ok True
# CHECK-NEXT: convert ['ranges'] ok True
# CHECK-NEXT: convert ['input_range'] ok True
# CHECK-NEXT: convert ['input_range'] ok True
expect_error("other program", amp.convert, F32.replace("math.exp", "math.tanh"), ranges=ranges)
# CHECK-NEXT: other program: AmpError: mixed-precision failed
# CHECK-NEXT:   {{.*}}the ranges do not match this program: the entry for op {{[0-9]+}} result 0 ('math.exp' at <input>:5:8) is 'math.tanh' at <input>:5:8 in this program

# The pass's output is clean: mixed-precision (and amp-fold-casts) run on
# their own output print the same text, for every .mlir input of this test
# suite and for seeded random programs, under each placement and type.
# RUN: %python %s %amp_opt %S/.. | FileCheck %s
# CHECK: mixed-precision: {{[0-9]+}} inputs, {{[0-9]+}} runs, 0 differ, 0 fail on their own output
# CHECK: amp-fold-casts: {{[0-9]+}} inputs, 0 differ

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
import random_programs  # noqa: E402

AMP_OPT, TEST_ROOT = sys.argv[1], sys.argv[2]
OPTIONS = ["", "precision=bf16", "placement=greedy", "placement=naive",
           "precision=bf16 accumulate=low",
           "precision=bf16 keep-io-types=false target=cpu"]


def run(path, pipeline):
    """The output of amp-opt on `path`, or None when it rejects the input."""
    proc = subprocess.run(
        [AMP_OPT, path, "--split-input-file", "--allow-unregistered-dialect",
         pipeline, "-o", "-"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return proc.stdout if proc.returncode == 0 else None


def twice(path, pipeline, failures, label):
    """Runs `pipeline` on `path` and on its output; returns 1 if they differ."""
    first = run(path, pipeline)
    if first is None:
        return 0, 0  # inputs the pass rejects (error tests) are not ours
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(first)
    second = run(f.name, pipeline)
    os.unlink(f.name)
    if second is None:
        failures.append(f"{label}: fails on its own output")
        return 1, 1
    if second != first:
        failures.append(f"{label}: second run differs")
        return 1, 0
    return 0, 0


inputs = []
for dirpath, _, files in os.walk(TEST_ROOT):
    inputs += [os.path.join(dirpath, f) for f in sorted(files)
               if f.endswith(".mlir")]
tmp = tempfile.mkdtemp()
for seed in (1, 2):
    path = os.path.join(tmp, f"random-{seed}.mlir")
    with open(path, "w") as f:
        f.write(random_programs.generate(seed, 40))
    inputs.append(path)

failures, differ, failed, runs = [], 0, 0, 0
for path in sorted(inputs):
    for opts in OPTIONS:
        d, f = twice(path, f"--mixed-precision={opts}", failures,
                     f"{os.path.relpath(path, TEST_ROOT)} [{opts}]")
        differ, failed, runs = differ + d - f, failed + f, runs + 1
print(f"mixed-precision: {len(inputs)} inputs, {runs} runs, {differ} differ, "
      f"{failed} fail on their own output")
fold_differ = 0
for path in sorted(inputs):
    fold_differ += twice(path, "--amp-fold-casts", failures,
                         f"{os.path.relpath(path, TEST_ROOT)} [amp-fold-casts]")[0]
print(f"amp-fold-casts: {len(inputs)} inputs, {fold_differ} differ")
for f in failures:
    print("  " + f)

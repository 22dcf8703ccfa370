# amp-fuzz's fixed-seed batch: 24 generated programs (linalg, arith/math,
# tensor, scf.if, TOSA, scf.for, cf branches, private calls, dynamic shapes,
# memrefs; inputs of magnitude 1 to 1e4, tiny and zero), each
# converted in f16 and bf16 with the optimal, greedy and naive placements:
# every conversion verifies, is idempotent, runs on the CPU, stays finite
# where f32 is, and stays within the error bound derived from its ops.
# About 1.5 minutes on 2 cores; a longer run is documented in docs/Fuzzing.md.
#
# RUN: %python %amp_src_root/tools/amp-fuzz/amp_fuzz.py --bin %amp_bin --seed 7 --count 24 | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: 24 programs, 144 conversions: crash=0 verifier=0 idempotence=0 numeric=0 nonfinite=0

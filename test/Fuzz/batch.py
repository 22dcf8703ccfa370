# amp-fuzz's fixed-seed batch: 60 generated programs (linalg, arith/math,
# tensor, scf.if, TOSA, scf.for, cf branches, private calls, dynamic shapes,
# memrefs; inputs of magnitude 1 to 1e4, tiny and zero), each converted in
# f16 and bf16 with the optimal, greedy and naive placements, keeping the
# f32 signature and with a low-precision one (keep-io-types=false), for no
# target or for this CPU (target=cpu, drawn per program): every
# conversion verifies, is idempotent, runs on the CPU, stays finite where
# f32 is, and stays within the error bound derived from its ops. The
# conversions go through amp's Python API (the C API) in a worker process;
# a few programs also through amp-opt processes, which must agree.
# About a minute on 2 cores; a longer run is documented in docs/Fuzzing.md.
#
# RUN: env AMP_CAPI_LIBRARY=%amp_capi_lib %python %amp_src_root/tools/amp-fuzz/amp_fuzz.py --bin %amp_bin --python %amp_python_path --seed 7 --count 60 | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: programs per target: cpu={{[1-9][0-9]*}} none={{[1-9][0-9]*}}
# CHECK: 60 programs, 720 conversions ({{[1-9][0-9]*}} changed the program, {{[1-9][0-9]*}} ran): crash=0 verifier=0 idempotence=0 numeric=0 nonfinite=0
#
# RUN: %python %amp_src_root/tools/amp-fuzz/amp_fuzz.py --bin %amp_bin --converter cli --seed 7 --count 4 | FileCheck %s --check-prefix=CLI
# CLI-NOT: FAIL
# CLI: 4 programs, 48 conversions ({{[1-9][0-9]*}} changed the program, {{[1-9][0-9]*}} ran): crash=0 verifier=0 idempotence=0 numeric=0 nonfinite=0

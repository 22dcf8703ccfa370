# Programs on 64 to 450 rows of 64 to 257 columns (--large), large enough
# that amp-lower-to-llvm splits their ops across threads and runs
# consecutive ops whose slices line up in one worksharing loop: each f32
# program run on 2 threads gives its one-thread results bit for bit
# (--threads 2), as amp splits no reduction. One bf16 conversion each.
#
# RUN: env AMP_CAPI_LIBRARY=%amp_capi_lib %python %amp_src_root/tools/amp-fuzz/amp_fuzz.py --bin %amp_bin --python %amp_python_path --seed 11 --count 40 --large --threads 2 --precisions bf16 --placements optimal --signatures f32 | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: 40 programs, 40 conversions ({{[1-9][0-9]*}} changed the program, {{[1-9][0-9]*}} ran): crash=0 verifier=0 idempotence=0 numeric=0 nonfinite=0 threads=0

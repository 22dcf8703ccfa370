# The checks can fail: amp told that every input is in [-1, 1] while the
# inputs reach 1e4 converts products that overflow f16. amp-fuzz reports
# them and reduces each failing program (mlir-reduce, then deleting ops and
# forwarding their operands while the failure persists) to a smaller one
# that still fails. If amp's decisions change, the programs that fail here
# may change too; some must.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: not env AMP_CAPI_LIBRARY=%amp_capi_lib %python %amp_src_root/tools/amp-fuzz/amp_fuzz.py --bin %amp_bin --python %amp_python_path --seed 3 --count 9 --told-range 1 --reduce --failures %t/failures | FileCheck %s
# CHECK: FAIL p3000017.mlir [f16 low signature {{.*}}] nonfinite: result 1: inf/NaN where f32 is finite
# CHECK: 9 programs, 108 conversions ({{.*}}): crash=0 verifier=0 idempotence=0 numeric=0 nonfinite=2
#
# The reduced program still fails, and has fewer ops than the generated one.
# RUN: not sh %t/failures/p3000017.mlir.interesting.sh %t/failures/p3000017.reduced.mlir
# RUN: %python -c "import sys; ops = lambda p: sum(' = ' in l for l in open(p)); sys.exit(0 if ops('%t/failures/p3000017.reduced.mlir') < ops('%t/failures/p3000017.mlir') else 1)"

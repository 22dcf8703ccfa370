# REQUIRES: bench-digits
# RUN: env AMP_CAPI_LIBRARY=%amp_capi_lib %python %S/../../bench/tune/run.py --models digits-mlp-tight --precisions bf16 --out %t.json | FileCheck %s
#
# The tuning benchmark's smoke test: the digits MLP in bf16 under a budget
# its default conversion misses (logits within 0.1% of their largest
# magnitude), tuned by amp.tune and by ONNX Runtime's bisection on the 450
# held-out images and checked on 450 others. Both meet the budget on the
# images they never saw; amp.tune compiles one converted program (its
# search runs on the emulation), the bisection one per attempt. The f32
# program is also checked against its own budget under one grey level of
# input noise (a budget this tight, it misses).
#
# CHECK: | model | prec | default meets (tune / held out) | f32 under noise | method |
# CHECK: | digits-mlp-tight | bf16 | no / no | {{meets|misses on 1 of 1}} | amp.tune | {{[0-9]+}} of 5 | {{[0-9.]+}}% | {{.*}} | {{[0-9]+}} ({{[0-9]+}} + {{[0-9]+}} + 1) | {{.*}} | meets |
# CHECK: | digits-mlp-tight | bf16 | no / no | {{meets|misses on 1 of 1}} | bisection | {{[0-9]+}} of 5 | {{[0-9.]+}}% | {{.*}} | {{[0-9]+}} (0 + 0 + {{[2-9]|[1-9][0-9]+}}) | {{.*}} | meets |

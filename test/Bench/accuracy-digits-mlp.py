# REQUIRES: bench-digits
# RUN: env AMP_OPT=%amp_opt AMP_CAPI_LIBRARY=%amp_capi_lib %python %S/../../bench/accuracy/run.py --models digits-mlp --variants f32,amp-f16,amp-bf16 --no-docs --json %t.json --quiet | FileCheck %s
#
# The accuracy benchmark's smoke test: the MLP trained on scikit-learn's
# digits (bench/models/digits/mlp.onnx) is imported from ONNX, converted by
# amp to f16 and to bf16 with the default policy, and run on the CPU on the
# 450 held-out images. Mixed precision must keep the task result: every
# image gets the class the f32 import gives it (top-1 agreement 100%, so the
# held-out accuracy is f32's), while the outputs really differ from f32
# (low precision was used) and the contractions, nearly all of the FLOPs,
# run in the low type.
#
# CHECK: digits-mlp f32: max_abs=0 acc [[ACC:[0-9.]+]]%, top-1 = f32 100.0% low_flops=0.0% same=True
# CHECK: digits-mlp amp-f16: max_abs={{(0\.0*[1-9][0-9]*|[1-9][0-9.e+-]*)}} acc [[ACC]]%, top-1 = f32 100.0% low_flops={{(9[0-9]|100)\.[0-9]}}% same=True
# CHECK: digits-mlp amp-bf16: max_abs={{(0\.0*[1-9][0-9]*|[1-9][0-9.e+-]*)}} acc [[ACC]]%, top-1 = f32 100.0% low_flops={{(9[0-9]|100)\.[0-9]}}% same=True

// amp narrows f32 constants to f16 and bf16 on their raw buffers
// (amp/Support/FloatConversion.h): bit arithmetic, F16C where the host has
// it, large buffers on the context's threads. Every result equals
// APFloat::convert's bit for bit, over every exponent, the rounding
// boundaries of both formats (ties, one ulp either side), subnormals,
// overflow, infinities and NaN payloads, and a million random patterns;
// so do the overflow and underflow counts the pass's decisions use, and
// every f16 and bf16 value widened back to f32.
// RUN: amp-opt %s --amp-test-float-conversion -o /dev/null | FileCheck %s
// RUN: amp-opt %s --amp-test-float-conversion=random=0 --mlir-disable-threading -o /dev/null | FileCheck %s

// CHECK: f16 to f32: 65536 patterns equal APFloat's
// CHECK: bf16 to f32: 65536 patterns equal APFloat's
// CHECK: f16 one value: {{[0-9]+}} patterns equal APFloat's
// CHECK: f16 buffer, bits: {{[0-9]+}} patterns equal APFloat's ({{[1-9][0-9]*}} overflow, {{[1-9][0-9]*}} flushed)
// CHECK: bf16 one value: {{[0-9]+}} patterns equal APFloat's
// CHECK: bf16 buffer, bits: {{[0-9]+}} patterns equal APFloat's ({{[1-9][0-9]*}} overflow, {{[1-9][0-9]*}} flushed)
module {}

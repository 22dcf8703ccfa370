// bf16 conversions on Vulkan are exact: amp-emulate-bf16-storage turns
// arith.truncf f32 -> bf16 into round-to-nearest-even on the bits (NaNs made
// quiet with sign and leading payload kept) and arith.extf bf16 -> f32 into
// a shift. The kernel below truncates 14 chosen f32 values, returns the
// bf16 bits and the bits of their extension back to f32; the expected bits
// follow from IEEE 754 rounding and are listed per input.
//
// REQUIRES: vulkan, mlir-runner
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-vulkan)' | mlir-runner -e main -entry-point-result=void -shared-libs=%amp_vulkan_runtime,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
//
// bf16 bits, in input order:
//   1 + 2^-8            tie, rounds down to even        0x3f80 = 16256
//   1 + 3 * 2^-8        tie, rounds up to even          0x3f82 = 16258
//   1 + 2^-8 + 2^-20    above the tie, up               0x3f81 = 16257
//   1 - 2^-9 + 2^-24    above the tie, carries into the exponent: 1.0
//   -0.0                                                0x8000 = 32768
//   +inf, -inf                                          0x7f80, 0xff80
//   largest finite f32  rounds up to +inf               0x7f80 = 32640
//   smallest normal     exact                           0x0080 = 128
//   denormal 0x00018000 tie, up to even (not flushed)   0x0002 = 2
//   qNaN 0x7fc12345     quiet, payload's top kept       0x7fc1 = 32705
//   -sNaN 0xff812345    made quiet, sign kept           0xffc1 = 65473
//   sNaN 0x7f800001     made quiet (not rounded to inf) 0x7fc0 = 32704
//   -2.5                exact                           0xc020 = 49184
// CHECK:      sizes = [14]
// CHECK-NEXT: [16256,  16258,  16257,  16256,  32768,  32640,  65408,  32640,  128,  2,  32705,  65473,  32704,  49184]
// The extension puts those bits in the high half of the f32 (as i32):
// CHECK:      sizes = [14]
// CHECK-NEXT: [1065353216,  1065484288,  1065418752,  1065353216,  -2147483648,  2139095040,  -8388608,  2139095040,  8388608,  131072,  2143354880,  -4128768,  2143289344,  -1071644672]

func.func @compute(%x: tensor<14xf32>) -> (tensor<14xi32>, tensor<14xi32>) {
  %t = arith.truncf %x : tensor<14xf32> to tensor<14xbf16>
  %b = arith.bitcast %t : tensor<14xbf16> to tensor<14xi16>
  %tb = arith.extui %b : tensor<14xi16> to tensor<14xi32>
  %e = arith.extf %t : tensor<14xbf16> to tensor<14xf32>
  %eb = arith.bitcast %e : tensor<14xf32> to tensor<14xi32>
  return %tb, %eb : tensor<14xi32>, tensor<14xi32>
}

func.func @main() {
  %bits = arith.constant dense<[1065385984, 1065451520, 1065385992, 1065320449, -2147483648, 2139095040, -8388608, 2139095039, 8388608, 98304, 2143363909, -8314043, 2139095041, -1071644672]> : tensor<14xi32>
  %x = arith.bitcast %bits : tensor<14xi32> to tensor<14xf32>
  %t, %e = call @compute(%x) : (tensor<14xf32>) -> (tensor<14xi32>, tensor<14xi32>)
  %ut = tensor.cast %t : tensor<14xi32> to tensor<*xi32>
  %mt = bufferization.to_buffer %ut : tensor<*xi32> to memref<*xi32>
  call @printMemrefI32(%mt) : (memref<*xi32>) -> ()
  %ue = tensor.cast %e : tensor<14xi32> to tensor<*xi32>
  %me = bufferization.to_buffer %ue : tensor<*xi32> to memref<*xi32>
  call @printMemrefI32(%me) : (memref<*xi32>) -> ()
  return
}
func.func private @printMemrefI32(memref<*xi32>)

// A kernel's math functions become calls to the CUDA Toolkit's libdevice
// (math.tanh: __nv_tanhf). amp-lower-to-nvvm finds libdevice itself (under
// $CUDA_ROOT, $CUDA_HOME or $CUDA_PATH, beside the ptxas on $PATH, or in
// /usr/local/cuda) and links it into the kernels, so the PTX calls nothing
// outside itself. Upstream's pipeline links it only when one of those
// variables is set; without them, the driver stopped loading the PTX at
// the first call ("Unresolved extern function '__nv_tanhf'", seen on an
// H200).
//
// REQUIRES: libdevice
// RUN: env -u CUDA_ROOT -u CUDA_HOME -u CUDA_PATH amp-opt %s -p 'builtin.module(amp-lower-to-nvvm{chip=sm_90 format=isa})' | FileCheck %s
// CHECK: gpu.binary @{{.+}} [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80", link = ["{{.*}}libdevice.10.bc"]>
// CHECK-SAME: ex2.approx
// CHECK-NOT: __nv_tanhf
//
// The path can be given too (%libdevice: the file lit found).
// RUN: env -u CUDA_ROOT -u CUDA_HOME -u CUDA_PATH amp-opt %s -p 'builtin.module(amp-lower-to-nvvm{chip=sm_90 format=isa libdevice=%libdevice})' | FileCheck %s

func.func @tanh(%x: tensor<64xf32>) -> tensor<64xf32> {
  %0 = math.tanh %x : tensor<64xf32>
  return %0 : tensor<64xf32>
}

// RUN: amp-opt %s -p 'builtin.module(func.func(amp-tile-contractions-for-tensor-cores,amp-emulate-tensor-cores))' -split-input-file -verify-diagnostics | FileCheck %s

// The tensor-core kernel of a 64x64 f16 matmul with its warp-level ops
// emulated: no NVGPU op is left; each thread publishes the ldmatrix row
// address it gives (as i32) and the fragments it holds (as f32) in
// workgroup memory, one row per thread, between barriers; the copies are
// loads and stores, zero past the source element count. (Runs on Vulkan:
// test/Runner/gpu-contractions.py --tensor-cores.)
// CHECK-LABEL: func.func @matmul
// CHECK:         gpu.launch
// CHECK-DAG:       %[[ADDR:.*]] = memref.alloc() : memref<128x4xi32, #gpu.address_space<workgroup>>
// CHECK-DAG:       %[[FRAG:.*]] = memref.alloc() : memref<128x12xf32, #gpu.address_space<workgroup>>
// CHECK:           scf.if
// CHECK:             memref.load %arg0
// CHECK:           } else {
// CHECK:             scf.yield %cst
// CHECK:           scf.for
// CHECK:             memref.store %{{.*}}, %[[ADDR]]
// CHECK:             gpu.barrier
// CHECK:             memref.load %[[ADDR]]
// CHECK:             memref.store %{{.*}}, %[[FRAG]]
// CHECK:             gpu.barrier
// CHECK:             scf.for {{.*}} iter_args
// CHECK:               memref.load %[[FRAG]]
// CHECK:               memref.load %[[FRAG]]
// CHECK:               arith.mulf
// CHECK:               arith.addf
// CHECK-NOT:     nvgpu.
func.func @matmul(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

func.func @dynamic_threads(%n: index, %s: memref<16x16xf16, #gpu.address_space<workgroup>>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{tensor-core emulation needs a constant workgroup of whole warps}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %f = nvgpu.ldmatrix %s[%c0, %c0] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    gpu.terminator
  }
  return
}

// RUN: amp-opt %s -p 'builtin.module(func.func(amp-tile-contractions-for-tensor-cores{tf32=true min-workgroups=4}))' | FileCheck %s
// RUN: amp-opt %s -p 'builtin.module(func.func(amp-tile-contractions-for-tensor-cores{min-workgroups=4}))' | FileCheck %s --check-prefix=EXACT

// With tf32=true, f32 contractions run on TF32 tensor cores. Each operand
// element is rounded to 10 mantissa bits (to nearest, ties away from zero;
// infinities and NaNs kept) as it is staged through registers; f32 tiles
// have rows padded by 4 elements (16 bytes), and the 64x64 tiles get two
// stages where three would pass 48 KiB (128x128 ones do not fit at all);
// fragments are read element by element for mma.sync m16n8k8.
// CHECK-LABEL: func.func @matmul_f32
// CHECK:         gpu.launch
// CHECK:           memref.alloc() {alignment = 16 : i64} : memref<2x64x36xf32, #gpu.address_space<workgroup>>
// CHECK:           memref.alloc() {alignment = 16 : i64} : memref<2x32x68xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK:           arith.cmpi eq, %{{.*}}, %c255_i32
// CHECK:           arith.addi %[[BITS]], %c4096_i32
// CHECK:           arith.andi %{{.*}}, %c-8192_i32
// CHECK:           scf.for
// CHECK:             vector.from_elements {{.*}} : vector<4x1xf32>
// CHECK:             vector.from_elements {{.*}} : vector<2x1xf32>
// CHECK:             nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK:         } {amp.lowering_config = {stages = 2 : i64, warps = array<i64: 2, 2>, workgroup = array<i64: 64, 64, 32>}}
// By default f32 stays exact, on the SIMT kernel.
// EXACT-LABEL: func.func @matmul_f32
// EXACT-NOT:     gpu.launch
// EXACT:         linalg.matmul
func.func @matmul_f32(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  linalg.matmul ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
  return
}

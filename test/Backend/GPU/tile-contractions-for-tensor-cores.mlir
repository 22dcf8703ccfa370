// RUN: amp-opt %s -p 'builtin.module(func.func(amp-tile-contractions-for-tensor-cores{min-workgroups=4}))' -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not amp-opt %s -p 'builtin.module(func.func(amp-tile-contractions-for-tensor-cores{min-workgroups=0}))' -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADOPTION
// BADOPTION: amp-tile-contractions-for-tensor-cores: min-workgroups must be at least 1, got 0

// A 256x256 f16 matmul with f32 accumulators, K = 72 (no multiple of the
// 32-element k step): a 2x2 grid of 128x128 tiles (min-workgroups=4) of 8
// warps, two stages. Both operands' rows are multiples of 16 bytes, so they
// are copied by cp.async, 16 bytes (8 elements) a copy; k past 72 is
// zero-filled (the source element count is 0). A (m x k, k contiguous) is
// staged as [stage][m][k + 8] and read by ldmatrix; B (k x n, n contiguous)
// as [stage][k][n + 8] and read transposed. The fill is the accumulators'
// start.
// CHECK-LABEL: func.func @matmul_f16
// CHECK-NOT:     linalg.fill
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c2{{.*}}, {{.*}} = %c2{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// CHECK:           %[[A:.*]] = memref.alloc() {alignment = 16 : i64} : memref<2x128x40xf16, #gpu.address_space<workgroup>>
// CHECK:           %[[B:.*]] = memref.alloc() {alignment = 16 : i64} : memref<2x32x136xf16, #gpu.address_space<workgroup>>
// The first step is in flight before the loop, and waited for.
// CHECK:           %[[VALID:.*]] = arith.cmpi ult, %{{.*}}, %c72
// CHECK:           %[[N:.*]] = arith.select %[[VALID]], %c8{{.*}}, %c0
// CHECK:           nvgpu.device_async_copy %arg0[{{.*}}], %[[A]][{{.*}}], 8, %[[N]] {bypassL1}
// CHECK:           nvgpu.device_async_copy %arg1[{{.*}}], %[[B]][{{.*}}], 8, %{{.*}} {bypassL1}
// CHECK:           %[[G:.*]] = nvgpu.device_async_create_group
// CHECK:           nvgpu.device_async_wait %[[G]] {numGroups = 0 : i32}
// Each k step: a barrier, the copies of the next step, the fragments of
// this one (4 A fragments and 2 pairs of B fragments per 16 k), 16 mma per
// 16 k into 64 accumulators carried by the loop, the wait for the next
// step's copies.
// CHECK:           %[[ACC:.*]]:64 = scf.for %{{.*}} = %c0{{.*}} to %c3{{.*}} step %c1{{.*}} iter_args(
// CHECK:             gpu.barrier
// CHECK:             nvgpu.device_async_copy
// CHECK:             nvgpu.device_async_create_group
// CHECK:             nvgpu.ldmatrix %[[A]][{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<2x128x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK:             nvgpu.ldmatrix %[[B]][{{.*}}] {numTiles = 4 : i32, transpose = true} : memref<2x32x136xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK:             vector.shuffle
// CHECK:             nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK:             nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK:             scf.yield
// No copy in flight at the end; each accumulator stored once, with its
// neighbour in the next column as a vector of two.
// CHECK:           nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK:           %[[PAIR:.*]] = vector.from_elements %[[ACC]]#0, %[[ACC]]#1 : vector<2xf32>
// CHECK:           vector.store %[[PAIR]], %arg2[{{.*}}] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
// CHECK:         } {amp.lowering_config = {stages = 2 : i64, warps = array<i64: 2, 4>, workgroup = array<i64: 128, 128, 32>}}
// CHECK-NOT:     linalg.generic
func.func @matmul_f16(%a: memref<256x72xf16>, %b: memref<72x256xf16>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  linalg.matmul ins(%a, %b : memref<256x72xf16>, memref<72x256xf16>) outs(%c : memref<256x256xf32>)
  return
}

// -----

// A converted program: the operands are rounded to bf16 by elementwise ops
// the kernel fuses as prologues (the f32 arguments are read and rounded as
// the tiles are loaded, through registers: no cp.async, elements past K
// selected to zero); the rounding of the result back to bf16 is the fused
// epilogue. A small grid gets 32x32 tiles of 4 warps and three stages.
// CHECK-LABEL: func.func @converted_bf16
// CHECK:         gpu.launch
// CHECK-NOT:       nvgpu.device_async_copy
// CHECK:           memref.alloc() {alignment = 16 : i64} : memref<3x32x40xbf16, #gpu.address_space<workgroup>>
// CHECK:           memref.load %arg0
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK:           arith.select %{{.*}}, %{{.*}}, %cst{{.*}} : bf16
// CHECK:           scf.for
// CHECK:             nvgpu.ldmatrix {{.*}} -> vector<4x2xbf16>
// CHECK:             nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK:           vector.store %{{.*}}, %arg2[{{.*}}] {alignment = 4 : i64} : memref<40x24xbf16>, vector<2xbf16>
// CHECK:         } {amp.lowering_config = {stages = 3 : i64, warps = array<i64: 2, 2>, workgroup = array<i64: 32, 32, 32>}}
// CHECK-NOT:     linalg.generic
func.func @converted_bf16(%a: memref<40x20xf32>, %b: memref<24x20xf32>, %out: memref<40x24xbf16>) {
  %zero = arith.constant 0.0 : f32
  %ab = memref.alloc() : memref<40x20xbf16>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<40x20xf32>) outs(%ab : memref<40x20xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  }
  %bb = memref.alloc() : memref<24x20xbf16>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<24x20xf32>) outs(%bb : memref<24x20xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  }
  %c = memref.alloc() : memref<40x24xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<40x24xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ab, %bb : memref<40x20xbf16>, memref<24x20xbf16>) outs(%c : memref<40x24xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<40x24xf32>) outs(%out : memref<40x24xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  }
  memref.dealloc %c : memref<40x24xf32>
  memref.dealloc %ab : memref<40x20xbf16>
  memref.dealloc %bb : memref<24x20xbf16>
  return
}

// -----

// f32 contractions stay exact: left to the SIMT kernel (see
// tile-contractions-for-tensor-cores-tf32.mlir for TF32).
// CHECK-LABEL: func.func @matmul_f32
// CHECK-NOT:     gpu.launch
// CHECK:         linalg.matmul
func.func @matmul_f32(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// A configuration the user gives is used, or the pass fails with the reason.
// CHECK-LABEL: func.func @given
// CHECK:         gpu.launch
// CHECK:         } {amp.lowering_config = {stages = 4 : i64, warps = array<i64: 1, 1>, workgroup = array<i64: 32, 32, 32>}}
func.func @given(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  linalg.matmul {amp.lowering_config = {workgroup = array<i64: 32, 32, 32>, warps = array<i64: 1, 1>, stages = 4 : i64}}
      ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

func.func @bad_warps(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{cannot tile this contraction for tensor cores with {stages = 2 : i64, warps = array<i64: 4, 4>, workgroup = array<i64: 32, 32, 32>}: warp tiles must be multiples of 16x16 and k steps multiples of 16}}
  linalg.matmul {amp.lowering_config = {workgroup = array<i64: 32, 32, 32>, warps = array<i64: 4, 4>, stages = 2 : i64}}
      ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

func.func @too_much_shared(%a: memref<512x512xf16>, %b: memref<512x512xf16>, %c: memref<512x512xf32>) {
  // expected-error @+1 {{bytes of shared memory exceed the 48 KiB every kernel has}}
  linalg.matmul {amp.lowering_config = {workgroup = array<i64: 128, 128, 64>, warps = array<i64: 2, 4>, stages = 3 : i64}}
      ins(%a, %b : memref<512x512xf16>, memref<512x512xf16>) outs(%c : memref<512x512xf32>)
  return
}

// -----

func.func @not_tensor_cores(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{amp.lowering_config asks for tensor cores, but the op cannot use them: the operands are not both f16 or both bf16}}
  linalg.matmul {amp.lowering_config = {workgroup = array<i64: 32, 32, 32>, warps = array<i64: 1, 1>, stages = 2 : i64}}
      ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

func.func @malformed(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{amp.lowering_config: expected {workgroup = array<i64: M, N, K>, warps = array<i64: M, N>, stages = S : i64}}}
  linalg.matmul {amp.lowering_config = {workgroup = array<i64: 32, 32>, warps = array<i64: 1, 1>, stages = 2 : i64}}
      ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

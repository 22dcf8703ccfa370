// RUN: amp-opt %s -p 'builtin.module(func.func(amp-tile-contractions-for-cooperative-matrices{subgroup-size=16}))' -split-input-file | FileCheck %s
// RUN: not amp-opt %s -p 'builtin.module(func.func(amp-tile-contractions-for-cooperative-matrices{subgroup-size=12}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADOPTION
// BADOPTION: amp-tile-contractions-for-cooperative-matrices: min-workgroups must be at least 1 and subgroup-size a power of two, got 128 and 12

// A 100x96 f16 matmul with a transposed B (n x k, k contiguous), K = 64,
// on subgroups of 16: 32x32 tiles of 2x2 subgroups (64 threads), three
// stages of operand tiles staged through registers, each subgroup's 16x16
// f32 accumulator matrix started from the fill; A is read row-major from
// its [m][k] tile, B column-major from its [n][k] tile; the results pass
// through a 32x36 f32 tile to each thread's guarded stores.
// CHECK-LABEL: func.func @matmul_bt
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c64{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// CHECK:           %[[A:.*]] = memref.alloc() {alignment = 16 : i64} : memref<3x32x40xf16, #gpu.address_space<workgroup>>
// CHECK:           %[[B:.*]] = memref.alloc() {alignment = 16 : i64} : memref<3x32x40xf16, #gpu.address_space<workgroup>>
// CHECK:           %[[START:.*]] = gpu.subgroup_mma_constant_matrix %cst : !gpu.mma_matrix<16x16xf32, "COp">
// CHECK:           %[[ACC:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[START]]) -> (!gpu.mma_matrix<16x16xf32, "COp">)
// CHECK:             gpu.barrier
// CHECK:             gpu.subgroup_mma_load_matrix %[[A]][{{.*}}] {leadDimension = 40 : index} : memref<3x32x40xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK:             gpu.subgroup_mma_load_matrix %[[B]][{{.*}}] {leadDimension = 40 : index, transpose} : memref<3x32x40xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK:             gpu.subgroup_mma_compute
// CHECK:           %[[RESULTS:.*]] = memref.alloc() {alignment = 16 : i64} : memref<32x36xf32, #gpu.address_space<workgroup>>
// CHECK:           gpu.subgroup_mma_store_matrix %[[ACC]], %[[RESULTS]][{{.*}}] {leadDimension = 36 : index}
// CHECK:           gpu.barrier
// CHECK:           memref.load %[[RESULTS]]
// CHECK:           scf.if
// CHECK:             memref.store %{{.*}}, %arg2
// CHECK:         } {amp.lowering_config = {stages = 3 : i64, warps = array<i64: 2, 2>, workgroup = array<i64: 32, 32, 32>}}
func.func @matmul_bt(%a: memref<100x64xf16>, %b: memref<96x64xf16>, %c: memref<100x96xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<100x96xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<100x64xf16>, memref<96x64xf16>) outs(%c : memref<100x96xf32>)
  return
}

// -----

// Without a fill to start from (accumulating into the output's old
// values), and in bf16, the op is left to the workgroup-memory kernel.
// CHECK-LABEL: func.func @no_fill
// CHECK-NOT:     gpu.launch
// CHECK:         linalg.matmul
func.func @no_fill(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// CHECK-LABEL: func.func @bf16
// CHECK-NOT:     gpu.launch
// CHECK:         linalg.matmul
func.func @bf16(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xbf16>, memref<64x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}

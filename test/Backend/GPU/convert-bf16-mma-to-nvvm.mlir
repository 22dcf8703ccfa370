// RUN: amp-opt %s -amp-convert-bf16-mma-to-nvvm | FileCheck %s
// RUN: amp-opt %s -amp-convert-bf16-mma-to-nvvm -convert-nvgpu-to-nvvm -convert-vector-to-llvm -convert-func-to-llvm -convert-ub-to-llvm -reconcile-unrealized-casts | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// bf16 m16n8k16 with f32 accumulators: each row of a fragment (a pair of
// bf16) is one i32 register of nvvm.mma.sync, whose four f32 results are
// the new accumulator vector.
// CHECK-LABEL: func.func @bf16
// CHECK-NOT:     nvgpu.mma.sync
// CHECK-COUNT-6: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK:         %[[D:.*]] = nvvm.mma.sync A[{{.*}}, {{.*}}, {{.*}}, {{.*}}] B[{{.*}}, {{.*}}] C[{{.*}}, {{.*}}, {{.*}}, {{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK:         vector.from_elements {{.*}} : vector<2x2xf32>
// LLVM-LABEL: define {{.*}} @bf16
// LLVM:         call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32
func.func @bf16(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// f16 is convert-nvgpu-to-nvvm's.
// CHECK-LABEL: func.func @f16
// CHECK:         nvgpu.mma.sync
// LLVM-LABEL: define {{.*}} @f16
// LLVM:         call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half>
func.func @f16(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

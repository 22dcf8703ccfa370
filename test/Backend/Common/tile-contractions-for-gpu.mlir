// RUN: amp-opt %s -p 'builtin.module(func.func(amp-tile-contractions-for-gpu))' -split-input-file -verify-diagnostics | FileCheck %s

// A 100x70 f16 matmul with f32 accumulators, K = 40: a 2x2 grid of 64x64
// tiles (the last ones masked), 16x16 threads of 4x4 accumulators, k in
// steps of 16 staged twice over in workgroup memory (rows padded by one
// element); the fill right before the op is the accumulators' start.
// CHECK-LABEL: func.func @matmul_f16
// CHECK-NOT:     linalg.fill
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[C2:.*]], {{.*}} = %[[C2]], {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %[[C16:.*]], {{.*}} = %[[C16]], {{.*}} = %c1
// CHECK:           %[[A:.*]] = memref.alloc() : memref<2x64x17xf16, #gpu.address_space<workgroup>>
// CHECK:           %[[B:.*]] = memref.alloc() : memref<2x16x65xf16, #gpu.address_space<workgroup>>
// The first k step is staged before the loop.
// CHECK:           memref.store {{.*}}, %[[A]]
// CHECK:           memref.store {{.*}}, %[[B]]
// CHECK:           gpu.barrier
// One loop over the k steps but the last, carrying 16 accumulators: the next
// step's tiles are read from global memory before this step's arithmetic
// and stored after it, then one barrier.
// CHECK:           %[[ACC:.*]]:16 = scf.for {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK:             memref.load %arg0
// CHECK:             memref.load %arg1
// CHECK:             memref.load %[[A]]
// CHECK:             arith.extf
// CHECK:             arith.mulf
// CHECK:             arith.addf
// CHECK:             memref.store {{.*}}, %[[A]]
// CHECK:             gpu.barrier
// CHECK:             scf.yield
// The last step (8 of 40) unrolled, then each output stored once, where it
// lies inside the 100x70 result.
// CHECK:           arith.cmpi ult, {{.*}}, %c100
// CHECK:           arith.cmpi ult, {{.*}}, %c70
// CHECK:           scf.if
// CHECK:             memref.store {{.*}}, %arg2
// CHECK:         } {amp.lowering_config = {thread = array<i64: 4, 4>, workgroup = array<i64: 64, 64, 16>}}
func.func @matmul_f16(%a: memref<100x40xf16>, %b: memref<40x70xf16>, %c: memref<100x70xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<100x70xf32>)
  linalg.matmul ins(%a, %b : memref<100x40xf16>, memref<40x70xf16>) outs(%c : memref<100x70xf32>)
  return
}

// -----

// Two batch dimensions (attention's scores, Q K^T): the grid's z runs over
// both; the output's old values start the accumulators (no fill before).
// CHECK-LABEL: func.func @attention_scores
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}}, {{.*}}, {{.*}} = %c6{{.*}})
// CHECK:           memref.load %arg2
// CHECK:         } {amp.lowering_config = {thread = array<i64: 2, 2>, workgroup = array<i64: 32, 32, 16>}}
func.func @attention_scores(%q: memref<2x3x40x16xf32>, %k: memref<2x3x50x16xf32>, %s: memref<2x3x40x50xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                   affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                                   affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<2x3x40x16xf32>, memref<2x3x50x16xf32>) outs(%s : memref<2x3x40x50xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A configuration given on the op is used.
// CHECK-LABEL: func.func @given
// CHECK:         amp.lowering_config = {thread = array<i64: 2, 8>, workgroup = array<i64: 32, 128, 8>}
func.func @given(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
  linalg.matmul {amp.lowering_config = {workgroup = array<i64: 32, 128, 8>, thread = array<i64: 2, 8>}}
      ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
  return
}

// -----

// What the strategy does not take is left alone: tensors, strided views,
// convolutions (two reduction dimensions), elementwise ops.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     gpu.launch
// CHECK:         linalg.matmul
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK:         linalg.matmul {{.*}} -> tensor<4x4xf32>
func.func @left_alone(%a: memref<8x8xf32, strided<[16, 1]>>, %b: memref<8x8xf32>, %c: memref<8x8xf32>,
                      %i: memref<1x6x6x2xf32>, %f: memref<3x3x2x4xf32>, %o: memref<1x4x4x4xf32>,
                      %t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  linalg.matmul ins(%a, %b : memref<8x8xf32, strided<[16, 1]>>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%i, %f : memref<1x6x6x2xf32>, memref<3x3x2x4xf32>) outs(%o : memref<1x4x4x4xf32>)
  %r = linalg.matmul ins(%t, %t : tensor<4x4xf32>, tensor<4x4xf32>) outs(%t : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// A configuration the target cannot run is an error.
func.func @too_many_threads(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
  // expected-error @below {{cannot tile this contraction for the GPU with {thread = array<i64: 1, 1>, workgroup = array<i64: 64, 64, 16>}: a workgroup of 4096 threads exceeds 1024}}
  linalg.matmul {amp.lowering_config = {workgroup = array<i64: 64, 64, 16>, thread = array<i64: 1, 1>}}
      ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
  return
}

// -----

func.func @malformed(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
  // expected-error @below {{amp.lowering_config: expected {workgroup = array<i64: M, N, K>, thread = array<i64: M, N>}}}
  linalg.matmul {amp.lowering_config = {workgroup = array<i64: 64, 64>}}
      ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
  return
}

// -----

func.func @too_much_memory(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
  // expected-error @below {{bytes of workgroup memory exceed the 48 KiB every target has}}
  linalg.matmul {amp.lowering_config = {workgroup = array<i64: 256, 256, 32>, thread = array<i64: 8, 8>}}
      ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
  return
}

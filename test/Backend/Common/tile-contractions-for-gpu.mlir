// RUN: amp-opt %s -p 'builtin.module(func.func(amp-tile-contractions-for-gpu{min-workgroups=4}))' -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not amp-opt %s -p 'builtin.module(func.func(amp-tile-contractions-for-gpu{min-workgroups=0}))' -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADOPTION
// BADOPTION: amp-tile-contractions-for-gpu: min-workgroups must be at least 1, got 0

// (min-workgroups=4: the large tiles wherever the grid has 4 workgroups.)
//
// A 100x70 f16 matmul with f32 accumulators, K = 40: a 2x2 grid of 64x64
// tiles (the last ones masked), 16x16 threads of 4x4 accumulators, k in
// steps of 16 staged twice over in workgroup memory (rows padded by one
// element); the fill right before the op is the accumulators' start.
// CHECK-LABEL: func.func @matmul_f16
// CHECK-NOT:     linalg.fill
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c2{{.*}}, {{.*}} = %c2{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c16{{.*}}, {{.*}} = %c16{{.*}}, {{.*}} = %c1{{.*}})
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
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c6{{.*}})
// CHECK:           memref.load %arg2
// CHECK:         } {amp.lowering_config = {thread = array<i64: 4, 4>, workgroup = array<i64: 64, 64, 16>}}
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

// A convolution is an implicit GEMM: m = (n, oh, ow) = 64, n = f = 32,
// k = (kh, kw, c) = 72. The lhs tile is gathered from the image through
// the op's map (oh + kh, ow + kw); there is no im2col buffer. The
// generic fill before it is the accumulators' start.
// CHECK-LABEL: func.func @conv
// CHECK-NOT:     linalg.generic
// CHECK:         gpu.launch
// CHECK:           memref.alloc() : memref<2x32x17xf16, #gpu.address_space<workgroup>>
// CHECK:           memref.alloc() : memref<2x16x33xf16, #gpu.address_space<workgroup>>
// CHECK:           memref.load %arg0[{{.*}}] : memref<1x10x10x8xf16>
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %cst,
// CHECK:         } {amp.lowering_config = {thread = array<i64: 2, 2>, workgroup = array<i64: 32, 32, 16>}}
// CHECK-NOT:     linalg.conv
func.func @conv(%i: memref<1x10x10x8xf16>, %f: memref<3x3x8x32xf16>, %o: memref<1x8x8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%o : memref<1x8x8x32xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  }
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : memref<1x10x10x8xf16>, memref<3x3x8x32xf16>) outs(%o : memref<1x8x8x32xf32>)
  return
}

// -----

// The elementwise op after a contraction that reads its result (bias,
// tanh, the cast to f16) is its epilogue: applied to each accumulator
// before the single store, into the epilogue's own output; the f32
// temporary is gone.
// CHECK-LABEL: func.func @epilogue
// CHECK-NOT:     memref.alloc() : memref<64x128xf32>
// CHECK:         gpu.launch
// CHECK-NOT:       memref.store {{.*}} : memref<64x128xf32>
// CHECK:           memref.load %arg2[{{.*}}] : memref<128xf32>
// CHECK:           math.tanh
// CHECK:           arith.truncf
// CHECK:           memref.store {{.*}}, %arg3[{{.*}}] : memref<64x128xf16>
// CHECK:         }
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     memref.dealloc
func.func @epilogue(%x: memref<64x256xf16>, %w: memref<256x128xf16>, %b: memref<128xf32>, %y: memref<64x128xf16>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<64x128xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x128xf32>)
  linalg.matmul ins(%x, %w : memref<64x256xf16>, memref<256x128xf16>) outs(%acc : memref<64x128xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%acc, %b : memref<64x128xf32>, memref<128xf32>) outs(%y : memref<64x128xf16>) {
  ^bb0(%m: f32, %bias: f32, %o: f16):
    %s = arith.addf %m, %bias : f32
    %t = math.tanh %s : f32
    %h = arith.truncf %t : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %acc : memref<64x128xf32>
  return
}

// -----

// The rounding of an f32 argument to f16 into a temporary that only the
// contraction reads is its prologue: applied as the tiles are loaded, from
// the f32 argument; the temporary and the kernel that wrote it are gone.
// A rounding whose result is read again stays.
// CHECK-LABEL: func.func @prologue
// CHECK-NOT:     memref.alloc() : memref<64x256xf16>
// CHECK:         %[[KEPT:.*]] = memref.alloc() : memref<256x128xf16>
// CHECK:         linalg.generic {{.*}} ins(%arg1 : memref<256x128xf32>) outs(%[[KEPT]] : memref<256x128xf16>)
// CHECK:         gpu.launch
// CHECK:           %[[X:.*]] = memref.load %arg0[{{.*}}] : memref<64x256xf32>
// CHECK:           arith.truncf %[[X]] : f32 to f16
// CHECK:           memref.load %[[KEPT]][{{.*}}] : memref<256x128xf16>
// CHECK:         }
// CHECK:         call @use(%[[KEPT]])
func.func private @use(memref<256x128xf16>)
func.func @prologue(%x: memref<64x256xf32>, %w: memref<256x128xf32>, %y: memref<64x128xf32>) {
  %xh = memref.alloc() : memref<64x256xf16>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x256xf32>) outs(%xh : memref<64x256xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  %wh = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<256x128xf32>) outs(%wh : memref<256x128xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  linalg.matmul ins(%xh, %wh : memref<64x256xf16>, memref<256x128xf16>) outs(%y : memref<64x128xf32>)
  func.call @use(%wh) : (memref<256x128xf16>) -> ()
  memref.dealloc %xh : memref<64x256xf16>
  return
}

// -----

// An elementwise op after the contraction is not its epilogue when the
// contraction's result is the caller's buffer (or is read again later):
// the result is stored as it is.
// CHECK-LABEL: func.func @result_read_later
// CHECK:         gpu.launch
// CHECK:           memref.store {{.*}}, %arg2[{{.*}}] : memref<64x64xf32>
// CHECK:         linalg.generic
func.func @result_read_later(%x: memref<64x64xf32>, %w: memref<64x64xf32>, %c: memref<64x64xf32>, %y: memref<64x64xf32>) {
  linalg.matmul ins(%x, %w : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%y : memref<64x64xf32>) {
  ^bb0(%m: f32, %o: f32):
    %t = math.tanh %m : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// A write between the producer of an input and the contraction, to what
// the producer reads (here through a view), keeps the producer apart: the
// kernel would read its input after the write.
// CHECK-LABEL: func.func @prologue_view
// CHECK:         linalg.generic {{.*}} ins(%arg0 : memref<64x256xf32>) outs(%{{.*}} : memref<64x256xf16>)
// CHECK:         linalg.fill
// CHECK:         gpu.launch
// CHECK-NOT:       memref.load %arg0
// CHECK:         }
func.func @prologue_view(%x: memref<64x256xf32>, %w: memref<256x128xf16>, %y: memref<64x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %xh = memref.alloc() : memref<64x256xf16>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x256xf32>) outs(%xh : memref<64x256xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  }
  %sv = memref.subview %x[0, 0] [1, 256] [1, 1] : memref<64x256xf32> to memref<256xf32, strided<[1]>>
  linalg.fill ins(%zero : f32) outs(%sv : memref<256xf32, strided<[1]>>)
  linalg.matmul ins(%xh, %w : memref<64x256xf16>, memref<256x128xf16>) outs(%y : memref<64x128xf32>)
  memref.dealloc %xh : memref<64x256xf16>
  return
}

// -----

// What the strategy does not take is left alone: tensors, strided views,
// depthwise convolutions (no output channel loop), an output that is also
// an input (other workgroups still read it), complex elements.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     gpu.launch
// CHECK:         linalg.matmul
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwc
// CHECK:         linalg.matmul {{.*}} -> tensor<4x4xf32>
// CHECK:         linalg.matmul ins(%[[IN:.*]], %{{.*}}) outs(%[[IN]]
// CHECK:         linalg.matmul {{.*}}complex<f32>
func.func @left_alone(%a: memref<8x8xf32, strided<[16, 1]>>, %b: memref<8x8xf32>, %c: memref<8x8xf32>,
                      %i: memref<1x6x6x4xf32>, %f: memref<3x3x4xf32>, %o: memref<1x4x4x4xf32>,
                      %t: tensor<4x4xf32>, %z: memref<8x8xcomplex<f32>>) -> tensor<4x4xf32> {
  linalg.matmul ins(%a, %b : memref<8x8xf32, strided<[16, 1]>>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  linalg.depthwise_conv_2d_nhwc_hwc ins(%i, %f : memref<1x6x6x4xf32>, memref<3x3x4xf32>) outs(%o : memref<1x4x4x4xf32>)
  %r = linalg.matmul ins(%t, %t : tensor<4x4xf32>, tensor<4x4xf32>) outs(%t : tensor<4x4xf32>) -> tensor<4x4xf32>
  linalg.matmul ins(%b, %c : memref<8x8xf32>, memref<8x8xf32>) outs(%b : memref<8x8xf32>)
  %zo = memref.alloc() : memref<8x8xcomplex<f32>>
  linalg.matmul ins(%z, %z : memref<8x8xcomplex<f32>>, memref<8x8xcomplex<f32>>) outs(%zo : memref<8x8xcomplex<f32>>)
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
  // expected-error @below {{amp.lowering_config: expected {workgroup = array<i64: M, N, K>, thread = array<i64: M, N>}}
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

// RUN: amp-opt %s -p 'builtin.module(func.func(amp-widen-reused-inputs))' -split-input-file | FileCheck %s
// RUN: amp-opt %s -p 'builtin.module(func.func(amp-widen-reused-inputs{keep-bf16-products}))' -split-input-file | FileCheck %s --check-prefix=KEEP
// RUN: amp-opt %s -p 'builtin.module(func.func(amp-widen-reused-inputs{min-widenings=100}))' -split-input-file | FileCheck %s --check-prefix=MIN100
// RUN: not amp-opt %s -p 'builtin.module(func.func(amp-widen-reused-inputs{min-widenings=0.5}))' -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: min-widenings must be at least 1 and tile-rows at least 1, not 5.000000e-01 and 8
// RUN: not amp-opt %s -p 'builtin.module(func.func(amp-widen-reused-inputs{min-widenings=nan}))' -split-input-file 2>&1 | FileCheck %s --check-prefix=NAN
// NAN: min-widenings must be at least 1 and tile-rows at least 1, not nan and 8
// RUN: not amp-opt %s -p 'builtin.module(func.func(amp-widen-reused-inputs{tile-rows=0}))' -split-input-file 2>&1 | FileCheck %s --check-prefix=ROWS
// ROWS: min-widenings must be at least 1 and tile-rows at least 1, not 2.000000e+00 and 0

// A matmul of f16 operands summed in f32 reads each element of %a 16 times
// (once per column: a broadcast scalar, a whole vector widened each time)
// and each of %w 64 times (once per row, a vector that 8 rows share: 8
// widenings): both are widened once, by elementwise ops before it, and the
// matmul multiplies f32.
// CHECK-LABEL: func.func @matmul_f16
// CHECK: %[[EW:.+]] = tensor.empty() : tensor<32x16xf32>
// CHECK: %[[W:.+]] = linalg.generic {{.+}} ins(%arg1 : tensor<32x16xf16>) outs(%[[EW]] : tensor<32x16xf32>)
// CHECK: %[[EA:.+]] = tensor.empty() : tensor<64x32xf32>
// CHECK: %[[A:.+]] = linalg.generic {{.+}} ins(%arg0 : tensor<64x32xf16>) outs(%[[EA]] : tensor<64x32xf32>)
// CHECK-NEXT: ^bb0(%[[X:.+]]: f16, %{{.+}}: f32):
// CHECK-NEXT: %[[XW:.+]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT: linalg.yield %[[XW]] : f32
// CHECK: linalg.generic {{.+}} ins(%[[A]], %[[W]] : tensor<64x32xf32>, tensor<32x16xf32>)
// CHECK-NEXT: ^bb0(%[[P:.+]]: f32, %[[Q:.+]]: f32, %[[S:.+]]: f32):
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[P]], %[[Q]] : f32
// CHECK-NEXT: arith.addf %[[S]], %[[M]] : f32
// CHECK-NOT: arith.extf
// CHECK: return
// With at least 100 widenings per element, neither is.
// MIN100-LABEL: func.func @matmul_f16
// MIN100-NOT: tensor.empty
// MIN100: ins(%arg0, %arg1 : tensor<64x32xf16>, tensor<32x16xf16>)
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @matmul_f16(%a: tensor<64x32xf16>, %w: tensor<32x16xf16>, %init: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : tensor<64x32xf16>, tensor<32x16xf16>) outs(%init : tensor<64x16xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xw = arith.extf %x : f16 to f32
    %yw = arith.extf %y : f16 to f32
    %p = arith.mulf %xw, %yw : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// -----

// A bf16 product sum: widened like any other, unless the AVX512-BF16 dot
// product is to reduce it (keep-bf16-products), which reads bf16 pairs.
// CHECK-LABEL: func.func @matmul_bf16
// CHECK: ins(%{{.+}}, %{{.+}} : tensor<16x8xf32>, tensor<8x16xf32>)
// KEEP-LABEL: func.func @matmul_bf16
// KEEP-NOT: tensor.empty
// KEEP: ins(%arg0, %arg1 : tensor<16x8xbf16>, tensor<8x16xbf16>)
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @matmul_bf16(%a: tensor<16x8xbf16>, %w: tensor<8x16xbf16>, %init: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : tensor<16x8xbf16>, tensor<8x16xbf16>) outs(%init : tensor<16x16xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xw = arith.extf %x : bf16 to f32
    %yw = arith.extf %y : bf16 to f32
    %p = arith.mulf %xw, %yw : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// -----

// With 4 rows the kernel widens each element of %w once (its 4 rows share
// every vector read): %w stays f16, half the bytes; %a, a broadcast scalar
// read 16 times, is widened.
// CHECK-LABEL: func.func @few_rows
// CHECK: %[[A:.+]] = linalg.generic {{.+}} ins(%arg0 : tensor<4x32xf16>) outs(%{{.+}} : tensor<4x32xf32>)
// CHECK: linalg.generic {{.+}} ins(%[[A]], %arg1 : tensor<4x32xf32>, tensor<32x16xf16>)
// CHECK-NEXT: ^bb0(%[[P:.+]]: f32, %[[Q:.+]]: f16, %{{.+}}: f32):
// CHECK-NEXT: %[[QW:.+]] = arith.extf %[[Q]] : f16 to f32
// CHECK-NEXT: arith.mulf %[[P]], %[[QW]] : f32
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @few_rows(%a: tensor<4x32xf16>, %w: tensor<32x16xf16>, %init: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : tensor<4x32xf16>, tensor<32x16xf16>) outs(%init : tensor<4x16xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xw = arith.extf %x : f16 to f32
    %yw = arith.extf %y : f16 to f32
    %p = arith.mulf %xw, %yw : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// A sum along rows reads each element once: its cast stays in the kernel,
// which reads half the bytes.
// CHECK-LABEL: func.func @row_sum
// CHECK-NOT: tensor.empty
// CHECK: ins(%arg0 : tensor<8x64xf16>)
// CHECK: arith.extf
func.func @row_sum(%x: tensor<8x64xf16>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf16>) outs(%init : tensor<8xf32>) {
  ^bb0(%v: f16, %acc: f32):
    %w = arith.extf %v : f16 to f32
    %s = arith.addf %acc, %w : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A padded input of a depthwise convolution (the window reads each element
// about 6 times here, 9 on a large map, each read a vector): the pad of the
// widened source, with the padding value widened, so that
// amp-pad-in-place still writes the widening into the padded buffer.
// The f16 pad and its padding value, which nothing else uses, go.
// CHECK-LABEL: func.func @padded_depthwise
// CHECK-NOT: tensor<1x10x10x16xf16>
// CHECK-NOT: arith.constant 0.000000e+00 : f16
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[WIDE:.+]] = linalg.generic {{.+}} ins(%arg0 : tensor<1x8x8x16xf16>) outs(%{{.+}} : tensor<1x8x8x16xf32>)
// CHECK: %[[PAD:.+]] = tensor.pad %[[WIDE]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tensor.yield %[[ZERO]] : f32
// CHECK-NEXT: } : tensor<1x8x8x16xf32> to tensor<1x10x10x16xf32>
// CHECK: ins(%[[PAD]], %{{.+}} : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>)
// CHECK-NOT: tensor<1x10x10x16xf16>
#in = affine_map<(n, h, w, c, kh, kw) -> (n, h + kh, w + kw, c)>
#filter = affine_map<(n, h, w, c, kh, kw) -> (kh, kw, c)>
#out = affine_map<(n, h, w, c, kh, kw) -> (n, h, w, c)>
func.func @padded_depthwise(%x: tensor<1x8x8x16xf16>, %f: tensor<3x3x16xf16>, %init: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f16
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f16
  } : tensor<1x8x8x16xf16> to tensor<1x10x10x16xf16>
  %r = linalg.generic {indexing_maps = [#in, #filter, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%padded, %f : tensor<1x10x10x16xf16>, tensor<3x3x16xf16>) outs(%init : tensor<1x8x8x16xf32>) {
  ^bb0(%v: f16, %g: f16, %acc: f32):
    %vw = arith.extf %v : f16 to f32
    %gw = arith.extf %g : f16 to f32
    %p = arith.mulf %vw, %gw : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}

// -----

// An input the body also uses in its own type (a comparison in f16) stays:
// widening it would change what the comparison sees.
// CHECK-LABEL: func.func @used_low
// CHECK-NOT: tensor.empty
// CHECK: ins(%arg0, %arg1 : tensor<16x8xf16>, tensor<8x16xf16>)
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @used_low(%a: tensor<16x8xf16>, %w: tensor<8x16xf16>, %init: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : tensor<16x8xf16>, tensor<8x16xf16>) outs(%init : tensor<16x16xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %m = arith.maximumf %x, %y : f16
    %mw = arith.extf %m : f16 to f32
    %s = arith.addf %acc, %mw : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// -----

// Dynamic shapes give no count of reads: nothing changes.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: tensor.empty
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @dynamic(%a: tensor<?x8xf16>, %w: tensor<8x16xf16>, %init: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : tensor<?x8xf16>, tensor<8x16xf16>) outs(%init : tensor<?x16xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xw = arith.extf %x : f16 to f32
    %yw = arith.extf %y : f16 to f32
    %p = arith.mulf %xw, %yw : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// -----

// A padding value made inside the pad's region goes with the pad.
// CHECK-LABEL: func.func @pad_value_inside
// CHECK-NOT: f16 to tensor
// CHECK: tensor.pad %{{.+}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %{{.+}} : f32
// CHECK: } : tensor<1x8x8x16xf32> to tensor<1x10x10x16xf32>
#in = affine_map<(n, h, w, c, kh, kw) -> (n, h + kh, w + kw, c)>
#filter = affine_map<(n, h, w, c, kh, kw) -> (kh, kw, c)>
#out = affine_map<(n, h, w, c, kh, kw) -> (n, h, w, c)>
func.func @pad_value_inside(%x: tensor<1x8x8x16xf16>, %f: tensor<3x3x16xf16>, %init: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    %one = arith.constant 1.0 : f16
    tensor.yield %one : f16
  } : tensor<1x8x8x16xf16> to tensor<1x10x10x16xf16>
  %r = linalg.generic {indexing_maps = [#in, #filter, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%padded, %f : tensor<1x10x10x16xf16>, tensor<3x3x16xf16>) outs(%init : tensor<1x8x8x16xf32>) {
  ^bb0(%v: f16, %g: f16, %acc: f32):
    %vw = arith.extf %v : f16 to f32
    %gw = arith.extf %g : f16 to f32
    %p = arith.mulf %vw, %gw : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}

// -----

// A pad of a dynamic source into a static tensor: the padded tensor itself
// is widened (an empty tensor of the source's shape would need its sizes).
// CHECK-LABEL: func.func @pad_dynamic_source
// CHECK: %[[PAD:.+]] = tensor.pad %arg0 low[0, 1] high[%arg3, 1]
// CHECK: } : tensor<?x8xf16> to tensor<10x10xf16>
// CHECK: %[[WIDE:.+]] = linalg.generic {{.+}} ins(%[[PAD]] : tensor<10x10xf16>) outs(%{{.+}} : tensor<10x10xf32>)
// (%w is widened 10 / 8 times per element: it stays.)
// CHECK: ins(%[[WIDE]], %arg1 : tensor<10x10xf32>, tensor<10x16xf16>)
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @pad_dynamic_source(%x: tensor<?x8xf16>, %w: tensor<10x16xf16>, %init: tensor<10x16xf32>, %h: index) -> tensor<10x16xf32> {
  %zero = arith.constant 0.0 : f16
  %padded = tensor.pad %x low[0, 1] high[%h, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f16
  } : tensor<?x8xf16> to tensor<10x10xf16>
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%padded, %w : tensor<10x10xf16>, tensor<10x16xf16>) outs(%init : tensor<10x16xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %aw = arith.extf %a : f16 to f32
    %bw = arith.extf %b : f16 to f32
    %p = arith.mulf %aw, %bw : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<10x16xf32>
  return %r : tensor<10x16xf32>
}

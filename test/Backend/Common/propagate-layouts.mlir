// amp-propagate-layouts stores an elementwise result in the layout its
// largest input is read in when that spares its users element-by-element
// accesses.
// RUN: amp-opt %s -split-input-file --amp-propagate-layouts | FileCheck %s

// A squeeze-excitation block as the ONNX importer leaves it after fusion:
// an activation reads the convolution's NHWC result and stores it in NCHW,
// read by a global pool (sum over H, W) and by the product with the
// block's scale, which stores NHWC again. The activation's result is
// stored in NHWC instead, and the activation then iterates in NHWC order
// (its loops interchanged so that it writes its output in loop order, as
// a kernel's epilogue must); the pool sums with the channels innermost,
// and the product reads and writes NHWC.
// CHECK-DAG:   #[[NHWC:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
// CHECK-DAG:   #[[C:.+]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[NC:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG:   #[[NCOUT:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
// CHECK-LABEL: func.func @squeeze_excitation
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<2x3x4x8xf32>
// CHECK:         %[[ACT:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[C]], #[[ID]]]
// CHECK-SAME:        outs(%[[E]] : tensor<2x3x4x8xf32>) {
// CHECK:         linalg.generic {indexing_maps = [#[[NHWC]], #[[NC]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME:        ins(%[[ACT]] : tensor<2x3x4x8xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[NCOUT]], #[[ID]]]
// CHECK-SAME:        ins(%[[ACT]], %{{.+}} : tensor<2x3x4x8xf32>, tensor<2x8xf32>)
#nhwc = affine_map<(n, c, h, w) -> (n, h, w, c)>
#nchw = affine_map<(n, c, h, w) -> (n, c, h, w)>
#chan = affine_map<(n, c, h, w) -> (c)>
#nc = affine_map<(n, c, h, w) -> (n, c)>
#p_in = affine_map<(n, h, w, c) -> (n, c, h, w)>
#p_scale = affine_map<(n, h, w, c) -> (n, c)>
#p_out = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @squeeze_excitation(%conv: tensor<2x3x4x8xf32>, %bias: tensor<8xf32>, %scale: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x3x4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x3x4xf32>
  %act = linalg.generic {indexing_maps = [#nhwc, #chan, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %bias : tensor<2x3x4x8xf32>, tensor<8xf32>) outs(%e : tensor<2x8x3x4xf32>) {
  ^bb0(%x: f32, %b: f32, %out: f32):
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8x3x4xf32>
  %pe = tensor.empty() : tensor<2x8xf32>
  %pf = linalg.fill ins(%zero : f32) outs(%pe : tensor<2x8xf32>) -> tensor<2x8xf32>
  %pool = linalg.generic {indexing_maps = [#nchw, #nc], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%act : tensor<2x8x3x4xf32>) outs(%pf : tensor<2x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x8xf32>
  %oe = tensor.empty() : tensor<2x3x4x8xf32>
  %out = linalg.generic {indexing_maps = [#p_in, #p_scale, #p_out], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%act, %scale : tensor<2x8x3x4xf32>, tensor<2x8xf32>) outs(%oe : tensor<2x3x4x8xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %m = arith.mulf %x, %s : f32
    linalg.yield %m : f32
  } -> tensor<2x3x4x8xf32>
  return %pool, %out : tensor<2x8xf32>, tensor<2x3x4x8xf32>
}

// -----

// Kept: a result a 1x1 convolution reads along its reduction loop (the
// channels, the direction of its dot products), though storing it like
// the op's inputs would spare more accesses elsewhere; a result the
// function returns; and a result whose user is served by its layout as
// well as the op would be by the other.
// CHECK-LABEL: func.func @kept
// CHECK:         linalg.generic
// CHECK-SAME:        outs(%{{.+}} : tensor<2x3x4x8xf32>)
// CHECK:         linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : tensor<2x3x4x8xf32>, tensor<8x2xf32>)
// CHECK-COUNT-3: outs(%{{.+}} : tensor<2x8x3x4xf32>)
#nhwc = affine_map<(n, c, h, w) -> (n, h, w, c)>
#nchw = affine_map<(n, c, h, w) -> (n, c, h, w)>
#k_act = affine_map<(n, h, w, f, c) -> (n, h, w, c)>
#k_wei = affine_map<(n, h, w, f, c) -> (c, f)>
#k_out = affine_map<(n, h, w, f, c) -> (n, h, w, f)>
func.func @kept(%x: tensor<2x8x3x4xf32>, %y: tensor<2x8x3x4xf32>, %w: tensor<8x2xf32>, %acc: tensor<2x3x4x2xf32>, %conv: tensor<2x3x4x8xf32>) -> (tensor<2x3x4x2xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>) {
  %e = tensor.empty() : tensor<2x3x4x8xf32>
  %sum = linalg.generic {indexing_maps = [#nchw, #nchw, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %y : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>) outs(%e : tensor<2x3x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4x8xf32>
  %mm = linalg.generic {indexing_maps = [#k_act, #k_wei, #k_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%sum, %w : tensor<2x3x4x8xf32>, tensor<8x2xf32>) outs(%acc : tensor<2x3x4x2xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x3x4x2xf32>
  %e2 = tensor.empty() : tensor<2x8x3x4xf32>
  %abs = linalg.generic {indexing_maps = [#nhwc, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<2x3x4x8xf32>) outs(%e2 : tensor<2x8x3x4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = math.absf %a : f32
    linalg.yield %r : f32
  } -> tensor<2x8x3x4xf32>
  %e3 = tensor.empty() : tensor<2x8x3x4xf32>
  %exp = linalg.generic {indexing_maps = [#nhwc, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<2x3x4x8xf32>) outs(%e3 : tensor<2x8x3x4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<2x8x3x4xf32>
  %e4 = tensor.empty() : tensor<2x8x3x4xf32>
  %sq = linalg.generic {indexing_maps = [#nchw, #nchw, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%exp, %exp : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>) outs(%e4 : tensor<2x8x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x8x3x4xf32>
  return %mm, %abs, %sq : tensor<2x3x4x2xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>
}

// -----

// Kept: attention's K^T, a transpose that only a matmul reads, as its B
// operand along the output's columns (the kernel's vectors). Stored like
// K, it would spare the transpose but the matmul would gather B.
// CHECK-LABEL: func.func @transposed_matmul_operand
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #[[ID:.+]]], {{.+}} outs(%{{.+}} : tensor<8x16xf32>)
// CHECK:         linalg.generic {{.+}} ins(%arg0, %{{.+}} : tensor<4x8xf32>, tensor<8x16xf32>)
#kt_in = affine_map<(k, n) -> (n, k)>
#kt_out = affine_map<(k, n) -> (k, n)>
#q = affine_map<(m, n, k) -> (m, k)>
#kt = affine_map<(m, n, k) -> (k, n)>
#s = affine_map<(m, n, k) -> (m, n)>
func.func @transposed_matmul_operand(%query: tensor<4x8xf32>, %key: tensor<16x8xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %keyT = linalg.generic {indexing_maps = [#kt_in, #kt_out], iterator_types = ["parallel", "parallel"]}
      ins(%key : tensor<16x8xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  } -> tensor<8x16xf32>
  %scores = linalg.generic {indexing_maps = [#q, #kt, #s], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%query, %keyT : tensor<4x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  return %scores : tensor<4x16xf32>
}

// amp-pools-in-neighbour-layout computes a pool that sits between a
// transpose and its inverse (a lone NCHW pool as amp.onnx imports it) in the
// layout around it, leaving the transposes dead.
// RUN: amp-opt %s -split-input-file --amp-pools-in-neighbour-layout --canonicalize | FileCheck %s

#nchw_to_nhwc = affine_map<(n, h, w, c) -> (n, c, h, w)>
#nhwc_to_nchw = affine_map<(n, c, h, w) -> (n, h, w, c)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#window_in = affine_map<(n, oh, ow, c, kh, kw) -> (n, oh * 2 + kh, ow * 2 + kw, c)>
#window = affine_map<(n, oh, ow, c, kh, kw) -> (kh, kw)>
#window_out = affine_map<(n, oh, ow, c, kh, kw) -> (n, oh, ow, c)>

// A 2x2 max pool: it reads the NCHW input, writes the NCHW result, and
// iterates in the output's order with the window innermost.
// CHECK-LABEL: func.func @max_pool
// CHECK-SAME:    (%[[X:.+]]: tensor<1x8x16x16xf32>)
// CHECK:         %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x8x8x8xf32>)
// CHECK:         %[[POOL:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[IN:map[0-9]*]], #{{map[0-9]*}}, #[[OUT:map[0-9]*]]]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:      ins(%[[X]], %{{.+}} : tensor<1x8x16x16xf32>, tensor<2x2xf32>) outs(%[[FILL]] : tensor<1x8x8x8xf32>)
// CHECK:           arith.maximumf
// CHECK:         return %[[POOL]]
// CHECK-DAG:     #[[IN]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG:     #[[OUT]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
func.func @max_pool(%x: tensor<1x8x16x16xf32>) -> tensor<1x8x8x8xf32> {
  %lowest = arith.constant -3.40282347E+38 : f32
  %e0 = tensor.empty() : tensor<1x16x16x8xf32>
  %t = linalg.generic {indexing_maps = [#nchw_to_nhwc, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x16x16xf32>) outs(%e0 : tensor<1x16x16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x16x16x8xf32>
  %e1 = tensor.empty() : tensor<1x8x8x8xf32>
  %fill = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e1 : tensor<1x8x8x8xf32>) {
  ^bb0(%out: f32):
    linalg.yield %lowest : f32
  } -> tensor<1x8x8x8xf32>
  %k = tensor.empty() : tensor<2x2xf32>
  %p = linalg.generic {indexing_maps = [#window_in, #window, #window_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%t, %k : tensor<1x16x16x8xf32>, tensor<2x2xf32>) outs(%fill : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x8xf32>
  %e2 = tensor.empty() : tensor<1x8x8x8xf32>
  %back = linalg.generic {indexing_maps = [#nhwc_to_nchw, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<1x8x8x8xf32>) outs(%e2 : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x8x8xf32>
  return %back : tensor<1x8x8x8xf32>
}

// -----

#nchw_to_nhwc = affine_map<(n, h, w, c) -> (n, c, h, w)>
#nhwc_to_nchw = affine_map<(n, c, h, w) -> (n, h, w, c)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#window_in = affine_map<(n, oh, ow, c, kh, kw) -> (n, oh * 2 + kh, ow * 2 + kw, c)>
#window = affine_map<(n, oh, ow, c, kh, kw) -> (kh, kw)>
#window_out = affine_map<(n, oh, ow, c, kh, kw) -> (n, oh, ow, c)>

// An average pool in ceil mode: the padding moves to the NCHW input (its
// amounts permuted), the sum is taken there, and the division by the
// window, which the inverse transpose computed, stays in that op, which
// now reads the sums through the identity.
// CHECK-LABEL: func.func @average_pool_ceil
// CHECK-SAME:    (%[[X:.+]]: tensor<1x8x15x15xf32>)
// CHECK:         %[[PAD:.+]] = tensor.pad %[[X]] low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK:         } : tensor<1x8x15x15xf32> to tensor<1x8x16x16xf32>
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[PAD]], %{{.+}} : tensor<1x8x16x16xf32>, tensor<2x2xf32>)
// CHECK:           arith.addf
// CHECK:         %[[MEAN:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [#[[ID:map[0-9]*]], #[[ID]]]
// CHECK-SAME:      ins(%[[SUM]] : tensor<1x8x8x8xf32>)
// CHECK:           arith.divf
// CHECK:         return %[[MEAN]]
func.func @average_pool_ceil(%x: tensor<1x8x15x15xf32>) -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %e0 = tensor.empty() : tensor<1x15x15x8xf32>
  %t = linalg.generic {indexing_maps = [#nchw_to_nhwc, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x15x15xf32>) outs(%e0 : tensor<1x15x15x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x15x15x8xf32>
  %padded = tensor.pad %t low[0, 0, 0, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x15x15x8xf32> to tensor<1x16x16x8xf32>
  %e1 = tensor.empty() : tensor<1x8x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %k = tensor.empty() : tensor<2x2xf32>
  %p = linalg.generic {indexing_maps = [#window_in, #window, #window_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%padded, %k : tensor<1x16x16x8xf32>, tensor<2x2xf32>) outs(%fill : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x8xf32>
  %e2 = tensor.empty() : tensor<1x8x8x8xf32>
  %mean = linalg.generic {indexing_maps = [#nhwc_to_nchw, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<1x8x8x8xf32>) outs(%e2 : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %four : f32
    linalg.yield %d : f32
  } -> tensor<1x8x8x8xf32>
  return %mean : tensor<1x8x8x8xf32>
}

// -----

#nchw_to_nhwc = affine_map<(n, h, w, c) -> (n, c, h, w)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#window_in = affine_map<(n, oh, ow, c, kh, kw) -> (n, oh * 2 + kh, ow * 2 + kw, c)>
#window = affine_map<(n, oh, ow, c, kh, kw) -> (kh, kw)>
#window_out = affine_map<(n, oh, ow, c, kh, kw) -> (n, oh, ow, c)>

// Left as they are: a pool whose result goes on in NHWC (here into a
// convolution's accumulator: no inverse transpose follows), and a
// transpose that another op reads too.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT:     linalg.generic
func.func @kept(%x: tensor<1x8x16x16xf32>, %w: tensor<2x2xf32>) -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x16x16x8xf32>
  %t = linalg.generic {indexing_maps = [#nchw_to_nhwc, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x16x16xf32>) outs(%e0 : tensor<1x16x16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x16x16x8xf32>
  %e1 = tensor.empty() : tensor<1x8x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %pool = linalg.generic {indexing_maps = [#window_in, #window, #window_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%t, %w : tensor<1x16x16x8xf32>, tensor<2x2xf32>) outs(%fill : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x8xf32>
  %conv = linalg.generic {indexing_maps = [#window_in, #window, #window_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%t, %w : tensor<1x16x16x8xf32>, tensor<2x2xf32>) outs(%pool : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %m = arith.mulf %in, %k : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x8xf32>
  return %conv : tensor<1x8x8x8xf32>
}

// -----

#nchw_to_nhwc = affine_map<(n, h, w, c) -> (n, c, h, w)>
#nhwc_to_nchw = affine_map<(n, c, h, w) -> (n, h, w, c)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#window_in = affine_map<(n, oh, ow, c, kh, kw) -> (n, oh * 2 + kh, ow * 2 + kw, c)>
#window = affine_map<(n, oh, ow, c, kh, kw) -> (kh, kw)>
#window_out = affine_map<(n, oh, ow, c, kh, kw) -> (n, oh, ow, c)>

// A (depthwise) convolution between a transpose and its inverse is left in
// NHWC: it multiplies.
// CHECK-LABEL: func.func @convolution_kept
// CHECK:         linalg.generic {{.+}} ins(%{{.+}} : tensor<1x8x16x16xf32>) outs(%{{.+}} : tensor<1x16x16x8xf32>)
// CHECK:         arith.mulf
// CHECK:         linalg.generic {{.+}} ins(%{{.+}} : tensor<1x8x8x8xf32>) outs(%{{.+}} : tensor<1x8x8x8xf32>)
func.func @convolution_kept(%x: tensor<1x8x16x16xf32>, %w: tensor<2x2xf32>) -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x16x16x8xf32>
  %t = linalg.generic {indexing_maps = [#nchw_to_nhwc, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x16x16xf32>) outs(%e0 : tensor<1x16x16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x16x16x8xf32>
  %e1 = tensor.empty() : tensor<1x8x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %conv = linalg.generic {indexing_maps = [#window_in, #window, #window_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%t, %w : tensor<1x16x16x8xf32>, tensor<2x2xf32>) outs(%fill : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %m = arith.mulf %in, %k : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x8xf32>
  %e2 = tensor.empty() : tensor<1x8x8x8xf32>
  %back = linalg.generic {indexing_maps = [#nhwc_to_nchw, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<1x8x8x8xf32>) outs(%e2 : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x8x8xf32>
  return %back : tensor<1x8x8x8xf32>
}

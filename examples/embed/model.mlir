// A two-layer perceptron with a softmax head, the program
// amp-embed-example converts and runs (docs/Embedding.md).
#bias = affine_map<(b, n) -> (n)>
#id = affine_map<(b, n) -> (b, n)>
func.func @mlp(%x: tensor<4x32xf32>, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>,
               %w2: tensor<64x10xf32>, %b2: tensor<10xf32>) -> tensor<4x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x64xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<4x32xf32>, tensor<32x64xf32>)
                     outs(%z1 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %a = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<4x64xf32>, tensor<64xf32>) outs(%e1 : tensor<4x64xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  %e2 = tensor.empty() : tensor<4x10xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x10xf32>) -> tensor<4x10xf32>
  %l = linalg.matmul ins(%a, %w2 : tensor<4x64xf32>, tensor<64x10xf32>)
                     outs(%z2 : tensor<4x10xf32>) -> tensor<4x10xf32>
  %lb = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
      ins(%l, %b2 : tensor<4x10xf32>, tensor<10xf32>) outs(%e2 : tensor<4x10xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x10xf32>
  %p = linalg.softmax dimension(1) ins(%lb : tensor<4x10xf32>) outs(%e2 : tensor<4x10xf32>) -> tensor<4x10xf32>
  return %p : tensor<4x10xf32>
}

// A two-layer perceptron with a softmax head, in linalg on tensors: the
// example README.md's setup runs amp on.
#bias = affine_map<(b, n) -> (n)>
#id = affine_map<(b, n) -> (b, n)>
func.func @mlp(%x: tensor<8x64xf32>, %w1: tensor<64x128xf32>, %b1: tensor<128xf32>,
               %w2: tensor<128x10xf32>, %b2: tensor<10xf32>) -> tensor<8x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x128xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x64xf32>, tensor<64x128xf32>)
                     outs(%z1 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %a = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<8x128xf32>, tensor<128xf32>) outs(%e1 : tensor<8x128xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x128xf32>
  %e2 = tensor.empty() : tensor<8x10xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x10xf32>) -> tensor<8x10xf32>
  %l = linalg.matmul ins(%a, %w2 : tensor<8x128xf32>, tensor<128x10xf32>)
                     outs(%z2 : tensor<8x10xf32>) -> tensor<8x10xf32>
  %lb = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
      ins(%l, %b2 : tensor<8x10xf32>, tensor<10xf32>) outs(%e2 : tensor<8x10xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x10xf32>
  %p = linalg.softmax dimension(1) ins(%lb : tensor<8x10xf32>) outs(%e2 : tensor<8x10xf32>) -> tensor<8x10xf32>
  return %p : tensor<8x10xf32>
}

// The f32 program of find-nonfinite.mlir's @layer with tanh in place of
// exp: a program in which no op matches a converted math.exp.
func.func @layer(%x: tensor<4x16xf32>, %w: tensor<16x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant dense<0.0> : tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%zero : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e = math.tanh %m : tensor<4x16xf32>
  %y = arith.mulf %e, %m : tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

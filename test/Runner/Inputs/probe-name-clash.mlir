// A program with a function of the name of one of amp-run's probes
// (probe-errors.mlir).
func.func @clash(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func private @ampProbeF32(i64, tensor<*xf32>)

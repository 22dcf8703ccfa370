// The stock mlir-opt runs amp's passes from the pass plugin, reached
// through --pass-pipeline; the passes bring amp's models with them.
// RUN: mlir-opt --load-pass-plugin=%amp_plugin --pass-pipeline='builtin.module(amp-test-print-policy{low=bf16})' %s -o /dev/null | FileCheck %s --check-prefix=POLICY
// RUN: mlir-opt --load-pass-plugin=%amp_plugin --pass-pipeline='builtin.module(func.func(amp-test-convert-ops))' %s | FileCheck %s --check-prefix=CONVERT
// Both plugins together, for input that carries amp attributes.
// RUN: mlir-opt --load-dialect-plugin=%amp_plugin --load-pass-plugin=%amp_plugin -p 'builtin.module(amp-test-print-policy)' %S/Inputs/scoped.mlir -o /dev/null | FileCheck %s --check-prefix=SCOPED
// A bad option is a clear error.
// RUN: not mlir-opt --load-pass-plugin=%amp_plugin --pass-pipeline='builtin.module(amp-test-print-policy{low=f8})' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADOPT

// POLICY: func.func @mlp follow model
// POLICY-NEXT: linalg.matmul allow model acc=sum/8/wide
// POLICY: linalg.generic follow model acc=- data=(0, 1)->(0) compute=yes "elementwise arithmetic is accurate in low precision"
// POLICY: math.exp never model acc=- data=(0)->(0) compute=yes "exp turns bf16's input rounding into large relative output error"

// CONVERT-LABEL: func.func @mlp
// CONVERT: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xf16>, tensor<8x16xf16>) outs(%{{.+}} : tensor<4x16xf32>)
// CONVERT: math.exp %{{.+}} : tensor<4x16xf32>

// SCOPED: math.exp never model acc=- data=(0)->(0) compute=yes policy=#amp.precision<policy = follow, low = bf16>

// BADOPT: amp-test-print-policy: unsupported low type 'f8'; expected 'f16' or 'bf16'

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @mlp(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<4x16xf32>) outs(%c : tensor<4x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %in, %z : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  %2 = math.exp %1 : tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}

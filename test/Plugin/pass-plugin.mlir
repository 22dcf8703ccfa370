// The stock mlir-opt runs amp's passes from the pass plugin, reached
// through --pass-pipeline; the passes bring amp's models with them.
// RUN: mlir-opt --load-pass-plugin=%amp_plugin --pass-pipeline='builtin.module(mixed-precision{precision=bf16 explain=true})' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: mlir-opt --load-pass-plugin=%amp_plugin --pass-pipeline='builtin.module(func.func(mixed-precision))' %s | FileCheck %s --check-prefix=CONVERT
// The backends' passes and the pipelines come with it.
// RUN: mlir-opt --load-pass-plugin=%amp_plugin --pass-pipeline='builtin.module(mixed-precision,amp-fuse-kernels)' %s | FileCheck %s --check-prefix=FUSED
// Both plugins together, for input that carries amp attributes.
// RUN: mlir-opt --load-dialect-plugin=%amp_plugin --load-pass-plugin=%amp_plugin -p 'builtin.module(mixed-precision{explain=true})' %S/Inputs/scoped.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCOPED
// A bad option is a clear error.
// RUN: not mlir-opt --load-pass-plugin=%amp_plugin --pass-pipeline='builtin.module(mixed-precision{precision=f8})' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADOPT
// amp's test passes are amp-opt's only: the plugin does not ship them.
// The plugin brings the backends' target names and models: bf16 computes
// on sm_90, only is stored on sm_75.
// RUN: mlir-opt --load-pass-plugin=%amp_plugin --pass-pipeline='builtin.module(mixed-precision{precision=bf16 target=sm_90 explain=true})' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: mlir-opt --load-pass-plugin=%amp_plugin --pass-pipeline='builtin.module(mixed-precision{precision=bf16 target=sm_75 explain=true})' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM75
// RUN: not mlir-opt --load-pass-plugin=%amp_plugin --pass-pipeline='builtin.module(amp-test-print-policy)' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTEST

// EXPLAIN: remark: amp: linalg.matmul runs in 'bf16' (allow, model)
// EXPLAIN: remark: amp: math.exp stays f32 (never, model): exp turns bf16's input rounding into large relative output error

// CONVERT-LABEL: func.func @mlp
// CONVERT: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xf16>, tensor<8x16xf16>) outs(%{{.+}} : tensor<4x16xf32>)
// CONVERT: math.exp %{{.+}} : tensor<4x16xf32>

// FUSED-LABEL: func.func @mlp
// FUSED: linalg.generic
// FUSED-NOT: linalg.matmul

// SCOPED: remark: amp: math.exp stays f32 (follow, amp.precision): stated on the op

// BADOPT: for the --precision option: Cannot find option named 'f8'!

// SM90: remark: amp: linalg.matmul runs in 'bf16' (allow, model)
// SM75: remark: amp: linalg.matmul stays f32 (never, target): storage-only: the target stores bf16 but cannot compute this op in it

// NOTEST: 'amp-test-print-policy' does not refer to a registered pass or pass pipeline

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

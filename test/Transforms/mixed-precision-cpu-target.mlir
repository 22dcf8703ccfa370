// What a CPU computes in f16 and bf16 follows its `#llvm.target` (its
// triple and features), carried by the module as upstream's `llvm.target`
// attribute or given by `target=cpu` (the host, as LLVM detects it):
//
// - x86 without AVX512-FP16 has no f16 arithmetic: f16 is storage-only
//   (ops compute in f32 on widened values; F16C only converts), and so is
//   bf16 arithmetic; contractions on bf16 operands compute low (widened in
//   registers, or two products per lane with AVX512-BF16).
// - x86 with AVX512-FP16 computes f16.
// - AArch64 computes f16 with `fullfp16`, bf16 contractions with `bf16`.
//
// RUN: amp-opt %s -split-input-file --mixed-precision="precision=f16 placement=greedy explain=true" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=F16
// RUN: amp-opt %s -split-input-file --mixed-precision="precision=bf16 placement=greedy explain=true" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=BF16
//
// The host: on x86 (where CI runs) bf16 contractions compute low.
// RUN: amp-opt %s -split-input-file --mixed-precision="precision=bf16 target=cpu" | FileCheck %s --check-prefix=HOST
// HOST: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xbf16>, tensor<8x4xbf16>)

// F16: remark: amp: linalg.matmul stays f32 (never, target): storage-only: the target stores f16 but cannot compute this op in it
// F16: remark: amp: math.tanh stays f32 (never, target): storage-only: the target stores f16 but cannot compute this op in it
// BF16: remark: amp: linalg.matmul runs in 'bf16'
// BF16: remark: amp: math.tanh stays f32 (never, target): storage-only: the target stores bf16 but cannot compute this op in it
module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "znver4", features = #llvm.target_features<["+avx512bf16", "+avx512f", "+f16c"]>>} {
  func.func @layer(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
    %t = math.tanh %m : tensor<4x4xf32>
    return %t : tensor<4x4xf32>
  }
}

// -----

// F16: remark: amp: linalg.matmul runs in 'f16'
// F16: remark: amp: math.tanh runs in 'f16'
module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "sapphirerapids", features = #llvm.target_features<["+avx512bf16", "+avx512f", "+avx512fp16", "+f16c"]>>} {
  func.func @layer(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
    %t = math.tanh %m : tensor<4x4xf32>
    return %t : tensor<4x4xf32>
  }
}

// -----

// F16: remark: amp: linalg.matmul runs in 'f16'
// BF16: remark: amp: linalg.matmul stays f32 (never, target): storage-only: the target stores bf16 but cannot compute this op in it
module attributes {llvm.target = #llvm.target<triple = "aarch64-unknown-linux-gnu", chip = "neoverse-n1", features = #llvm.target_features<["+fullfp16", "+neon"]>>} {
  func.func @layer(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
    %t = math.tanh %m : tensor<4x4xf32>
    return %t : tensor<4x4xf32>
  }
}

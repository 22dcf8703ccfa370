// What a CPU computes in f16 and bf16 follows its `#llvm.target` (its
// triple, chip and features), carried by the module as upstream's
// `llvm.target` attribute or given by `target=cpu` (the host, as LLVM
// detects it). On x86 what computes low is what pays in amp's kernels:
//
// - f16 is storage-only (ops compute in f32 on widened values), with or
//   without AVX512-FP16: amp's kernels would widen f16 into f32 fused
//   multiply-adds either way, which made every model slower than f32.
// - bf16 arithmetic is storage-only; contractions on bf16 operands compute
//   low only on a chip whose AVX512-BF16 dot product adds products faster
//   than f32 fused multiply-adds: Zen 4 (`znver4`); not Intel's Emerald
//   Rapids (half the rate, bench/cpu-rates), a chip not measured (here
//   Sapphire Rapids) or one without AVX512-BF16.
// - AArch64 computes f16 with `fullfp16`, bf16 contractions with `bf16`.
//
// RUN: amp-opt %s -split-input-file --mixed-precision="precision=f16 placement=greedy explain=true" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=F16
// RUN: amp-opt %s -split-input-file --mixed-precision="precision=bf16 placement=greedy explain=true" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=BF16
//
// A module's own `llvm.target` wins over `target=cpu`.
// RUN: amp-opt %s -split-input-file --mixed-precision="precision=bf16 target=cpu" | FileCheck %s --check-prefix=HOST
// RUN: amp-opt %s -split-input-file --mixed-precision="precision=f16" | FileCheck %s --check-prefix=VIEWS
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

// F16: remark: amp: linalg.matmul stays f32 (never, target): storage-only: the target stores f16 but cannot compute this op in it
// F16: remark: amp: math.tanh stays f32 (never, target): storage-only: the target stores f16 but cannot compute this op in it
// BF16: remark: amp: linalg.matmul stays f32 (never, target): storage-only: the target stores bf16 but cannot compute this op in it
module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "sapphirerapids", features = #llvm.target_features<["+avx512bf16", "+avx512f", "+avx512fp16", "+f16c"]>>} {
  func.func @layer(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
    %t = math.tanh %m : tensor<4x4xf32>
    return %t : tensor<4x4xf32>
  }
}

// -----

// BF16: remark: amp: linalg.matmul stays f32 (never, target): storage-only: the target stores bf16 but cannot compute this op in it
module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "znver3", features = #llvm.target_features<["+avx2", "+f16c", "+fma"]>>} {
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

// -----

// Where f16 only stores, converting pays only where it halves bytes that
// move. Splitting attention heads is a transpose among reshapes and slices,
// which become views of one buffer and move nothing: storing the transpose
// in f16 would save less than the casts into and out of it cost, so
// nothing is converted (the placement once counted every view as a copy
// and put 1 truncf and 3 extf here).
// VIEWS-LABEL: func.func @heads
// VIEWS-NOT: arith.truncf
// VIEWS-NOT: arith.extf
// VIEWS: return
module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "znver4", features = #llvm.target_features<["+avx512bf16", "+avx512f", "+f16c"]>>} {
  func.func @heads(%qkv: tensor<16x8x96xf32>) -> (tensor<64x8x8xf32>, tensor<64x8x8xf32>, tensor<64x8x8xf32>) {
    %s5 = tosa.const_shape {values = dense<[16, 8, 3, 4, 8]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %s4 = tosa.const_shape {values = dense<[16, 4, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %s3 = tosa.const_shape {values = dense<[64, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %e = tosa.add %qkv, %qkv : (tensor<16x8x96xf32>, tensor<16x8x96xf32>) -> tensor<16x8x96xf32>
    %r = tosa.reshape %e, %s5 : (tensor<16x8x96xf32>, !tosa.shape<5>) -> tensor<16x8x3x4x8xf32>
    %t = tosa.transpose %r {perms = array<i32: 2, 0, 3, 1, 4>} : (tensor<16x8x3x4x8xf32>) -> tensor<3x16x4x8x8xf32>
    %q = tensor.extract_slice %t[0, 0, 0, 0, 0] [1, 16, 4, 8, 8] [1, 1, 1, 1, 1] : tensor<3x16x4x8x8xf32> to tensor<1x16x4x8x8xf32>
    %k = tensor.extract_slice %t[1, 0, 0, 0, 0] [1, 16, 4, 8, 8] [1, 1, 1, 1, 1] : tensor<3x16x4x8x8xf32> to tensor<1x16x4x8x8xf32>
    %v = tensor.extract_slice %t[2, 0, 0, 0, 0] [1, 16, 4, 8, 8] [1, 1, 1, 1, 1] : tensor<3x16x4x8x8xf32> to tensor<1x16x4x8x8xf32>
    %q4 = tosa.reshape %q, %s4 : (tensor<1x16x4x8x8xf32>, !tosa.shape<4>) -> tensor<16x4x8x8xf32>
    %k4 = tosa.reshape %k, %s4 : (tensor<1x16x4x8x8xf32>, !tosa.shape<4>) -> tensor<16x4x8x8xf32>
    %v4 = tosa.reshape %v, %s4 : (tensor<1x16x4x8x8xf32>, !tosa.shape<4>) -> tensor<16x4x8x8xf32>
    %kt = tosa.transpose %k4 {perms = array<i32: 0, 1, 3, 2>} : (tensor<16x4x8x8xf32>) -> tensor<16x4x8x8xf32>
    %q3 = tosa.reshape %q4, %s3 : (tensor<16x4x8x8xf32>, !tosa.shape<3>) -> tensor<64x8x8xf32>
    %k3 = tosa.reshape %kt, %s3 : (tensor<16x4x8x8xf32>, !tosa.shape<3>) -> tensor<64x8x8xf32>
    %v3 = tosa.reshape %v4, %s3 : (tensor<16x4x8x8xf32>, !tosa.shape<3>) -> tensor<64x8x8xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %qk = tosa.matmul %q3, %k3, %zp, %zp : (tensor<64x8x8xf32>, tensor<64x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<64x8x8xf32>
    %qv = tosa.matmul %q3, %v3, %zp, %zp : (tensor<64x8x8xf32>, tensor<64x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<64x8x8xf32>
    %kv = tosa.matmul %k3, %v3, %zp, %zp : (tensor<64x8x8xf32>, tensor<64x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<64x8x8xf32>
    return %qk, %qv, %kv : tensor<64x8x8xf32>, tensor<64x8x8xf32>, tensor<64x8x8xf32>
  }
}

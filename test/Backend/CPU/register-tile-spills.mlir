// The contraction kernels' register tile comes from the CPU's vector
// registers (amp-lower-to-llvm{cpu}: chooseCPURegisterTile): 16 lanes x 8
// rows x 2 columns on AVX-512 (32 zmm), 8 x 6 x 2 on AVX2 (16 ymm), 4 x 8 x 2
// on NEON (32 q). llc, for each chip, spills no vector register inside the
// kernels' loops (a matmul and a 64-channel 3x3 convolution; what spills
// there is addresses and indices); without the CPU (the AVX-512 tile
// everywhere), AVX2 spills vector registers there.
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm{cpu=znver4})' | mlir-translate --mlir-to-llvmir | llc -O3 -mcpu=znver4 | %python %S/Inputs/inner_loop_spills.py | FileCheck %s
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm{cpu=skylake-avx512})' | mlir-translate --mlir-to-llvmir | llc -O3 -mcpu=skylake-avx512 | %python %S/Inputs/inner_loop_spills.py | FileCheck %s
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm{cpu=znver3})' | mlir-translate --mlir-to-llvmir | llc -O3 -mcpu=znver3 | %python %S/Inputs/inner_loop_spills.py | FileCheck %s
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm{cpu=haswell})' | mlir-translate --mlir-to-llvmir | llc -O3 -mcpu=haswell | %python %S/Inputs/inner_loop_spills.py | FileCheck %s
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm{cpu=neoverse-v1 triple=aarch64-linux-gnu})' | mlir-translate --mlir-to-llvmir | llc -O3 -mtriple=aarch64-linux-gnu -mcpu=neoverse-v1 | %python %S/Inputs/inner_loop_spills.py | FileCheck %s
// CHECK: vector spills in loops: 0 (scalar:
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm)' | mlir-translate --mlir-to-llvmir | llc -O3 -mcpu=znver3 | %python %S/Inputs/inner_loop_spills.py | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: vector spills in loops: {{[1-9][0-9]*}} (scalar:
//
// The tile each register file gives, and a CPU LLVM does not know:
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm{cpu=znver4})' --mlir-print-ir-after=amp-vectorize-contractions -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZEN4
// ZEN4: vector.fma {{.*}} : vector<16xf32>
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm{cpu=znver3})' --mlir-print-ir-after=amp-vectorize-contractions -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZEN3
// ZEN3: vector.fma {{.*}} : vector<8xf32>
// RUN: not amp-opt %s -p 'builtin.module(amp-lower-to-llvm{cpu=pentium9})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// BAD-NOT: not a recognized processor
// BAD: error: amp-lower-to-llvm: LLVM knows no CPU 'pentium9' (names as llc -mcpu takes them, or host)

func.func @mm(%a: tensor<64x256xf32>, %b: tensor<256x256xf32>, %c0: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %c = linalg.matmul ins(%a, %b : tensor<64x256xf32>, tensor<256x256xf32>) outs(%c0 : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %c : tensor<64x256xf32>
}

func.func @conv(%x: tensor<1x34x34x64xf32>, %w: tensor<3x3x64x64xf32>, %y0: tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32> {
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x34x34x64xf32>, tensor<3x3x64x64xf32>) outs(%y0 : tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32>
  return %y : tensor<1x32x32x64xf32>
}

// amp-run --cpu compiles for another CPU than this one, if its code runs
// here: the kernels get that CPU's vector width and register tile (AVX2:
// 16 registers of 8 lanes), and LLVM its instructions. The kernels of
// cpu-kernels.mlir compiled for haswell match numpy's results as closely
// as this CPU's code does; so does a transpose between NCHW and NHWC (its
// tiles turned in registers) as exact data movement.
// REQUIRES: avx2
//
// RUN: rm -rf %t && mkdir -p %t
// DEFINE: %{check} = %python %S/Inputs/kernels_reference.py
// RUN: amp-run %S/cpu-kernels.mlir --entry=conv --seed=1 --save-inputs=%t/conv --output=%t/conv.npy
// RUN: %{check} conv %t/conv %t/conv-ref.npy
// RUN: amp-run %S/cpu-kernels.mlir --entry=conv --cpu=haswell --input=%t/conv/arg0.npy,%t/conv/arg1.npy --compare=%t/conv-ref.npy --rtol=0 --atol=2e-5 | FileCheck %s
// RUN: amp-run %S/cpu-kernels.mlir --entry=matmul --seed=4 --save-inputs=%t/matmul --output=%t/matmul.npy
// RUN: %{check} matmul %t/matmul %t/matmul-ref.npy
// RUN: amp-run %S/cpu-kernels.mlir --entry=matmul --cpu=haswell --input=%t/matmul/arg0.npy,%t/matmul/arg1.npy --compare=%t/matmul-ref.npy --rtol=0 --atol=2e-5 | FileCheck %s
// CHECK: compare result 0 {{.*}} OK
//
// The transposes, on this CPU and for haswell, against numpy's.
// RUN: amp-run %s --entry=to_nhwc --seed=5 --save-inputs=%t/to_nhwc --output=%t/nhwc.npy
// RUN: %python -c "import numpy as n; x = n.load('%t/to_nhwc/arg0.npy'); assert (n.load('%t/nhwc.npy') == x.transpose(0, 2, 3, 1)).all()"
// RUN: amp-run %s --entry=to_nhwc --cpu=haswell --input=%t/to_nhwc/arg0.npy --output=%t/nhwc-avx2.npy
// RUN: %python -c "import numpy as n; x = n.load('%t/to_nhwc/arg0.npy'); assert (n.load('%t/nhwc-avx2.npy') == x.transpose(0, 2, 3, 1)).all()"
// RUN: amp-run %s --entry=to_nchw --seed=6 --save-inputs=%t/to_nchw --output=%t/nchw.npy
// RUN: %python -c "import numpy as n; x = n.load('%t/to_nchw/arg0.npy'); assert (n.load('%t/nchw.npy') == x.transpose(0, 3, 1, 2).astype(n.float32)).all()"
//
// Errors: a CPU LLVM does not know, one whose code does not run here (no
// x86 chip at hand has APX), and the AVX512-BF16 dot product asked of a
// CPU without it.
// RUN: not amp-run %s --entry=to_nhwc --cpu=nonsense 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: amp-run: --cpu: LLVM knows no CPU 'nonsense' for {{.+}} (names as llc -mcpu takes them)
// RUN: not amp-run %s --entry=to_nhwc --cpu=diamondrapids 2>&1 | FileCheck %s --check-prefix=LACKS
// LACKS: amp-run: --cpu: code for CPU 'diamondrapids' does not run on this one ({{.+}}), which lacks {{.*}}egpr
// RUN: not amp-run %s --entry=to_nhwc --cpu=haswell --bf16-dot 2>&1 | FileCheck %s --check-prefix=DOT
// DOT: amp-run: --bf16-dot: CPU 'haswell' has no AVX512-BF16 dot product (--cpu)

func.func @to_nhwc(%x: tensor<2x24x12x20xf32>) -> tensor<2x12x20x24xf32> {
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<2x24x12x20xf32>) -> tensor<2x12x20x24xf32>
  return %t : tensor<2x12x20x24xf32>
}

func.func @to_nchw(%x: tensor<1x6x10x32xf16>) -> tensor<1x32x6x10xf32> {
  %t = tosa.transpose %x {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x6x10x32xf16>) -> tensor<1x32x6x10xf16>
  %w = tosa.cast %t : (tensor<1x32x6x10xf16>) -> tensor<1x32x6x10xf32>
  return %w : tensor<1x32x6x10xf32>
}

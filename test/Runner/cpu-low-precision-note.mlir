// A program converted without a target computes in f16 wherever the
// policy allows. On a CPU without f16 units (every x86: amp's model keeps
// f16 storage-only there) each such op widens its operands and rounds its
// results, slower than f32: amp-run says so once, naming the option that
// converts for the host. Converted for the host, or in f32, it says
// nothing.
// REQUIRES: host-x86
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt %s --mixed-precision=precision=f16 -o %t/f16.mlir
// RUN: amp-run %t/f16.mlir --entry=main --repeat=2 2>&1 | FileCheck %s --check-prefix=F16
// F16:     amp-run: note: '{{.*}}f16.mlir': 2 ops compute in f16 where this CPU ({{[a-z0-9_-]+}}) has no units for them: each widens its operands and rounds its results, which is slower than f32; mixed-precision{target=cpu} converts for this CPU ({{[a-z0-9_-]+}})
// F16-NOT: note
// F16:     result 0: 64x64xf32
//
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16 target=cpu})' -o %t/host.mlir
// RUN: amp-run %t/host.mlir --entry=main 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: amp-run %s --entry=main 2>&1 | FileCheck %s --check-prefix=QUIET
// QUIET-NOT: note
// QUIET:     result 0: 64x64xf32

func.func @main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %s = arith.mulf %a, %b : tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%s, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m : tensor<64x64xf32>
}

// amp-lower-to-llvm after mixed-precision: kernels load, compute and store
// vectors of 16 lanes, so f16 buffers move 32-byte vectors where f32 ones
// move 64-byte vectors; the temporaries a function allocates are freed
// before it returns (its result is the caller's).
// (Kernels stay in the function they come from, as the checks read them;
// test/Backend/CPU/outline-kernels.mlir shows them outlined.)
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16 keep-io-types=false},amp-lower-to-llvm{outline-kernels=false})' | FileCheck %s --check-prefix=IO16
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16},amp-lower-to-llvm{outline-kernels=false})' | FileCheck %s --check-prefix=IO32
// A tile's row is at most 16 vectors (tile-cols=1 for CPUs without AVX-512).
// RUN: not amp-opt %s -p 'builtin.module(amp-lower-to-llvm{tile-cols=17})' 2>&1 | FileCheck %s --check-prefix=BADCOLS
// BADCOLS: error: amp-vectorize-contractions: lanes must be in [1, 1024], rows in [1, 64] and cols in [1, 16], got 16, 8 and 17
// A value of the wrong type names the option and the value.
// RUN: not amp-opt %s -p 'builtin.module(amp-lower-to-llvm{tile-cols=two})' 2>&1 | FileCheck %s --check-prefix=BADTYPE
// BADTYPE: for the --tile-cols option: expected an integer, got 'two'
// BADTYPE: error: failed to add `amp-lower-to-llvm` with options `tile-cols=two`

// With f16 arguments and results the elementwise chain is one kernel on f16
// vectors (x86 has f16c conversions; LLVM widens the arithmetic itself).
// IO16-LABEL: llvm.func @chain
// IO16:         llvm.load {{.+}} -> vector<16xf16>
// IO16:         llvm.load {{.+}} -> vector<16xf16>
// IO16:         llvm.fadd {{.+}} : vector<16xf16>
// IO16:         llvm.fmul {{.+}} : vector<16xf16>
// IO16:         llvm.store {{.+}} : vector<16xf16>, !llvm.ptr
// IO16-NOT:     llvm.call @free
// IO16:         llvm.return
func.func @chain(%a: tensor<64x256xf32>, %b: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<64x256xf32>
  %0 = linalg.add ins(%a, %b : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %1 = linalg.mul ins(%0, %a : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %1 : tensor<64x256xf32>
}

// With f32 arguments each operand is rounded to f16 and, since the matmul
// reads each of its elements 64 times, widened back once
// (amp-widen-reused-inputs), by a vectorized kernel of its own that writes
// an f32 temporary; the matmul reads f32 scalars of A and f32 vectors of
// B, and keeps its tile of 8 rows of 2 vectors of f32 accumulators in
// registers along k (block arguments of the k loop, starting at the
// filled zeros); both temporaries are freed (the result's buffer, the
// first allocated, is the caller's).
// IO32-LABEL: llvm.func @matmul
// IO32:         llvm.call @malloc
// IO32:         %[[A:.+]] = llvm.call @malloc
// IO32:         llvm.fptrunc {{.+}} : vector<16xf32> to vector<16xf16>
// IO32-NEXT:    llvm.fpext {{.+}} : vector<16xf16> to vector<16xf32>
// IO32:         llvm.store {{.+}} : vector<16xf32>, !llvm.ptr
// IO32:         %[[B:.+]] = llvm.call @malloc
// IO32:         llvm.fptrunc {{.+}} : vector<16xf32> to vector<16xf16>
// IO32-NEXT:    llvm.fpext {{.+}} : vector<16xf16> to vector<16xf32>
// IO32:         llvm.store {{.+}} : vector<16xf32>, !llvm.ptr
// IO32:       ^bb{{[0-9]+}}(%{{.+}}: i64, %{{.+}}: vector<16xf32>, {{.+}}):
// IO32:         llvm.load {{.+}} -> f32
// IO32-NOT:     llvm.fpext
// IO32:         llvm.load {{.+}} -> vector<16xf32>
// IO32-NOT:     llvm.fpext
// IO32:         llvm.intr.fmuladd
// IO32-DAG:     llvm.call @free(%[[A]])
// IO32-DAG:     llvm.call @free(%[[B]])
// IO32:         llvm.return
func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

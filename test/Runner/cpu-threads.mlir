// amp-run --threads=N (default: one per core) runs large ops on N OpenMP threads, one slice of
// their parallel loops each (amp-distribute-for-threads); no reduction is
// split, so the results are bit-identical to one thread's, for f32 and for
// the mixed-precision program alike.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16})' -o %t/bf16.mlir
// RUN: amp-run %s --entry=layer --seed=3 --save-inputs=%t/in --threads=1 --output=%t/f32-1.npy
// DEFINE: %{inputs} = --input=%t/in/arg0.npy,%t/in/arg1.npy,%t/in/arg2.npy
// RUN: amp-run %s --entry=layer %{inputs} --threads=2 --output=%t/f32-2.npy
// RUN: amp-run %s --entry=layer %{inputs} --threads=3 --output=%t/f32-3.npy
// RUN: amp-run %t/bf16.mlir --entry=layer %{inputs} --cast-inputs --threads=1 --output=%t/bf16-1.npy
// By default, one thread per core (the same result).
// RUN: amp-run %s --entry=layer %{inputs} --output=%t/f32-default.npy
// RUN: cmp %t/f32-1.npy %t/f32-default.npy
// RUN: amp-run %t/bf16.mlir --entry=layer %{inputs} --cast-inputs --threads=2 --output=%t/bf16-2.npy
// RUN: cmp %t/f32-1.npy %t/f32-2.npy
// RUN: cmp %t/f32-1.npy %t/f32-3.npy
// RUN: cmp %t/bf16-1.npy %t/bf16-2.npy
//
// The threaded program: the matmul and the tanh in OpenMP worksharing
// loops (with 3 threads, 128 rows do not divide: the tanh's 256 columns
// neither; both run on one thread).
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm{threads=2})' | FileCheck %s --check-prefix=OMP
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm)' | FileCheck %s --check-prefix=SERIAL
// OMP: omp.parallel num_threads(%{{.+}} : i32)
// OMP: omp.wsloop
// SERIAL-NOT: omp.
//
// A chain of ops, one of them small (a full reduction: one thread): the
// large ops' worksharing loops and the small op between them (omp.single)
// run in one parallel region, one fork and join per call
// (amp-merge-parallel-regions), with the results of one thread.
// RUN: amp-run %s --entry=chain --seed=5 --save-inputs=%t/chain --threads=1 --output=%t/chain-1.npy
// RUN: amp-run %s --entry=chain --input=%t/chain/arg0.npy --threads=2 --output=%t/chain-2.npy
// RUN: cmp %t/chain-1.npy %t/chain-2.npy
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm{threads=2})' --mlir-print-ir-after=amp-merge-parallel-regions -o /dev/null 2>&1 | FileCheck %s --check-prefix=MERGED
// MERGED-LABEL: func.func @chain
// MERGED-COUNT-1: omp.parallel
// MERGED-NOT:   omp.parallel
// MERGED:       omp.wsloop
// MERGED:       omp.single
// MERGED:       omp.wsloop
// MERGED:       return
//
// Consecutive ops split along the same rows, each reading only the rows
// the one before wrote in its slice (a matmul, tanh, a row sum, a scale
// by it, a row max, a subtraction of it), run as one worksharing loop:
// each thread computes its rows through the whole chain with no barrier
// between the ops, and the results are still one thread's.
// RUN: amp-run %s --entry=rows --seed=7 --save-inputs=%t/rows --threads=1 --output=%t/rows-1.npy
// RUN: amp-run %s --entry=rows --input=%t/rows/arg0.npy,%t/rows/arg1.npy --threads=2 --output=%t/rows-2.npy
// RUN: cmp %t/rows-1.npy %t/rows-2.npy
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm{threads=2})' --mlir-print-ir-after=amp-merge-parallel-regions -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWS
// ROWS-LABEL: func.func @rows
// ROWS:         omp.parallel
// ROWS-COUNT-1: omp.wsloop
// ROWS-NOT:     omp.wsloop
// ROWS-NOT:     omp.barrier
// ROWS:         return
//
// Bad counts are errors before anything runs.
// RUN: not amp-run %s --entry=layer %{inputs} --threads=2000 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: --threads must be at most 1024, got 2000
// RUN: not amp-opt %s -p 'builtin.module(amp-lower-to-llvm{threads=-1})' 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: threads must be in [1, 1024], got -1

func.func @layer(%x: tensor<128x64xf32>, %w: tensor<64x256xf32>, %b: tensor<256xf32>) -> tensor<128x256xf32> {
  %e = tensor.empty() : tensor<128x256xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %m = linalg.matmul ins(%x, %w : tensor<128x64xf32>, tensor<64x256xf32>) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  %bb = linalg.broadcast ins(%b : tensor<256xf32>) outs(%e : tensor<128x256xf32>) dimensions = [0]
  %s = arith.addf %m, %bb : tensor<128x256xf32>
  %t = math.tanh %s : tensor<128x256xf32>
  return %t : tensor<128x256xf32>
}

func.func @chain(%x: tensor<256x128xf32>) -> tensor<256x128xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %t = math.tanh %x : tensor<256x128xf32>
  %r = tosa.reduce_sum %t {axis = 1 : i32} : (tensor<256x128xf32>) -> tensor<256x1xf32>
  %m = tosa.reduce_max %r {axis = 0 : i32} : (tensor<256x1xf32>) -> tensor<1x1xf32>
  %y = tosa.sub %t, %m : (tensor<256x128xf32>, tensor<1x1xf32>) -> tensor<256x128xf32>
  %z = tosa.reduce_sum %y {axis = 1 : i32} : (tensor<256x128xf32>) -> tensor<256x1xf32>
  %w = tosa.mul %y, %z, %shift : (tensor<256x128xf32>, tensor<256x1xf32>, tensor<1xi8>) -> tensor<256x128xf32>
  return %w : tensor<256x128xf32>
}

func.func @rows(%x: tensor<256x64xf32>, %w: tensor<64x128xf32>) -> tensor<256x128xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %e = tensor.empty() : tensor<256x128xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<256x128xf32>) -> tensor<256x128xf32>
  %m = linalg.matmul ins(%x, %w : tensor<256x64xf32>, tensor<64x128xf32>) outs(%c : tensor<256x128xf32>) -> tensor<256x128xf32>
  %t = math.tanh %m : tensor<256x128xf32>
  %r = tosa.reduce_sum %t {axis = 1 : i32} : (tensor<256x128xf32>) -> tensor<256x1xf32>
  %y = tosa.mul %t, %r, %shift : (tensor<256x128xf32>, tensor<256x1xf32>, tensor<1xi8>) -> tensor<256x128xf32>
  %s = tosa.reduce_max %y {axis = 1 : i32} : (tensor<256x128xf32>) -> tensor<256x1xf32>
  %d = tosa.sub %y, %s : (tensor<256x128xf32>, tensor<256x1xf32>) -> tensor<256x128xf32>
  return %d : tensor<256x128xf32>
}

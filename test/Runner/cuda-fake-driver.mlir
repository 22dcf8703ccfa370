// The CUDA backend's host side, checked without a GPU: amp-run lowers with
// amp-lower-to-nvvm, links the lowered host code against
// libamp_cuda_runtime.so, and runs it against a stand-in libcuda.so.1
// (Inputs/fake_libcuda.c) that executes no kernel but checks, at every
// launch, that each pointer parameter of the kernel points into memory the
// driver handed out: amp-run's inputs, the program's own buffers (its
// malloc) and its constants (globals copied by ampRuntimeMapGlobal) must all
// be device memory. The results are meaningless (no kernel ran) and are
// not looked at.
//
// REQUIRES: cc
// RUN: rm -rf %t && mkdir -p %t
// RUN: cc -shared -fPIC %S/Inputs/fake_libcuda.c -o %t/libcuda.so.1
//
// A matmul (two kernels: fill and matmul) and its f16 conversion.
// RUN: env LD_LIBRARY_PATH=%t amp-run %s --entry=matmul --backend=cuda --output=%t/out.npy | FileCheck %s --check-prefix=MATMUL
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16})' -o %t/f16.mlir
// RUN: env LD_LIBRARY_PATH=%t amp-run %t/f16.mlir --entry=matmul --backend=cuda --chip=sm_80 --output=%t/out.npy | FileCheck %s --check-prefix=MATMUL
// MATMUL: fake-cuda: module loaded (PTX)
// MATMUL: fake-cuda: launch matmul_kernel grid {{.*}}: {{[0-9]+}} parameters, {{[1-9][0-9]*}} pointers, all into device memory
// MATMUL-NOT: not device memory
//
// A dense constant: the kernel gets the address of its device copy.
// RUN: env LD_LIBRARY_PATH=%t amp-run %s --entry=offset --backend=cuda --output=%t/out.npy | FileCheck %s --check-prefix=CONSTANT
// CONSTANT: fake-cuda: launch offset_kernel grid {{.*}}: {{[0-9]+}} parameters, {{[1-9][0-9]*}} pointers, all into device memory
// CONSTANT-NOT: not device memory
// RUN: env LD_LIBRARY_PATH=%t amp-run %s --entry=offset --backend=cuda --output=%t/out.npy --print-lowered 2>&1 >/dev/null | FileCheck %s --check-prefix=ROUTE
// ROUTE: llvm.func @ampRuntimeMapGlobal(!llvm.ptr, i64) -> !llvm.ptr
// ROUTE: [[GLOBAL:%.+]] = llvm.mlir.addressof @__constant_4xf32
// ROUTE: llvm.call @ampRuntimeMapGlobal([[GLOBAL]], {{%.+}})
//
// Options the NVVM pipeline rejects:
// RUN: env LD_LIBRARY_PATH=%t not amp-run %s --entry=offset --backend=cuda --chip=gfx90a 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: {{^}}amp-run: amp-lower-to-nvvm: chip must be sm_<N>[a|f] with N >= 20, got 'gfx90a'
// CHIP-NOT: amp-run
// RUN: env LD_LIBRARY_PATH=%t not amp-run %s --entry=offset --backend=cuda --gpu-format=elf 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT-NOT: {{.}}
// FORMAT: {{^}}amp-run: amp-lower-to-nvvm: option format: expected bin, isa or fatbin, got 'elf'
// FORMAT-NOT: amp-run
//
// --repeat reruns the whole function: one launch per call.
// RUN: env LD_LIBRARY_PATH=%t amp-run %s --entry=offset --backend=cuda --repeat=3 | FileCheck %s --check-prefix=REPEAT
// REPEAT-COUNT-3: fake-cuda: launch offset_kernel
// REPEAT-NOT: fake-cuda: launch
//
// Freed buffers are kept for the next call: the f16 matmul's temporaries
// (its rounded operands) are allocated from the driver on the first call
// only, and nothing goes back to it, so three calls ask it for as much
// managed memory as one.
// RUN: env LD_LIBRARY_PATH=%t amp-run %t/f16.mlir --entry=matmul --backend=cuda --repeat=1 > %t/one.txt
// RUN: env LD_LIBRARY_PATH=%t amp-run %t/f16.mlir --entry=matmul --backend=cuda --repeat=3 > %t/three.txt
// RUN: cat %t/one.txt %t/three.txt | FileCheck %s --check-prefix=POOL
// POOL: fake-cuda: [[N:[0-9]+]] managed allocations, 0 frees
// POOL: fake-cuda: [[N]] managed allocations, 0 frees
//
// The compile cache holds CUDA programs as it holds CPU ones: the objects
// with the PTX embedded. The second run loads them (no lowering) and hands
// the driver the same module.
// RUN: rm -rf %t/cache
// RUN: env LD_LIBRARY_PATH=%t AMP_CACHE_DIR=%t/cache amp-run %s --entry=matmul --backend=cuda --time-phases > %t/cold.txt 2>&1
// RUN: env LD_LIBRARY_PATH=%t AMP_CACHE_DIR=%t/cache amp-run %s --entry=matmul --backend=cuda --time-phases > %t/warm.txt 2>&1
// RUN: %python %S/Inputs/cache_entries.py count %t/cache | FileCheck %s --check-prefix=ONE-ENTRY
// ONE-ENTRY: {{^1$}}
// RUN: FileCheck %s --check-prefix=CACHE-COLD < %t/cold.txt
// CACHE-COLD-DAG: fake-cuda: module loaded (PTX)
// CACHE-COLD-DAG: fake-cuda: launch matmul_kernel {{.*}} all into device memory
// CACHE-COLD-DAG: amp-run: time: parse {{.*}}, lower
// RUN: FileCheck %s --check-prefix=CACHE-WARM < %t/warm.txt
// CACHE-WARM-NOT: warning
// CACHE-WARM-NOT: , lower {{[0-9]}}
// CACHE-WARM-DAG: fake-cuda: module loaded (PTX)
// CACHE-WARM-DAG: fake-cuda: launch matmul_kernel {{.*}} all into device memory
// CACHE-WARM-DAG: amp-run: time: parse {{[0-9.]+}} s, compile {{.*}} (0 partitions)

func.func @matmul(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %c = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %c : tensor<16x8xf32>
}

func.func @offset(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = arith.addf %a, %c : tensor<4xf32>
  return %0 : tensor<4xf32>
}

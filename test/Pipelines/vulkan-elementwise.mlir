// Runs an elementwise chain (add, mul, relu via max, tanh, sub) on
// tensor<64x64xf32> through amp-lower-to-vulkan and amp's Vulkan runtime
// (Mesa's lavapipe on CPU-only machines), as written and after
// mixed-precision to f16 and to bf16 (bf16 storage-only on Vulkan):
//
// * f32 on Vulkan agrees with f32 on the CPU (amp-lower-to-llvm);
// * f16 and bf16 on Vulkan agree with f32 within their tolerances, and
//   really differ from it (low precision was used);
// * f16 and bf16 on Vulkan agree with the same conversion run on the CPU to
//   within one unit in the last place of the low type (lavapipe: exactly),
//   so the bf16 emulation computes what bf16 computes (the CPU rounding
//   after every op, amp-lower-to-llvm{excess-precision=false});
// * every SPIR-V binary the runtime loads (AMP_VULKAN_DUMP_SPIRV) and every
//   spirv.module of amp-lower-to-spirv passes spirv-val.
//
// REQUIRES: vulkan, mlir-runner, spirv-val
// DEFINE: %{run} = mlir-runner -e main -entry-point-result=void -shared-libs=%amp_vulkan_runtime,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so
// DEFINE: %{compare} = %python %S/../Integration/compare.py
//
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm)' | %{run} > %t.cpu.txt
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-vulkan)' -o %t.f32.mlir
// RUN: FileCheck %s --check-prefix=LOWERED < %t.f32.mlir
// RUN: rm -rf %t.spv-f32 && mkdir -p %t.spv-f32
// RUN: env AMP_VULKAN_DUMP_SPIRV=%t.spv-f32 %{run} %t.f32.mlir > %t.f32.txt
// RUN: %python %S/Inputs/validate_spirv_files.py spirv-val %t.spv-f32 | FileCheck %s --check-prefix=VALID-BIN
// f32: lavapipe's tanh differs from the CPU's by an f32 rounding or two,
// and the values are printed with 6 significant digits, each off by up to
// 5e-6 on results in [1, 10): atol 2e-5.
// RUN: %{compare} %t.cpu.txt %t.f32.txt --atol 2e-5 --rtol 1e-5 | FileCheck %s --check-prefix=NUM
//
// f16 (u = 2^-11): atol and rtol 4e-3 (~8u on results up to ~2), as in
// test/Integration/elementwise.mlir; min-abs-err shows f16 was used.
// RUN: rm -rf %t.spv-f16 && mkdir -p %t.spv-f16
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16},amp-lower-to-vulkan)' | env AMP_VULKAN_DUMP_SPIRV=%t.spv-f16 %{run} > %t.f16.txt
// RUN: %python %S/Inputs/validate_spirv_files.py spirv-val %t.spv-f16 | FileCheck %s --check-prefix=VALID-BIN
// RUN: %{compare} %t.f32.txt %t.f16.txt --atol 4e-3 --rtol 4e-3 --rel-floor 0.25 --min-abs-err 1e-5 | FileCheck %s --check-prefix=NUM
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16},amp-lower-to-llvm)' | %{run} > %t.cpu-f16.txt
// One f16 ulp at 2 is 2^-9:
// RUN: %{compare} %t.cpu-f16.txt %t.f16.txt --atol 2e-3 --rtol 1e-3 | FileCheck %s --check-prefix=NUM
//
// bf16 (u = 2^-8): atol 3e-2, rtol 4e-2 as on the CPU.
// RUN: rm -rf %t.spv-bf16 && mkdir -p %t.spv-bf16
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16},amp-lower-to-vulkan)' | env AMP_VULKAN_DUMP_SPIRV=%t.spv-bf16 %{run} > %t.bf16.txt
// RUN: %python %S/Inputs/validate_spirv_files.py spirv-val %t.spv-bf16 | FileCheck %s --check-prefix=VALID-BIN
// RUN: %{compare} %t.f32.txt %t.bf16.txt --atol 3e-2 --rtol 4e-2 --rel-floor 0.25 --min-abs-err 1e-4 | FileCheck %s --check-prefix=NUM
// The CPU reference rounds after every bf16 op, as the Vulkan kernels do
// (by default the CPU computes the chain in f32 and rounds once,
// amp-excess-precision; after the final sub's cancellation that differs
// from per-op rounding by up to 10% on the smallest results).
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16},amp-lower-to-llvm{excess-precision=false})' | %{run} > %t.cpu-bf16.txt
// One bf16 ulp at 2 is 2^-6:
// RUN: %{compare} %t.cpu-bf16.txt %t.bf16.txt --atol 1.6e-2 --rtol 8e-3 | FileCheck %s --check-prefix=NUM
//
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16},amp-lower-to-spirv)' -o %t.f16.spirv.mlir
// RUN: %python %S/validate_spirv.py mlir-translate spirv-val %t.f16.spirv.mlir | FileCheck %s --check-prefix=VALID
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16},amp-lower-to-spirv)' -o %t.bf16.spirv.mlir
// RUN: %python %S/validate_spirv.py mlir-translate spirv-val %t.bf16.spirv.mlir | FileCheck %s --check-prefix=VALID
// RUN: FileCheck %s --check-prefix=BF16 < %t.bf16.spirv.mlir
//
// NUM: max_abs_err={{.*}} OK
// VALID: {{[1-9][0-9]*}} SPIR-V modules valid (vulkan1.1)
// VALID-BIN: {{[1-9][0-9]*}} SPIR-V binaries valid (vulkan1.1)
//
// The runnable result: kernels serialised into gpu.binary ops, a host in the
// LLVM dialect that launches them.
// LOWERED-DAG: gpu.binary @compute_kernel
// LOWERED-DAG: gpu.binary @main_kernel
// LOWERED-DAG: llvm.func @compute(
// LOWERED-DAG: gpu.launch_func @compute_kernel::@compute_kernel
// LOWERED-NOT: gpu.module
//
// No bf16 reaches SPIR-V: the kernel computes in f32 and rounds to bf16 on
// the bits (the round-to-nearest-even bias 0x7fff). (The host may keep
// bf16 values; everything from the first kernel on must not.)
// BF16: spirv.module @__spv__compute_kernel
// BF16: spirv.Constant 32767 : i32
// BF16-NOT: bf16

func.func @compute(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %0 = linalg.add ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = linalg.mul ins(%0, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = linalg.max ins(%1, %zero : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = math.tanh %2 : tensor<64x64xf32>
  %4 = arith.subf %3, %b : tensor<64x64xf32>
  return %4 : tensor<64x64xf32>
}

// The driver: exact inputs in [-1, 1) (multiples of 1/32, from integer
// arithmetic on the indices), written to memrefs so that mixed-precision
// leaves them alone and every run sees the same bits:
//   a[i][j] = ((37 i + 11 j) mod 64) / 32 - 1,  b[i][j] = ((i + 29 j) mod 64) / 32 - 1.
#id = affine_map<(i, j) -> (i, j)>
func.func @main() {
  %ma = memref.alloc() : memref<64x64xf32>
  %mb = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      outs(%ma, %mb : memref<64x64xf32>, memref<64x64xf32>) {
  ^bb0(%oa: f32, %ob: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c37 = arith.constant 37 : index
    %c11 = arith.constant 11 : index
    %c29 = arith.constant 29 : index
    %c64 = arith.constant 64 : index
    %x = arith.muli %i, %c37 : index
    %y = arith.muli %j, %c11 : index
    %s = arith.addi %x, %y : index
    %ra = arith.remui %s, %c64 : index
    %z = arith.muli %j, %c29 : index
    %t = arith.addi %i, %z : index
    %rb = arith.remui %t, %c64 : index
    %ia = arith.index_cast %ra : index to i32
    %ib = arith.index_cast %rb : index to i32
    %fa = arith.sitofp %ia : i32 to f32
    %fb = arith.sitofp %ib : i32 to f32
    %k = arith.constant 0.03125 : f32
    %one = arith.constant 1.0 : f32
    %sa = arith.mulf %fa, %k : f32
    %va = arith.subf %sa, %one : f32
    %sb = arith.mulf %fb, %k : f32
    %vb = arith.subf %sb, %one : f32
    linalg.yield %va, %vb : f32, f32
  }
  %a = bufferization.to_tensor %ma restrict : memref<64x64xf32> to tensor<64x64xf32>
  %b = bufferization.to_tensor %mb restrict : memref<64x64xf32> to tensor<64x64xf32>
  %r = call @compute(%a, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %mr = memref.alloc() : memref<64x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %mr
      : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
  %mu = memref.cast %mr : memref<64x64xf32> to memref<*xf32>
  call @printMemrefF32(%mu) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)

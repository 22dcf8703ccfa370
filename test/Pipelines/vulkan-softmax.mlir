// Runs linalg.softmax over the rows of a 32x64 tensor through
// amp-lower-to-vulkan and amp's Vulkan runtime:
//
// * f32 on Vulkan agrees with f32 on the CPU (exp differs by an f32
//   rounding or so);
// * mixed-precision keeps softmax in f32 by default (its exp and sums
//   overflow or lose too much in 16 bits), so the converted programs give
//   the f32 results bit for bit;
// * with `allow=linalg.softmax` the softmax runs low: its decomposition
//   (max, exp, sum, divide) becomes one kernel that reads each row once
//   (amp-fuse-rows-in-workgroups) and keeps the f16 or bf16 values of the
//   row in registers (bf16 rounded on its bits on Vulkan). Results are
//   probabilities in (0, 1]: f16 within 1e-3 absolute and 1e-2 relative on
//   the entries of at least 1% of the largest (exp and a 64-term sum in f16;
//   measured on lavapipe 3.2e-4 / 3.3e-3), bf16 within 8e-3 and 8e-2
//   (measured 2.7e-3 / 2.8e-2: the sum of 64 terms, each rounded to 8 bits,
//   is rounded itself);
//   the same conversion on the CPU is within the same bounds of f32 (it
//   sums in 16 lanes of partial sums, Vulkan in order: measured 1.1e-4 /
//   1.5e-3 in f16), and the two agree to within a few units in the last
//   place of the low type (exp is computed by different code; lavapipe
//   matches the CPU exactly).
// * every SPIR-V binary the runtime loads (AMP_VULKAN_DUMP_SPIRV) and every
//   spirv.module of amp-lower-to-spirv passes spirv-val.
//
// REQUIRES: vulkan, mlir-runner, spirv-val
// DEFINE: %{run} = mlir-runner -e main -entry-point-result=void -shared-libs=%amp_vulkan_runtime,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so
// DEFINE: %{compare} = %python %S/../Integration/compare.py
//
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm)' | %{run} > %t.cpu.txt
// RUN: rm -rf %t.spv-f32 && mkdir -p %t.spv-f32
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-vulkan)' | env AMP_VULKAN_DUMP_SPIRV=%t.spv-f32 %{run} > %t.f32.txt
// RUN: %python %S/Inputs/validate_spirv_files.py spirv-val %t.spv-f32 | FileCheck %s --check-prefix=VALID-BIN
// RUN: %{compare} %t.cpu.txt %t.f32.txt --atol 1e-6 --rtol 1e-5 | FileCheck %s --check-prefix=NUM
//
// RUN: rm -rf %t.spv-f16-default && mkdir -p %t.spv-f16-default
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16},amp-lower-to-vulkan)' | env AMP_VULKAN_DUMP_SPIRV=%t.spv-f16-default %{run} > %t.f16-default.txt
// RUN: %python %S/Inputs/validate_spirv_files.py spirv-val %t.spv-f16-default | FileCheck %s --check-prefix=VALID-BIN
// RUN: %{compare} %t.f32.txt %t.f16-default.txt --atol 0 --rtol 0 | FileCheck %s --check-prefix=NUM
// RUN: rm -rf %t.spv-bf16-default && mkdir -p %t.spv-bf16-default
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16},amp-lower-to-vulkan)' | env AMP_VULKAN_DUMP_SPIRV=%t.spv-bf16-default %{run} > %t.bf16-default.txt
// RUN: %python %S/Inputs/validate_spirv_files.py spirv-val %t.spv-bf16-default | FileCheck %s --check-prefix=VALID-BIN
// RUN: %{compare} %t.f32.txt %t.bf16-default.txt --atol 0 --rtol 0 | FileCheck %s --check-prefix=NUM
//
// RUN: rm -rf %t.spv-f16 && mkdir -p %t.spv-f16
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16 allow=linalg.softmax},amp-lower-to-vulkan)' | env AMP_VULKAN_DUMP_SPIRV=%t.spv-f16 %{run} > %t.f16.txt
// RUN: %python %S/Inputs/validate_spirv_files.py spirv-val %t.spv-f16 | FileCheck %s --check-prefix=VALID-BIN
// RUN: %{compare} %t.f32.txt %t.f16.txt --atol 1e-3 --rtol 1e-2 --min-abs-err 1e-5 | FileCheck %s --check-prefix=NUM
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16 allow=linalg.softmax},amp-lower-to-llvm)' | %{run} > %t.cpu-f16.txt
// RUN: %{compare} %t.f32.txt %t.cpu-f16.txt --atol 1e-3 --rtol 1e-2 --min-abs-err 1e-5 | FileCheck %s --check-prefix=NUM
// RUN: %{compare} %t.cpu-f16.txt %t.f16.txt --atol 1e-3 --rtol 8e-3 | FileCheck %s --check-prefix=NUM
// RUN: rm -rf %t.spv-bf16 && mkdir -p %t.spv-bf16
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16 allow=linalg.softmax},amp-lower-to-vulkan)' | env AMP_VULKAN_DUMP_SPIRV=%t.spv-bf16 %{run} > %t.bf16.txt
// RUN: %python %S/Inputs/validate_spirv_files.py spirv-val %t.spv-bf16 | FileCheck %s --check-prefix=VALID-BIN
// RUN: %{compare} %t.f32.txt %t.bf16.txt --atol 8e-3 --rtol 8e-2 --min-abs-err 1e-4 | FileCheck %s --check-prefix=NUM
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16 allow=linalg.softmax},amp-lower-to-llvm)' | %{run} > %t.cpu-bf16.txt
// RUN: %{compare} %t.f32.txt %t.cpu-bf16.txt --atol 8e-3 --rtol 8e-2 --min-abs-err 1e-4 | FileCheck %s --check-prefix=NUM
// RUN: %{compare} %t.cpu-bf16.txt %t.bf16.txt --atol 8e-3 --rtol 3.2e-2 | FileCheck %s --check-prefix=NUM
//
// Told the device's subgroup size (amp-lower-to-vulkan{subgroup-size=N}),
// the reductions combine within subgroups with shuffles, the code NVIDIA's
// warps run, and give the f32 results within the same bounds (lavapipe:
// subgroups of 8, the 64 threads of a row in 8 of them). The SPIR-V uses
// GroupNonUniformShuffleXor, with the capabilities it needs.
// RUN: %if vulkan-subgroup-shuffle %{ amp-opt %s -p 'builtin.module(amp-lower-to-vulkan{subgroup-size=%vulkan_subgroup_size})' | %{run} > %t.shuffle.txt %}
// RUN: %if vulkan-subgroup-shuffle %{ %{compare} %t.cpu.txt %t.shuffle.txt --atol 1e-6 --rtol 1e-5 | FileCheck %s --check-prefix=NUM %}
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-spirv{subgroup-size=8})' | FileCheck %s --check-prefix=SHUFFLE
// SHUFFLE: spirv.module @__spv__compute_kernel {{.*}}GroupNonUniformShuffle
// SHUFFLE: spirv.GroupNonUniformShuffleXor <Subgroup>
// RUN: not amp-opt %s -p 'builtin.module(amp-lower-to-spirv{subgroup-size=6})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADSUBGROUP
// BADSUBGROUP: subgroup-size must be 0 or a power of two, got 6
//
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16 allow=linalg.softmax},amp-lower-to-spirv)' -o %t.f16.spirv.mlir
// RUN: %python %S/validate_spirv.py mlir-translate spirv-val %t.f16.spirv.mlir | FileCheck %s --check-prefix=VALID
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16 allow=linalg.softmax},amp-lower-to-spirv)' -o %t.bf16.spirv.mlir
// RUN: %python %S/validate_spirv.py mlir-translate spirv-val %t.bf16.spirv.mlir | FileCheck %s --check-prefix=VALID
// RUN: FileCheck %s --check-prefix=BF16 < %t.bf16.spirv.mlir
//
// NUM: max_abs_err={{.*}} OK
// VALID: {{[1-9][0-9]*}} SPIR-V modules valid (vulkan1.1)
// VALID-BIN: {{[1-9][0-9]*}} SPIR-V binaries valid (vulkan1.1)
//
// One kernel, from the f32 rows to the f32 probabilities: no bf16 buffer
// passes between kernels, and the kernel rounds to bf16 on the bits (i16).
// BF16: gpu.launch_func @compute_kernel::@compute_kernel {{.*}}args(%{{.+}} : memref<32x64xf32>, %{{.+}} : memref<32x64xf32>)
// BF16-NOT: gpu.launch_func @compute_kernel
// BF16: spirv.module @__spv__compute_kernel Logical GLSL450 requires #spirv.vce<v1.0, [Int16,
// BF16-NOT: bf16

func.func @compute(%x: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %e = tensor.empty() : tensor<32x64xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %p : tensor<32x64xf32>
}

// The driver: x[i][j] = ((37 i + 11 j) mod 64) / 8 - 4, exact in every
// type, written to a memref so that mixed-precision leaves it alone.
#id = affine_map<(i, j) -> (i, j)>
func.func @main() {
  %mx = memref.alloc() : memref<32x64xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%mx : memref<32x64xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c37 = arith.constant 37 : index
    %c11 = arith.constant 11 : index
    %c64 = arith.constant 64 : index
    %a = arith.muli %i, %c37 : index
    %b = arith.muli %j, %c11 : index
    %s = arith.addi %a, %b : index
    %r = arith.remui %s, %c64 : index
    %ir = arith.index_cast %r : index to i32
    %f = arith.sitofp %ir : i32 to f32
    %scale = arith.constant 0.125 : f32
    %four = arith.constant 4.0 : f32
    %v0 = arith.mulf %f, %scale : f32
    %v = arith.subf %v0, %four : f32
    linalg.yield %v : f32
  }
  %x = bufferization.to_tensor %mx restrict : memref<32x64xf32> to tensor<32x64xf32>
  %p = call @compute(%x) : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %mp = memref.alloc() : memref<32x64xf32>
  bufferization.materialize_in_destination %p in restrict writable %mp
      : (tensor<32x64xf32>, memref<32x64xf32>) -> ()
  %mu = memref.cast %mp : memref<32x64xf32> to memref<*xf32>
  call @printMemrefF32(%mu) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)

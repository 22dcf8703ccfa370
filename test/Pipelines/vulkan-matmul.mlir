// Runs linalg.matmul 64x128 * 128x64 through amp-lower-to-vulkan and amp's
// Vulkan runtime, as written and after mixed-precision to f16 and bf16
// (accumulating in f32), and checks the results against f32. Every SPIR-V
// binary the runtime loads passes spirv-val.
//
// The inputs, in [-1.1, 1.1), are not exact in f16 or bf16: each is
// rounded once (relative error <= u; f16: u = 2^-11 = 4.9e-4, bf16:
// u = 2^-8 = 3.9e-3), products are exact in the f32 accumulator, so an
// element's error is at most 2u * sum_k |a_ik b_kj| (<= 2u * 155 here) and
// in practice a random walk of about 2u * sqrt(128) * 0.4: tolerances are
// set at about twice the measured error on lavapipe (f16 measured 5.1e-3
// absolute and 2.2e-3 relative; bf16 3.4e-2 and 1.5e-2), with relative
// errors checked on elements of at least 25% of the maximum. min-abs-err
// shows the low type was used.
//
// The same conversion run on the CPU (amp-lower-to-llvm) sums in the same
// order. Its kernels add each product with a fused multiply-add: for f16
// and bf16 operands the f32 product is exact, so the Vulkan results must
// equal the CPU's bit for bit; for f32 the unrounded product differs from
// Vulkan's rounded one by at most u = 2^-24 of the product, and the sums
// by about sqrt(128) * u * 155 at most (measured 1e-5 absolute).
//
// REQUIRES: vulkan, mlir-runner, spirv-val
// DEFINE: %{run} = mlir-runner -e main -entry-point-result=void -shared-libs=%amp_vulkan_runtime,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so
// DEFINE: %{compare} = %python %S/../Integration/compare.py
// DEFINE: %{f16-tol} = --atol 1e-2 --rtol 4.5e-3 --rel-floor 0.25 --min-abs-err 1e-4
// DEFINE: %{bf16-tol} = --atol 7e-2 --rtol 3e-2 --rel-floor 0.25 --min-abs-err 1e-3
//
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm)' | %{run} > %t.cpu.txt
// RUN: rm -rf %t.spv-f32 && mkdir -p %t.spv-f32
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-vulkan)' | env AMP_VULKAN_DUMP_SPIRV=%t.spv-f32 %{run} > %t.f32.txt
// RUN: %python %S/Inputs/validate_spirv_files.py spirv-val %t.spv-f32 | FileCheck %s --check-prefix=VALID-BIN
// Same summation order, products rounded (Vulkan) or fused (CPU).
// RUN: %{compare} %t.cpu.txt %t.f32.txt --atol 5e-5 --rtol 5e-5 --rel-floor 0.25 | FileCheck %s --check-prefix=NUM
//
// RUN: rm -rf %t.spv-f16 && mkdir -p %t.spv-f16
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16},amp-lower-to-vulkan)' | env AMP_VULKAN_DUMP_SPIRV=%t.spv-f16 %{run} > %t.f16.txt
// RUN: %python %S/Inputs/validate_spirv_files.py spirv-val %t.spv-f16 | FileCheck %s --check-prefix=VALID-BIN
// RUN: %{compare} %t.f32.txt %t.f16.txt %{f16-tol} | FileCheck %s --check-prefix=NUM
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16},amp-lower-to-llvm)' | %{run} > %t.cpu-f16.txt
// RUN: %{compare} %t.cpu-f16.txt %t.f16.txt --atol 0 --rtol 0 | FileCheck %s --check-prefix=NUM
// RUN: rm -rf %t.spv-bf16 && mkdir -p %t.spv-bf16
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16},amp-lower-to-vulkan)' | env AMP_VULKAN_DUMP_SPIRV=%t.spv-bf16 %{run} > %t.bf16.txt
// RUN: %python %S/Inputs/validate_spirv_files.py spirv-val %t.spv-bf16 | FileCheck %s --check-prefix=VALID-BIN
// RUN: %{compare} %t.f32.txt %t.bf16.txt %{bf16-tol} | FileCheck %s --check-prefix=NUM
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16},amp-lower-to-llvm)' | %{run} > %t.cpu-bf16.txt
// RUN: %{compare} %t.cpu-bf16.txt %t.bf16.txt --atol 0 --rtol 0 | FileCheck %s --check-prefix=NUM
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
// The matmul kernel reads f32, rounds to bf16 on the bits (the rounding of
// its operands is fused into its tile loads: it is the only kernel) and
// multiplies in f32; no bf16 reaches SPIR-V.
// BF16: spirv.module @__spv__compute_kernel
// BF16-NOT: spirv.module
// BF16: spirv.Constant 32767 : i32
// BF16: spirv.FMul %{{.+}}, %{{.+}} : f32
// BF16-NOT: bf16

func.func @compute(%a: tensor<64x128xf32>, %b: tensor<128x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// The driver: a[i][k] = ((37 i + 11 k) mod 64) * 0.0344 - 1.1 and
// b[k][j] = ((k + 29 j) mod 64) * 0.0344 - 1.1 (in f32), written to memrefs so that
// mixed-precision leaves them alone.
#id = affine_map<(i, j) -> (i, j)>
func.func @main() {
  %ma = memref.alloc() : memref<64x128xf32>
  %mb = memref.alloc() : memref<128x64xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%ma : memref<64x128xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c37 = arith.constant 37 : index
    %c11 = arith.constant 11 : index
    %c64 = arith.constant 64 : index
    %x = arith.muli %i, %c37 : index
    %y = arith.muli %k, %c11 : index
    %s = arith.addi %x, %y : index
    %r = arith.remui %s, %c64 : index
    %ir = arith.index_cast %r : index to i32
    %f = arith.sitofp %ir : i32 to f32
    %scale = arith.constant 0.0344 : f32
    %one = arith.constant 1.1 : f32
    %v0 = arith.mulf %f, %scale : f32
    %v = arith.subf %v0, %one : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%mb : memref<128x64xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c29 = arith.constant 29 : index
    %c64 = arith.constant 64 : index
    %y = arith.muli %j, %c29 : index
    %s = arith.addi %k, %y : index
    %r = arith.remui %s, %c64 : index
    %ir = arith.index_cast %r : index to i32
    %f = arith.sitofp %ir : i32 to f32
    %scale = arith.constant 0.0344 : f32
    %one = arith.constant 1.1 : f32
    %v0 = arith.mulf %f, %scale : f32
    %v = arith.subf %v0, %one : f32
    linalg.yield %v : f32
  }
  %a = bufferization.to_tensor %ma restrict : memref<64x128xf32> to tensor<64x128xf32>
  %b = bufferization.to_tensor %mb restrict : memref<128x64xf32> to tensor<128x64xf32>
  %r = call @compute(%a, %b) : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
  %mr = memref.alloc() : memref<64x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %mr
      : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
  %mu = memref.cast %mr : memref<64x64xf32> to memref<*xf32>
  call @printMemrefF32(%mu) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)

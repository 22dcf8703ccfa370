# REQUIRES: mlir-runner
# RUN: env AMP_CAPI_LIBRARY=%amp_capi_lib PYTHONPATH=%amp_python_path %python %s %t.llvm.mlir | FileCheck %s
# RUN: mlir-runner %t.llvm.mlir -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s --check-prefix=OUT
#
# amp.lower takes convert's output to each target in-process: "cpu" to the
# LLVM dialect, which mlir-runner runs and prints the right numbers for (the
# inputs are small integers, exact in bf16, and the matmul accumulates in
# f32, so bf16 computes y = x * w + b exactly); "spirv" to spirv.modules
# (f16 kernels declare Float16); "vulkan" to what amp-run runs on Vulkan;
# "sm_80" (as amp-run names chips) to PTX for that chip.
import sys

import amp

PROGRAM = """
func.func @compute(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %e = tensor.empty() : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%z : tensor<2x2xf32>) -> tensor<2x2xf32>
  %y = arith.addf %m, %b : tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

func.func @main() {
  %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %w = arith.constant dense<[[1.0, -1.0], [2.0, 0.5], [-3.0, 4.0]]> : tensor<3x2xf32>
  %b = arith.constant dense<[[0.5, 0.25], [-1.0, 2.0]]> : tensor<2x2xf32>
  %y = call @compute(%x, %w, %b) : (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %my = memref.alloc() : memref<2x2xf32>
  bufferization.materialize_in_destination %y in restrict writable %my
      : (tensor<2x2xf32>, memref<2x2xf32>) -> ()
  %mu = memref.cast %my : memref<2x2xf32> to memref<*xf32>
  call @printMemrefF32(%mu) : (memref<*xf32>) -> ()
  memref.dealloc %my : memref<2x2xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)
"""

converted = amp.convert(PROGRAM, precision="bf16")
print("converted:", [l.strip() for l in converted.ir.splitlines() if "linalg.matmul" in l][0])
# CHECK: converted: {{.*}}linalg.matmul ins({{.*}} : tensor<2x3xbf16>, tensor<3x2xbf16>) outs({{.*}} : tensor<2x2xf32>)

llvm = amp.lower(converted, target="cpu")
with open(sys.argv[1], "w") as f:
    f.write(llvm)
functions = [l.split()[1] for l in llvm.splitlines()
             if l.lstrip().startswith("llvm.func @") and "(" in l]
print("cpu:", sorted({f for f in functions
                      if f.startswith(("@compute(", "@main("))}))
# Each kernel a function of its own, named after the function it came from.
print("cpu: kernels of @compute:", any(f.startswith("@compute__") for f in functions))
print("cpu: only the LLVM dialect left:",
      not any(d in llvm for d in ("linalg.", "func.func", "memref.", "scf.")))
# CHECK-NEXT: cpu: ['@compute(%arg0:', '@main()']
# CHECK-NEXT: cpu: kernels of @compute: True
# CHECK-NEXT: cpu: only the LLVM dialect left: True
# y = x * w + b
# OUT: Unranked Memref {{.*}} rank = 2 offset = 0 sizes = [2, 2]
# OUT-NEXT: {{\[\[}}-3.5,   12.25],
# OUT-NEXT: [-5,   24.5]]

# Vulkan kernels of the f16 program compute in f16.
spirv = amp.lower(amp.convert(PROGRAM, precision="f16"), target="spirv")
print("spirv:", spirv.count("spirv.module @"), "spirv.modules;",
      "Float16 kernels:", sum("requires #spirv.vce<" in l and "Float16" in l
                              for l in spirv.splitlines()))
# CHECK-NEXT: spirv: {{[1-9][0-9]*}} spirv.modules; Float16 kernels: {{[1-9][0-9]*}}
# "vulkan" is what amp-run --backend=vulkan runs: serialised kernels and
# host code that calls amp's Vulkan runtime.
vulkan = amp.lower(amp.convert(PROGRAM, precision="f16"), target="vulkan")
print("vulkan:", vulkan.count("gpu.binary @") > 0, "mgpuLaunchKernel" in vulkan or "llvm.func" in vulkan)
# CHECK-NEXT: vulkan: True True

ptx = amp.lower(converted, target="sm_80", format="isa")
ptx_cuda = amp.lower(converted, target="cuda", chip="sm_80", format="isa")
print("cuda:", "gpu.binary @" in ptx, ".target sm_80" in ptx, ".target sm_80" in ptx_cuda)
# CHECK-NEXT: cuda: True True True

# threads=N: large ops on N OpenMP threads (the tiny program above has none
# worth splitting, so a 128x256 one); a target without options says so.
BIG = """
func.func @scale(%x: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %t = math.tanh %x : tensor<128x256xf32>
  return %t : tensor<128x256xf32>
}
"""
threaded = amp.lower(amp.convert(BIG, precision="bf16"), target="cpu", threads=2)
print("threads:", "omp.parallel" in threaded, "omp.wsloop" in threaded)
# CHECK-NEXT: threads: True True
try:
    amp.lower(converted, target="spirv", threads=2)
except amp.AmpError as e:
    print("spirv threads:", e)
# CHECK-NEXT: spirv threads: amp-lower-to-spirv: no such option threads
try:
    amp.lower(converted, target="cpu", threads="x")
except amp.AmpError as e:
    print("threads x:", e)
# CHECK-NEXT: threads x: amp-lower-to-llvm: option threads: expected an integer, got 'x'

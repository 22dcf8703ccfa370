// A loop that carries a freshly computed tensor from one iteration to the
// next (not an update in place) bufferizes with a new buffer per iteration;
// amp-free-temporaries frees each one once the next iteration has read it,
// on the CPU and on the host side of the GPU pipelines. Five doublings
// give 32 times the input, exactly.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %s --entry=loop --seed=3 --save-inputs=%t/in --output=%t/cpu.npy
// RUN: %python -c "import numpy as np; np.save('%t/ref.npy', np.load('%t/in/arg0.npy') * 32)"
// RUN: amp-run %s --entry=loop --input=%t/in/arg0.npy --compare=%t/ref.npy --rtol=0 --atol=0 | FileCheck %s
// RUN: %if vulkan %{ amp-run %s --entry=loop --backend=vulkan --input=%t/in/arg0.npy --compare=%t/ref.npy --rtol=0 --atol=0 | FileCheck %s %}
// CHECK: compare result 0 (256xf32) with '{{.*}}ref.npy': {{.*}} out_of_tolerance=0/256 {{.*}} OK
//
// Inside the loop, the buffer of the previous iteration is freed (under a
// flag: in the first iteration it is the caller's argument):
// RUN: amp-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries allow-return-allocs-from-loops function-boundary-type-conversion=identity-layout-map},amp-free-temporaries)' | FileCheck %s --check-prefix=FREE
// FREE:      scf.for {{.+}} iter_args(%[[X:.+]] = %{{.+}}, %[[OWNED:.+]] = %false)
// FREE-NEXT:   %[[NEW:.+]] = memref.alloc()
// FREE-NEXT:   linalg.add ins(%[[X]], %[[X]] : {{.+}}) outs(%[[NEW]] : memref<256xf32>)
// FREE-NEXT:   %[[BASE:[^,]+]], {{.+}} = memref.extract_strided_metadata %[[X]]
// FREE-NEXT:   scf.if %[[OWNED]] {
// FREE-NEXT:     memref.dealloc %[[BASE]]
// FREE-NEXT:   }
// FREE-NEXT:   scf.yield %[[NEW]], %true
// The pipelines end with the frees as calls:
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-llvm)' | FileCheck %s --check-prefix=CALLS
// RUN: amp-opt %s -p 'builtin.module(amp-lower-to-vulkan)' | FileCheck %s --check-prefix=CALLS
// CALLS-LABEL: llvm.func @loop
// CALLS:         llvm.call @malloc
// CALLS:         llvm.call @free

func.func @loop(%a: tensor<256xf32>) -> tensor<256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%x = %a) -> tensor<256xf32> {
    %e = tensor.empty() : tensor<256xf32>
    %y = linalg.add ins(%x, %x : tensor<256xf32>, tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
    scf.yield %y : tensor<256xf32>
  }
  return %r : tensor<256xf32>
}

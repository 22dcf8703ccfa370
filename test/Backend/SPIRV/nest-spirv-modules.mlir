// amp-nest-spirv-modules moves the spirv.module that convert-gpu-to-spirv
// made for a gpu.module into it, where gpu-module-to-binary serialises it;
// a spirv.module without its gpu.module is an error.
// RUN: amp-opt %s -split-input-file -amp-nest-spirv-modules -verify-diagnostics | FileCheck %s

// CHECK-LABEL: gpu.module @kernels
// CHECK-NEXT:    spirv.module @__spv__kernels Logical GLSL450
// CHECK:         gpu.func @k()
// CHECK-NOT:   spirv.module
module attributes {gpu.container_module} {
  spirv.module @__spv__kernels Logical GLSL450 {
  }
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{no gpu.module to nest this spirv.module in (expected the name @__spv__<gpu.module name>)}}
  spirv.module @__spv__missing Logical GLSL450 {
  }
}

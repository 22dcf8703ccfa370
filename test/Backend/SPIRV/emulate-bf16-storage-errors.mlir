// amp-emulate-bf16-storage rejects kernels it cannot make bf16-free, with
// the op that still needs bf16, instead of producing wrong code.
// RUN: amp-opt %s -split-input-file -amp-emulate-bf16-storage -verify-diagnostics

// An atomic bf16 addition to memory cannot be done on i16 bits.
module attributes {gpu.container_module} {
  // expected-error @+1 {{cannot make bf16 storage-only in this gpu.module}}
  gpu.module @atomic {
    gpu.func @atomic(%buf: memref<4xbf16>, %v: bf16) kernel {
      %i = gpu.block_id x
      // expected-error @+1 {{failed to legalize operation 'memref.atomic_rmw'}}
      %old = memref.atomic_rmw addf %v, %buf[%i] : (bf16, memref<4xbf16>) -> bf16
      gpu.return
    }
  }
}

// -----

// f64 -> bf16 would round twice through f32.
module attributes {gpu.container_module} {
  // expected-error @+1 {{cannot make bf16 storage-only in this gpu.module}}
  gpu.module @from_f64 {
    gpu.func @from_f64(%in: memref<4xf64>, %out: memref<4xbf16>) kernel {
      %i = gpu.block_id x
      %x = memref.load %in[%i] : memref<4xf64>
      // expected-error @+1 {{failed to legalize operation 'arith.truncf'}}
      %y = arith.truncf %x : f64 to bf16
      memref.store %y, %out[%i] : memref<4xbf16>
      gpu.return
    }
  }
}

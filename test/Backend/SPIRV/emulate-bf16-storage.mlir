// amp-emulate-bf16-storage: kernels keep bf16 in memory as i16 and compute
// in f32, with exact bit-level casts; launches cast their bf16 buffers; the
// host and kernels without bf16 are left alone. The result lowers to SPIR-V
// that passes spirv-val.
// RUN: amp-opt %s -split-input-file -amp-emulate-bf16-storage | FileCheck %s
// RUN: amp-opt %s -split-input-file -p 'builtin.module(amp-emulate-bf16-storage,amp-attach-spirv-entry-point-abi,spirv-attach-target{ver=v1.3 caps=Shader,Float16,Int16,StorageBuffer16BitAccess exts=SPV_KHR_16bit_storage,SPV_KHR_storage_buffer_storage_class},gpu.module(math-extend-to-supported-types,convert-math-to-spirv),convert-gpu-to-spirv,spirv.module(spirv-lower-abi-attrs,spirv-update-vce))' -o %t.spirv.mlir
// RUN: FileCheck %s --check-prefix=SPIRV < %t.spirv.mlir
// RUN: %python %S/../../Pipelines/validate_spirv.py mlir-translate spirv-val %t.spirv.mlir | FileCheck %s --check-prefix=VALID
// REQUIRES: spirv-val

// VALID: 4 SPIR-V modules valid (vulkan1.1)
// No bf16 reaches a spirv.module (it would silently become f32 there, with
// the wrong buffer layout); bf16 buffers are arrays of i16.
// SPIRV:     spirv.module @__spv__add
// SPIRV-NOT: bf16
// SPIRV:     !spirv.array<64 x i16, stride=2>
// SPIRV-NOT: bf16
// SPIRV:     gpu.module @add
// SPIRV:     spirv.module @__spv__reduce
// SPIRV-NOT: bf16
// SPIRV:     gpu.module @reduce
// SPIRV:     spirv.module @__spv__round_trip
// SPIRV-NOT: bf16
// SPIRV:     gpu.module @round_trip

// A bf16 add: operands extended by a shift, the f32 sum rounded to nearest
// even on the bits (bias 0x7fff plus the lowest kept bit), NaNs made quiet.
// CHECK-LABEL: func.func @add_host(
// CHECK-SAME:    %[[A:.+]]: memref<64xbf16>, %[[B:.+]]: memref<64xbf16>
// CHECK:         %[[CA:.+]] = builtin.unrealized_conversion_cast %[[A]] : memref<64xbf16> to memref<64xi16>
// CHECK:         %[[CB:.+]] = builtin.unrealized_conversion_cast %[[B]] : memref<64xbf16> to memref<64xi16>
// CHECK:         gpu.launch_func @add::@add {{.*}} args(%[[CA]] : memref<64xi16>, %[[CB]] : memref<64xi16>)
// CHECK-LABEL: gpu.func @add(
// CHECK-SAME:    %[[IN:.+]]: memref<64xi16>, %[[OUT:.+]]: memref<64xi16>) kernel
// CHECK:         %[[X:.+]] = memref.load %[[IN]][%{{.+}}] : memref<64xi16>
// CHECK:         %[[XW:.+]] = arith.extui %[[X]] : i16 to i32
// CHECK:         %[[C16:.+]] = arith.constant 16 : i32
// CHECK:         %[[XS:.+]] = arith.shli %[[XW]], %[[C16]] : i32
// CHECK:         %[[XF:.+]] = arith.bitcast %[[XS]] : i32 to f32
// CHECK:         %[[SUM:.+]] = arith.addf %[[XF]], %[[XF]] : f32
// CHECK:         %[[BITS:.+]] = arith.bitcast %[[SUM]] : f32 to i32
// CHECK:         %[[HIGH:.+]] = arith.shrui %[[BITS]], %{{.+}} : i32
// CHECK:         %[[ONE:.+]] = arith.constant 1 : i32
// CHECK:         %[[LSB:.+]] = arith.andi %[[HIGH]], %[[ONE]] : i32
// CHECK:         %[[BIAS:.+]] = arith.constant 32767 : i32
// CHECK:         %[[ADD:.+]] = arith.addi %[[LSB]], %[[BIAS]] : i32
// CHECK:         %[[BIASED:.+]] = arith.addi %[[BITS]], %[[ADD]] : i32
// CHECK:         %[[ROUNDED:.+]] = arith.shrui %[[BIASED]], %{{.+}} : i32
// CHECK:         %[[ABS:.+]] = arith.constant 2147483647 : i32
// CHECK:         %[[MAG:.+]] = arith.andi %[[BITS]], %[[ABS]] : i32
// CHECK:         %[[INF:.+]] = arith.constant 2139095040 : i32
// CHECK:         %[[NAN:.+]] = arith.cmpi ugt, %[[MAG]], %[[INF]] : i32
// CHECK:         %[[QUIET:.+]] = arith.constant 64 : i32
// CHECK:         %[[Q:.+]] = arith.ori %[[HIGH]], %[[QUIET]] : i32
// CHECK:         %[[SEL:.+]] = arith.select %[[NAN]], %[[Q]], %[[ROUNDED]] : i32
// CHECK:         %[[Y:.+]] = arith.trunci %[[SEL]] : i32 to i16
// CHECK:         memref.store %[[Y]], %[[OUT]][%{{.+}}] : memref<64xi16>
module attributes {gpu.container_module} {
  func.func @add_host(%a: memref<64xbf16>, %b: memref<64xbf16>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @add::@add blocks in (%c64, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<64xbf16>, %b : memref<64xbf16>)
    return
  }
  gpu.module @add {
    gpu.func @add(%in: memref<64xbf16>, %out: memref<64xbf16>) kernel {
      %i = gpu.block_id x
      %x = memref.load %in[%i] : memref<64xbf16>
      %y = arith.addf %x, %x : bf16
      memref.store %y, %out[%i] : memref<64xbf16>
      gpu.return
    }
  }
}

// -----

// A bf16 loop-carried sum: the constant becomes its bits (0.5 = 0x3f00),
// the iter_arg an i16, each addition is rounded to bf16 inside the loop, and
// exp of bf16 is computed in f32 and rounded too. f16 math is left alone.
// CHECK-LABEL: gpu.func @reduce(
// CHECK-SAME:    %{{.+}}: memref<8xi16>, %{{.+}}: memref<1xi16>, %{{.+}}: memref<8xf16>) kernel
// CHECK:         %[[HALF:.+]] = arith.constant 16128 : i16
// CHECK:         %[[SUM:.+]] = scf.for {{.*}} iter_args(%[[ACC:.+]] = %[[HALF]]) -> (i16)
// CHECK:           math.exp %{{.+}} : f32
// CHECK:           arith.addf %{{.+}}, %{{.+}} : f32
// CHECK:           math.exp %{{.+}} : f16
// CHECK:           scf.yield %{{.+}} : i16
// CHECK:         memref.store %[[SUM]], %{{.+}} : memref<1xi16>
module attributes {gpu.container_module} {
  gpu.module @reduce {
    gpu.func @reduce(%in: memref<8xbf16>, %out: memref<1xbf16>, %h: memref<8xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %half = arith.constant 0.5 : bf16
      %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %half) -> bf16 {
        %x = memref.load %in[%k] : memref<8xbf16>
        %e = math.exp %x : bf16
        %s = arith.addf %acc, %e : bf16
        %hx = memref.load %h[%k] : memref<8xf16>
        %he = math.exp %hx : f16
        memref.store %he, %h[%k] : memref<8xf16>
        scf.yield %s : bf16
      }
      memref.store %sum, %out[%c0] : memref<1xbf16>
      gpu.return
    }
  }
}

// -----

// extf(truncf(x)) in a bf16 program rounds: it is not folded away.
// CHECK-LABEL: gpu.func @round_trip(
// CHECK:         arith.constant 32767 : i32
// CHECK:         arith.trunci %{{.+}} : i32 to i16
// CHECK:         arith.extui %{{.+}} : i16 to i32
// CHECK:         memref.store %{{.+}} : memref<4xf32>
module attributes {gpu.container_module} {
  gpu.module @round_trip {
    gpu.func @round_trip(%buf: memref<4xf32>) kernel {
      %i = gpu.block_id x
      %x = memref.load %buf[%i] : memref<4xf32>
      %t = arith.truncf %x : f32 to bf16
      %e = arith.extf %t : bf16 to f32
      memref.store %e, %buf[%i] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// Kernels without bf16 and host code are not touched.
// CHECK-LABEL: func.func @host_bf16(
// CHECK:         arith.addf %{{.+}}, %{{.+}} : bf16
// CHECK-LABEL: gpu.func @no_bf16(
// CHECK-SAME:    memref<4xf16>
// CHECK:         arith.addf %{{.+}}, %{{.+}} : f16
module attributes {gpu.container_module} {
  func.func @host_bf16(%x: bf16) -> bf16 {
    %y = arith.addf %x, %x : bf16
    return %y : bf16
  }
  gpu.module @no_bf16 {
    gpu.func @no_bf16(%buf: memref<4xf16>) kernel {
      %i = gpu.block_id x
      %x = memref.load %buf[%i] : memref<4xf16>
      %y = arith.addf %x, %x : f16
      memref.store %y, %buf[%i] : memref<4xf16>
      gpu.return
    }
  }
}

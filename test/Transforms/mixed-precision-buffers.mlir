// RUN: amp-opt %s --split-input-file --mixed-precision=placement=greedy --verify-each --allow-unregistered-dialect | FileCheck %s
// RUN: amp-opt %s --split-input-file --mixed-precision="precision=bf16 placement=greedy" --verify-each --allow-unregistered-dialect | FileCheck %s --check-prefix=BF16
// Idempotent: a second run changes nothing.
// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --mixed-precision -o %t.once.mlir
// RUN: amp-opt %t.once.mlir --split-input-file --allow-unregistered-dialect --mixed-precision -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --mixed-precision --verify-each | FileCheck %s --check-prefix=OPT

// Buffers (memrefs) are storage: a buffer's element type is its storage's,
// shared by all its views, loads and stores. amp retypes buffers it owns
// (allocations) as a whole; buffers it does not own (arguments of fixed
// signatures, globals, buffers that reach unknown ops) stay f32, and an op
// that computes in another type runs on a converted copy, filled before the
// op when it reads the buffer and copied back after it when it writes it.

// An MLP on buffers: the temporaries are allocated f16; the matmul reads
// f16 copies of its f32 argument buffers and accumulates in f32 (its
// accumulator is a temporary, copied to f32 and back).
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: (%[[X:.+]]: memref<8x64xf32>, %[[W:.+]]: memref<64x32xf32>, %[[OUT:.+]]: memref<8x32xf32>)
// CHECK: %[[H:.+]] = memref.alloc() : memref<8x32xf16>
// CHECK: linalg.fill ins(%{{.+}} : f16) outs(%[[H]] : memref<8x32xf16>)
// CHECK: %[[X16:.+]] = memref.alloc() : memref<8x64xf16>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : memref<8x64xf32>) outs(%[[X16]] : memref<8x64xf16>)
// CHECK: arith.truncf %{{.+}} : f32 to f16
// CHECK: %[[W16:.+]] = memref.alloc() : memref<64x32xf16>
// CHECK: linalg.generic {{.*}} ins(%[[W]] : memref<64x32xf32>) outs(%[[W16]] : memref<64x32xf16>)
// CHECK: %[[ACC:.+]] = memref.alloc() : memref<8x32xf32>
// CHECK: linalg.generic {{.*}} ins(%[[H]] : memref<8x32xf16>) outs(%[[ACC]] : memref<8x32xf32>)
// CHECK: linalg.matmul ins(%[[X16]], %[[W16]] : memref<8x64xf16>, memref<64x32xf16>) outs(%[[ACC]] : memref<8x32xf32>)
// CHECK-NEXT: memref.dealloc %[[X16]]
// CHECK-NEXT: memref.dealloc %[[W16]]
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[ACC]] : memref<8x32xf32>) outs(%[[H]] : memref<8x32xf16>)
// CHECK: memref.dealloc %[[ACC]]
// CHECK: %[[T:.+]] = memref.alloc() : memref<8x32xf16>
// CHECK: linalg.generic {{.*}} ins(%[[H]] : memref<8x32xf16>) outs(%[[T]] : memref<8x32xf16>)
// CHECK: arith.maximumf %{{.+}}, %{{.+}} : f16
// The last op writes the f32 result argument (an f32 result: under the
// greedy rule it stays f32) and reads an f32 copy of its low input.
// CHECK: %[[T32:.+]] = memref.alloc() : memref<8x32xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[T]] : memref<8x32xf16>) outs(%[[T32]] : memref<8x32xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[T32]] : memref<8x32xf32>) outs(%[[OUT]] : memref<8x32xf32>)
// CHECK: arith.addf %{{.+}}, %{{.+}} : f32
// CHECK: memref.dealloc %[[T32]]
// CHECK: memref.dealloc %[[H]] : memref<8x32xf16>
// CHECK: memref.dealloc %[[T]] : memref<8x32xf16>
// BF16-LABEL: func.func @mlp
// BF16: memref.alloc() : memref<8x32xbf16>
// BF16: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<8x64xbf16>, memref<64x32xbf16>) outs(%{{.+}} : memref<8x32xf32>)
#id = affine_map<(i, j) -> (i, j)>
func.func @mlp(%x: memref<8x64xf32>, %w: memref<64x32xf32>, %out: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %h = memref.alloc() : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%h : memref<8x32xf32>)
  linalg.matmul ins(%x, %w : memref<8x64xf32>, memref<64x32xf32>) outs(%h : memref<8x32xf32>)
  %t = memref.alloc() : memref<8x32xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : memref<8x32xf32>) outs(%t : memref<8x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<8x32xf32>) outs(%out : memref<8x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %v : f32
    linalg.yield %r : f32
  }
  memref.dealloc %h : memref<8x32xf32>
  memref.dealloc %t : memref<8x32xf32>
  return
}

// -----

// Views share their storage's type; loads give values of it and stores
// take values of it. The buffer a matmul produces is f16 storage (its f32
// accumulator is a copy); its views, loads and stores and the loop's scalar
// work follow it into f16.
// CHECK-LABEL: func.func @views_and_loops
// CHECK: %[[B:.+]] = memref.alloc() : memref<4x8xf16>
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<4x4xf16>, memref<4x8xf16>) outs(%{{.+}} : memref<4x8xf32>)
// CHECK: %[[V:.+]] = memref.subview %[[B]][0, 0] [4, 4] [1, 1] : memref<4x8xf16> to memref<4x4xf16, strided<[8, 1]>>
// CHECK: %[[C:.+]] = memref.collapse_shape %[[B]] {{\[}}[0, 1]] : memref<4x8xf16> into memref<32xf16>
// CHECK: scf.for
// CHECK: %[[L:.+]] = memref.load %[[V]][%{{.+}}, %{{.+}}] : memref<4x4xf16, strided<[8, 1]>>
// CHECK: %[[M:.+]] = arith.mulf %[[L]], %[[L]] : f16
// CHECK: memref.store %[[M]], %[[C]][%{{.+}}] : memref<32xf16>
// An f32 op reading the low buffer reads an f32 copy (and copies nothing
// back: it does not write it).
// CHECK: %[[F:.+]] = memref.alloc() : memref<4x8xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[B]] : memref<4x8xf16>) outs(%[[F]] : memref<4x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[F]] : memref<4x8xf32>) outs(%{{.+}} : memref<4x8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.exp %{{.+}} : f32
// CHECK-NOT: outs(%[[B]]
// CHECK: memref.dealloc %[[F]]
// BF16-LABEL: func.func @views_and_loops
// BF16: memref.load %{{.+}} : memref<4x4xbf16, strided<[8, 1]>>
// BF16: arith.mulf %{{.+}}, %{{.+}} : bf16
#id = affine_map<(i, j) -> (i, j)>
func.func @views_and_loops(%a: memref<4x4xf32>, %w: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %b = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%b : memref<4x8xf32>)
  linalg.matmul ins(%a, %w : memref<4x4xf32>, memref<4x8xf32>) outs(%b : memref<4x8xf32>)
  %v = memref.subview %b[0, 0] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1]>>
  %c = memref.collapse_shape %b [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %l = memref.load %v[%i, %i] : memref<4x4xf32, strided<[8, 1]>>
    %m = arith.mulf %l, %l : f32
    memref.store %m, %c[%i] : memref<32xf32>
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<4x8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%v2: f32, %o: f32):
    %r = math.exp %v2 : f32
    linalg.yield %r : f32
  }
  memref.dealloc %b : memref<4x8xf32>
  return
}

// -----

// The default (optimal) placement weighs copies: here every elementwise op
// on the result stays f32 (a low buffer would need its accumulator copied
// in and out, and the output copied), and only the matmul's inputs are
// copied to f16.
// OPT-LABEL: func.func @mlp
// OPT: %[[H:.+]] = memref.alloc() : memref<8x32xf32>
// OPT: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<8x64xf16>, memref<64x32xf16>) outs(%[[H]] : memref<8x32xf32>)
// OPT-NOT: xf16>) outs
// OPT: return
#id = affine_map<(i, j) -> (i, j)>
func.func @mlp(%x: memref<8x64xf32>, %w: memref<64x32xf32>, %out: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %h = memref.alloc() : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%h : memref<8x32xf32>)
  linalg.matmul ins(%x, %w : memref<8x64xf32>, memref<64x32xf32>) outs(%h : memref<8x32xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : memref<8x32xf32>) outs(%out : memref<8x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %h : memref<8x32xf32>
  return
}

// -----

// Buffers amp does not own keep f32: a global, a buffer an unknown op
// receives, a buffer viewed as unranked. Ops on them still run low, on
// copies.
// CHECK-LABEL: func.func @not_owned
// CHECK: memref.get_global @weights : memref<4x4xf32>
// CHECK: %[[U:.+]] = memref.alloc() : memref<4x4xf32>
// CHECK: "test.opaque"(%[[U]]) : (memref<4x4xf32>) -> ()
// CHECK: %[[R:.+]] = memref.alloc() : memref<4x4xf32>
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<4x4xf16>, memref<4x4xf16>) outs(%[[R]] : memref<4x4xf32>)
// CHECK: memref.cast %[[R]] : memref<4x4xf32> to memref<*xf32>
memref.global "private" constant @weights : memref<4x4xf32> = dense<0.5>
func.func @not_owned(%x: memref<4x4xf32>) -> memref<*xf32> {
  %g = memref.get_global @weights : memref<4x4xf32>
  %u = memref.alloc() : memref<4x4xf32>
  linalg.copy ins(%x : memref<4x4xf32>) outs(%u : memref<4x4xf32>)
  "test.opaque"(%u) : (memref<4x4xf32>) -> ()
  %r = memref.alloc() : memref<4x4xf32>
  linalg.matmul ins(%g, %u : memref<4x4xf32>, memref<4x4xf32>) outs(%r : memref<4x4xf32>)
  %c = memref.cast %r : memref<4x4xf32> to memref<*xf32>
  return %c : memref<*xf32>
}

// -----

// With keep-io-types off, a private function's buffer arguments change with
// their callers' buffers (see mixed-precision-interprocedural.mlir for
// tensors); here the default keeps the public signature f32 and the private
// one follows its caller's low buffer.
// CHECK-LABEL: func.func private @scale
// CHECK-SAME: (%{{.+}}: memref<16xf16>)
// CHECK: arith.mulf %{{.+}}, %{{.+}} : f16
// CHECK-LABEL: func.func @caller
// CHECK: %[[B:.+]] = memref.alloc() : memref<16xf16>
// CHECK: call @scale(%[[B]]) : (memref<16xf16>) -> ()
#v = affine_map<(i) -> (i)>
func.func private @scale(%b: memref<16xf32>) {
  %two = arith.constant 2.0 : f32
  linalg.generic {indexing_maps = [#v], iterator_types = ["parallel"]} outs(%b : memref<16xf32>) {
  ^bb0(%o: f32):
    %m = arith.mulf %o, %two : f32
    linalg.yield %m : f32
  }
  return
}
func.func @caller(%w: memref<16x16xf32>, %x: memref<16xf32>, %y: memref<16xf32>) {
  %b = memref.alloc() : memref<16xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%b : memref<16xf32>)
  linalg.matvec ins(%w, %x : memref<16x16xf32>, memref<16xf32>) outs(%b : memref<16xf32>)
  call @scale(%b) : (memref<16xf32>) -> ()
  linalg.matvec ins(%w, %b : memref<16x16xf32>, memref<16xf32>) outs(%y : memref<16xf32>)
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

// A buffer of vectors is not retyped: the vectors loaded from it and
// stored to it stay f32, and the ops on them cast where they run low.
// CHECK-LABEL: func.func @vector_elements
// CHECK: %[[B:.+]] = memref.alloc() : memref<4xvector<4xf32>>
// CHECK: %[[L:.+]] = memref.load %[[B]][%{{.+}}] : memref<4xvector<4xf32>>
// CHECK: memref.store %{{.+}}, %[[B]][%{{.+}}] : memref<4xvector<4xf32>>
func.func @vector_elements(%v: vector<4xf32>, %w: tensor<4x4xf32>, %x: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> (vector<4xf32>, tensor<4x4xf32>) {
  %i = arith.constant 0 : index
  %b = memref.alloc() : memref<4xvector<4xf32>>
  memref.store %v, %b[%i] : memref<4xvector<4xf32>>
  %l = memref.load %b[%i] : memref<4xvector<4xf32>>
  %m = arith.mulf %l, %l : vector<4xf32>
  memref.store %m, %b[%i] : memref<4xvector<4xf32>>
  %r = linalg.matmul ins(%w, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m, %r : vector<4xf32>, tensor<4x4xf32>
}

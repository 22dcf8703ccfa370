// amp-convert-vector-to-llvm is upstream's convert-vector-to-llvm run on
// each function of the module (in parallel on the context's threads), or
// on the whole module where a pattern would add to it: a vector.print
// declares printf's helpers in the module. Either way the output is the
// upstream pass's on the module.
// RUN: amp-opt %s -split-input-file --amp-convert-vector-to-llvm | FileCheck %s
// RUN: amp-opt %s -split-input-file --amp-convert-vector-to-llvm -mlir-disable-threading -mlir-timing -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NESTED
// RUN: amp-opt %s -split-input-file --amp-convert-vector-to-llvm > %t.amp
// RUN: amp-opt %s -split-input-file --convert-vector-to-llvm > %t.upstream
// RUN: diff %t.amp %t.upstream

// CHECK-LABEL: func.func @first
// CHECK:         llvm.extractelement
// CHECK-NOT:     vector.extract
// CHECK-LABEL: func.func @second
// CHECK:         llvm.shufflevector
// CHECK-NOT:     vector.shuffle
// The pass manager runs the conversion on each func.func of the module.
// NESTED:      ConvertVectorToLLVMPerFunction
// NESTED-NEXT: 'builtin.module' Pipeline
// NESTED-NEXT:   'func.func' Pipeline
// NESTED-NEXT:     ConvertVectorToLLVMPass
func.func @first(%v: vector<4xf32>) -> f32 {
  %e = vector.extract %v[1] : f32 from vector<4xf32>
  return %e : f32
}
func.func @second(%v: vector<4xf32>) -> vector<4xf32> {
  %s = vector.shuffle %v, %v [3, 2, 1, 0] : vector<4xf32>, vector<4xf32>
  return %s : vector<4xf32>
}

// -----

// A vector.print: the module at once, and printf's helpers in it.
// CHECK-DAG:   llvm.func @printF32(f32)
// CHECK-DAG:   llvm.func @printNewline()
// CHECK-LABEL: func.func @prints
// CHECK:         llvm.call @printF32
// NESTED:      ConvertVectorToLLVMPerFunction
// NESTED-NEXT: 'builtin.module' Pipeline
// NESTED-NEXT:   ConvertVectorToLLVMPass
func.func @prints(%x: f32) {
  vector.print %x : f32
  return
}

// -----

// Declarations (memref's lowering adds llvm.func @malloc) hold nothing: the
// functions are still converted one by one. A function body outside
// func.func is not: the module at once.
// CHECK-LABEL: llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-LABEL: func.func @after_memref_lowering
// CHECK:         llvm.extractelement
// NESTED:      ConvertVectorToLLVMPerFunction
// NESTED-NEXT: 'builtin.module' Pipeline
// NESTED-NEXT:   'func.func' Pipeline
// NESTED-NEXT:     ConvertVectorToLLVMPass
llvm.func @malloc(i64) -> !llvm.ptr
func.func @after_memref_lowering(%v: vector<4xf32>) -> f32 {
  %e = vector.extract %v[2] : f32 from vector<4xf32>
  return %e : f32
}

// -----

// CHECK-LABEL: llvm.func @body_elsewhere
// CHECK:         llvm.extractelement
// NESTED:      ConvertVectorToLLVMPerFunction
// NESTED-NEXT: 'builtin.module' Pipeline
// NESTED-NEXT:   ConvertVectorToLLVMPass
llvm.func @body_elsewhere(%v: vector<4xf32>) -> f32 {
  %e = vector.extract %v[3] : f32 from vector<4xf32>
  llvm.return %e : f32
}

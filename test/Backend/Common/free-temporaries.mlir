// amp-free-temporaries frees each buffer a function allocates once it is
// dead, except those it returns (their caller owns them); a buffer that
// control flow may or may not yield is copied where needed so that the
// result is always owned, and freed under a runtime check. A function that
// frees memory itself is not given deallocations.
// RUN: amp-opt %s -amp-free-temporaries | FileCheck %s

// CHECK-LABEL: func.func @temporaries
// CHECK:         %[[T:.+]] = memref.alloc() : memref<16xf32>
// CHECK:         %[[R:.+]] = memref.alloc() : memref<16xf32>
// CHECK:         linalg.add {{.+}} outs(%[[T]] : memref<16xf32>)
// CHECK:         linalg.mul ins(%[[T]], {{.+}} outs(%[[R]] : memref<16xf32>)
// CHECK-NEXT:    memref.dealloc %[[T]] : memref<16xf32>
// CHECK-NOT:     memref.dealloc
// CHECK:         return %[[R]]
func.func @temporaries(%a: memref<16xf32>) -> memref<16xf32> {
  %t = memref.alloc() : memref<16xf32>
  %r = memref.alloc() : memref<16xf32>
  linalg.add ins(%a, %a : memref<16xf32>, memref<16xf32>) outs(%t : memref<16xf32>)
  linalg.mul ins(%t, %a : memref<16xf32>, memref<16xf32>) outs(%r : memref<16xf32>)
  return %r : memref<16xf32>
}

// CHECK-LABEL: func.func @frees_itself
// CHECK:         %[[T:.+]] = memref.alloc() : memref<16xf32>
// CHECK:         memref.dealloc %[[T]] : memref<16xf32>
// CHECK-NOT:     memref.dealloc
// CHECK:         return
func.func @frees_itself(%a: memref<16xf32>) {
  %t = memref.alloc() : memref<16xf32>
  linalg.add ins(%a, %a : memref<16xf32>, memref<16xf32>) outs(%t : memref<16xf32>)
  memref.dealloc %t : memref<16xf32>
  return
}

// The else branch would return the argument, which the caller owns
// already: it returns a copy. No bufferization op is left.
// CHECK-LABEL: func.func @branch
// CHECK:         scf.if
// CHECK:         } else {
// CHECK:           %[[COPY:.+]] = memref.alloc() : memref<16xf32>
// CHECK:           memref.copy %{{.+}}, %[[COPY]]
// CHECK:         scf.if
// CHECK-NEXT:      memref.dealloc
// CHECK-NOT:     bufferization.
func.func @branch(%c: i1, %a: memref<16xf32>) -> memref<16xf32> {
  %r = scf.if %c -> memref<16xf32> {
    %t = memref.alloc() : memref<16xf32>
    linalg.add ins(%a, %a : memref<16xf32>, memref<16xf32>) outs(%t : memref<16xf32>)
    scf.yield %t : memref<16xf32>
  } else {
    scf.yield %a : memref<16xf32>
  }
  return %r : memref<16xf32>
}

// CHECK-LABEL: func.func private @external(memref<16xf32>)
func.func private @external(memref<16xf32>)

// REQUIRES: cc
// amp-compile's bad input: each gets one line and a non-zero exit, and no
// library is written. Then a good one, and the compile cache.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not amp-compile %s -o %t/lib.so 2>&1 | FileCheck %s --check-prefix=WHICH
// WHICH: amp-compile: '{{.*}}amp-compile.mlir' has 3 public functions; give the one to compile with --entry=NAME
// RUN: not amp-compile %s --entry=dynamic -o %t/lib.so 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: amp-compile: @dynamic argument 0 (tensor<?x4xf32>) has a dynamic shape: a library's function takes and returns tensors of static shapes
// RUN: not amp-compile %s --entry=scalar -o %t/lib.so 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: amp-compile: @scalar result 0 (f32) is a scalar: a library's function takes and returns tensors only
// RUN: not amp-compile %s --entry=missing -o %t/lib.so 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: amp-compile: no function @missing in the module
// RUN: not amp-compile %s --entry=add -o %t/lib.a 2>&1 | FileCheck %s --check-prefix=SUFFIX
// SUFFIX: amp-compile: -o names the shared library, a .so file; got '{{.*}}lib.a'
// RUN: not amp-compile %s --entry=add -o %t/lib.so --function=1st 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: amp-compile: --function must be a C identifier, got '1st'
// RUN: not amp-compile %s --entry=add -o %t/lib.so --threads=0 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: amp-compile: --threads must be in [1, 1024], got 0
// RUN: not amp-compile %s --entry=add -o %t/lib.so -O7 2>&1 | FileCheck %s --check-prefix=LEVEL
// LEVEL: amp-compile: -O must be 0, 1, 2 or 3, got 7
// RUN: not amp-compile %s --entry=add -o %t/lib.so --cc=no-such-compiler 2>&1 | FileCheck %s --check-prefix=CC
// CC: amp-compile: cannot find the C compiler 'no-such-compiler' that links the library (set CC or --cc)
// RUN: not amp-compile %S/Inputs/bad-syntax.mlir -o %t/lib.so 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: amp-compile: cannot parse
// RUN: not ls %t/lib.so

// A good one, with its header.
// RUN: amp-compile %s --entry=add -o %t/libadd.so --header %t/add.h --function=vector_add
// RUN: FileCheck %s --check-prefix=HEADER < %t/add.h
// HEADER:      #ifndef AMP_VECTOR_ADD_H
// HEADER:      int vector_add(
// HEADER-NEXT:     const float *arg0 /* 4 f32 */,
// HEADER-NEXT:     const uint16_t *arg1 /* 4 f16 */,
// HEADER-NEXT:     float *result0 /* 4 f32 */);
// RUN: nm -D --defined-only %t/libadd.so | FileCheck %s --check-prefix=EXPORTS
// EXPORTS-NOT: __amp
// EXPORTS:     T vector_add
// EXPORTS-NOT: __amp
//
// What it compiled goes to the compile cache amp-run shares: compiled
// again, the program is only linked, into the same library. Another C name
// is another program; --no-cache neither reads nor writes; a damaged entry
// is a warning, removed and compiled again.
// RUN: rm -rf %t/c && env AMP_CACHE_DIR=%t/c amp-compile %s --entry=add -o %t/cold.so 2>&1 | not grep -i warning
// RUN: env AMP_CACHE_DIR=%t/c amp-compile %s --entry=add -o %t/warm.so 2>&1 | not grep -i warning
// RUN: %python %S/Inputs/cache_entries.py count %t/c | FileCheck %s --check-prefix=ONE
// ONE: {{^1$}}
// RUN: strip -o %t/cold.stripped %t/cold.so && strip -o %t/warm.stripped %t/warm.so && cmp %t/cold.stripped %t/warm.stripped
// RUN: env AMP_CACHE_DIR=%t/c amp-compile %s --entry=add -o %t/other.so --function=other --no-cache
// RUN: %python %S/Inputs/cache_entries.py count %t/c | FileCheck %s --check-prefix=ONE
// RUN: %python %S/Inputs/cache_entries.py flip %t/c
// RUN: env AMP_CACHE_DIR=%t/c amp-compile %s --entry=add -o %t/repaired.so 2>&1 | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: amp-compile: warning: the compile cache entry '{{.*}}.amp' is corrupt; it is removed and the program compiled again
// RUN: strip -o %t/repaired.stripped %t/repaired.so && cmp %t/cold.stripped %t/repaired.stripped
// RUN: env AMP_CACHE_DIR=%t/c amp-compile %s --entry=add -o %t/again.so 2>&1 | not grep -i warning

func.func @add(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%a, %b : tensor<4xf32>, tensor<4xf16>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f16, %o: f32):
    %w = arith.extf %y : f16 to f32
    %s = arith.addf %x, %w : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @dynamic(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %a : tensor<?x4xf32>
}

func.func @scalar(%a: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = tensor.extract %a[%c0] : tensor<4xf32>
  return %v : f32
}

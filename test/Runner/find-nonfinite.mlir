// amp-run --find-nonfinite runs a (converted) program with a probe after
// every op of its functions and control flow, and reports the first value,
// in the order the program computed them, that held an infinity or a NaN:
// the op, its location, and the ranges its float operands had until then.
// With --f32=ORIGINAL it also runs the f32 program and says what the op at
// the same location computed there.
//
// RUN: rm -rf %t && mkdir -p %t
// Rows of x sum to between -12.2 and 12.2; with w = 1 the matmul gives
// those sums, and exp of the last row (12.2) overflows f16 (exp(11.1) is
// f16's largest finite value, 65504), in all 16 columns.
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.linspace(-1, 1, 64, dtype=np.float32).reshape(4, 16)); np.save('%t/w.npy', np.ones((16, 16), np.float32)); x = np.zeros((4, 16), np.float32); x[1, 3] = np.inf; np.save('%t/x_inf.npy', x)"
//
// The f16 conversion keeps the f32 program's locations (--mlir-print-debuginfo),
// so the report and the f32 run meet at the same op.
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{allow=math.exp})' --mlir-print-debuginfo -o %t/f16.mlir
// RUN: amp-run %t/f16.mlir --entry=layer --input=%t/x.npy,%t/w.npy --find-nonfinite --f32=%s --nonfinite-report=%t/report.json | FileCheck %s --check-prefix=LAYER
// (the report: below, next to the program)
//
// The same as JSON, for scripts:
// RUN: %python -c "import json; r = json.load(open('%t/report.json')); f = r['first']; print(r['found'], f['kind'], f['name'], f['nonfinite'], f['elements'], [o['source'] for o in f['operands']], r['f32']['match'], r['f32']['finite'], round(r['f32']['max_abs']))" | FileCheck %s --check-prefix=JSON
// JSON: True op math.exp 16 64 ['op'] location True 19{{[0-9][0-9][0-9][0-9]}}
//
// The f32 program on the same inputs, and the f16 one on inputs in
// [-1, 1), have no infinity anywhere:
// RUN: amp-run %s --entry=layer --input=%t/x.npy,%t/w.npy --find-nonfinite | FileCheck %s --check-prefix=NONE
// RUN: amp-run %t/f16.mlir --entry=layer --seed=1 --find-nonfinite | FileCheck %s --check-prefix=NONE
// NONE: no non-finite values ({{[0-9]+}} values observed over 1 call)
//
// Without the locations, the f32 op is the one of the same name at the same
// rank (when both programs have as many of that name), and the report says
// so; when there is none, it says how to keep the locations.
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{allow=math.exp})' -o %t/f16-nodebug.mlir
// RUN: amp-run %t/f16-nodebug.mlir --entry=layer --input=%t/x.npy,%t/w.npy --find-nonfinite --f32=%s | FileCheck %s --check-prefix=POSITION
// POSITION: first non-finite: math.exp at f16-nodebug.mlir:{{[0-9]+}}:{{[0-9]+}} (op {{[0-9]+}}, result 0: 16 of 64 elements inf/nan)
// POSITION: f32: finite there, max |x| = 19{{[0-9][0-9][0-9][0-9]}} (matched by position: the 1st math.exp; the locations differ)
// RUN: amp-run %t/f16-nodebug.mlir --entry=layer --input=%t/x.npy,%t/w.npy --find-nonfinite --f32=%S/Inputs/layer-tanh.mlir | FileCheck %s --check-prefix=NO-MATCH
// NO-MATCH: f32: no math.exp at f16-nodebug.mlir:{{[0-9]+}}:{{[0-9]+}} in '{{.*}}layer-tanh.mlir' (print converted programs with --mlir-print-debuginfo to keep the f32 program's locations)
//
// An input that holds inf is the first non-finite value:
// RUN: amp-run %t/f16.mlir --entry=layer --input=%t/x_inf.npy,%t/w.npy --find-nonfinite | FileCheck %s --check-prefix=INPUT
// INPUT: first non-finite: argument 0 of @layer (1 of 64 elements inf/nan)

// The first infinity is exp's, of the f16 matmul result (rounded from the
// f32 accumulator by an arith.truncf at the matmul's location); in f32,
// exp(12.2) = 1.98e5 is finite.
// LAYER:      result 0: 4x16xf32
// LAYER-NEXT: first non-finite: math.exp at find-nonfinite.mlir:[[@LINE+7]]:8 (op {{[0-9]+}}, result 0: 16 of 64 elements inf/nan)
// LAYER-NEXT:   operand 0: arith.truncf at find-nonfinite.mlir:[[@LINE+5]]:8 (op {{[0-9]+}}, result 0): min -12.1{{[0-9]*}} max 12.1{{[0-9]*}}, 0 of 64 inf/nan
// LAYER-NEXT:   f32: finite there, max |x| = 19{{[0-9][0-9][0-9][0-9]}}
// LAYER-NOT:  operand
func.func @layer(%x: tensor<4x16xf32>, %w: tensor<16x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant dense<0.0> : tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%zero : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e = math.exp %m : tensor<4x16xf32>
  %y = arith.mulf %e, %m : tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// "First" is in the order the program computed its values, not the order
// of the text: x + 1 is squared until the square overflows f16 (x + 1 is
// 3, 10, 101, then 10200, f16's nearest to 10201), and only the next
// iteration's addf, earlier in the text, sees inf. The report names the
// mulf, with the ranges its operands had until that moment (4 iterations).
// RUN: %python -c "import numpy as np; np.save('%t/two.npy', np.full(4, 2, np.float16))"
// RUN: amp-run %s --entry=squares --input=%t/two.npy --find-nonfinite | FileCheck %s --check-prefix=LOOP
// LOOP:      first non-finite: arith.mulf at find-nonfinite.mlir:[[@LINE+10]]:10 (op {{[0-9]+}}, result 0: 4 of 4 elements inf/nan)
// LOOP-NEXT:   operand 0: arith.addf at find-nonfinite.mlir:[[@LINE+8]]:10 (op {{[0-9]+}}, result 0): min 3 max 10200, 0 of 16 inf/nan
// LOOP-NEXT:   operand 1: arith.addf at find-nonfinite.mlir:[[@LINE+7]]:10 (op {{[0-9]+}}, result 0): min 3 max 10200, 0 of 16 inf/nan
func.func @squares(%a: tensor<4xf16>) -> tensor<4xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %one = arith.constant dense<1.0> : tensor<4xf16>
  %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%x = %a) -> tensor<4xf16> {
    %p = arith.addf %x, %one : tensor<4xf16>
    %q = arith.mulf %p, %p : tensor<4xf16>
    scf.yield %q : tensor<4xf16>
  }
  return %r : tensor<4xf16>
}

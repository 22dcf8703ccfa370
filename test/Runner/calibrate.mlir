// amp-run --calibrate runs the f32 program with a probe after every op of
// its functions and control flow, and writes what each f32 result held
// (the file mixed-precision{ranges=...} reads): op index in a pre-order
// walk, name, location, element count over all calls and iterations,
// min, max, non-finite count. Results are printed as without it.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-run %s --entry=calibrate --seed=1 --save-inputs=%t/in1 --calibrate=%t/one.json | FileCheck %s --check-prefix=OUT
// OUT:         result 0: 64xf32
// OUT-NEXT:    result 1: f32 [-{{[0-9.]+}}]
// OUT-NEXT:    result 2: 8xf32
// OUT-NEXT:    calibrate: 11 f32 values observed over 1 call, written to '{{.*}}one.json'
// RUN: %python %S/Inputs/ranges_table.py %t/one.json | FileCheck %s --check-prefix=ONE
// RUN: %python %S/Inputs/calibrate_oracle.py %t/one.json %t/in1 | FileCheck %s --check-prefix=ORACLE
//
// Several calls: one per --input-dir folder (arg<k>.npy, as --save-inputs
// writes them); the counts add up, min and max are over all of them.
// RUN: amp-run %s --entry=calibrate --seed=2 --save-inputs=%t/in2 > /dev/null
// RUN: amp-run %s --entry=calibrate --input-dir=%t/in1,%t/in2 --calibrate=%t/two.json | FileCheck %s --check-prefix=OUT2
// OUT2:      inputs '{{.*}}in1':
// OUT2-NEXT: result 0: 64xf32
// OUT2:      inputs '{{.*}}in2':
// OUT2-NEXT: result 0: 64xf32
// OUT2:      calibrate: 11 f32 values observed over 2 calls
// RUN: %python %S/Inputs/ranges_table.py %t/two.json | FileCheck %s --check-prefix=TWO
// RUN: %python %S/Inputs/calibrate_oracle.py %t/two.json %t/in1 %t/in2 | FileCheck %s --check-prefix=ORACLE
//
// ORACLE:      exp min: ok
// ORACLE-NEXT: exp max: ok
// ORACLE-NEXT: sum min: ok
// ORACLE-NEXT: sum max: ok
// ORACLE-NEXT: loop body min: ok
// ORACLE-NEXT: loop body max: ok
// ORACLE-NEXT: strided min: ok
// ORACLE-NEXT: strided max: ok
//
// The pass takes the file made for this program:
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{ranges=%t/two.json})' -o /dev/null
//
// ONE: version=1 calls=1
// TWO: version=1 calls=2

func.func @calibrate(%a: tensor<64xf32>) -> (tensor<64xf32>, f32, tensor<8xf32>) {
  // exp of inputs in [-1, 1) lies in [1/e, e).
  // ONE-NEXT: op=1 result=0 math.exp calibrate.mlir:[[@LINE+2]]:8 count=64 min=0.{{3[7-9]|[4-9]}}{{[0-9]*}} max={{1\.[0-9]+|2\.[0-6][0-9]*|2\.7[01][0-9]*}} nonfinite=0
  // TWO:      op=1 result=0 math.exp calibrate.mlir:[[@LINE+1]]:8 count=128 min=0.{{3[7-9]|[4-9]}}{{[0-9]*}} max={{1\.[0-9]+|2\.[0-6][0-9]*|2\.7[01][0-9]*}} nonfinite=0
  %e = math.exp %a : tensor<64xf32>
  // No entry for tensor.empty (op 2): its contents are undefined.
  %init = tensor.empty() : tensor<f32>
  // ONE-NEXT: op=3 result=0 arith.constant calibrate.mlir:[[@LINE+1]]:11 count=1 min=0 max=0 nonfinite=0
  %zero = arith.constant 0.0 : f32
  // ONE-NEXT: op=4 result=0 linalg.fill calibrate.mlir:[[@LINE+1]]:10 count=1 min=0 max=0 nonfinite=0
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<f32>) -> tensor<f32>
  // The sum of 64 values in [1/e, e); nothing inside the linalg body
  // (op 7 and 8) is a value of the program.
  // ONE-NEXT: op=6 result=0 linalg.reduce calibrate.mlir:[[@LINE+2]]:10 count=1 min=[[SUM:[0-9.]+]] max=[[SUM]] nonfinite=0
  // TWO:      op=6 result=0 linalg.reduce calibrate.mlir:[[@LINE+1]]:10 count=2 min={{[0-9.]+}} max={{[0-9.]+}} nonfinite=0
  %sum = linalg.reduce ins(%e : tensor<64xf32>) outs(%acc : tensor<f32>) dimensions = [0]
    (%in: f32, %out: f32) {
      %r = arith.addf %in, %out : f32
      linalg.yield %r : f32
    }
  // A scalar.
  // ONE-NEXT: op=9 result=0 tensor.extract calibrate.mlir:[[@LINE+1]]:8 count=1 min=[[SUM]] max=[[SUM]] nonfinite=0
  %s = tensor.extract %sum[] : tensor<f32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // The loop's result once per call; its body's value once per iteration.
  // ONE-NEXT: op=13 result=0 scf.for calibrate.mlir:[[@LINE+4]]:11 count=64 min={{[0-9.]+}} max={{[0-9.]+}} nonfinite=0
  // ONE-NEXT: op=14 result=0 arith.addf calibrate.mlir:[[@LINE+4]]:10 count=192 min=0.{{[0-9]+}} max={{[0-9.]+}} nonfinite=0
  // TWO:      op=13 result=0 scf.for calibrate.mlir:[[@LINE+2]]:11 count=128
  // TWO:      op=14 result=0 arith.addf calibrate.mlir:[[@LINE+2]]:10 count=384
  %loop = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %e) -> tensor<64xf32> {
    %y = arith.addf %x, %x : tensor<64xf32>
    scf.yield %y : tensor<64xf32>
  }
  // ONE-NEXT: op=16 result=0 arith.constant calibrate.mlir:[[@LINE+1]]:11 count=1 min=1e+30 max=1e+30 nonfinite=0
  %huge = arith.constant 1.0e30 : f32
  %never = arith.cmpf ogt, %s, %huge : f32
  // A branch never taken has no entry (op 19): no value was observed.
  // ONE-NEXT: op=18 result=0 scf.if calibrate.mlir:[[@LINE+1]]:13 count=1 min=-[[SUM]] max=-[[SUM]] nonfinite=0
  %picked = scf.if %never -> f32 {
    %t = arith.mulf %s, %s : f32
    scf.yield %t : f32
  } else {
    // ONE-NEXT: op=21 result=0 arith.negf calibrate.mlir:[[@LINE+1]]:10 count=1 min=-[[SUM]] max=-[[SUM]] nonfinite=0
    %u = arith.negf %s : f32
    scf.yield %u : f32
  }
  // A strided view of exp (every 4th element from the 2nd): the probe
  // reads the 8 elements through its strides.
  // ONE-NEXT: op=23 result=0 tensor.extract_slice calibrate.mlir:[[@LINE+1]]:14 count=8 min={{[0-9.]+}} max={{[0-9.]+}} nonfinite=0
  %strided = tensor.extract_slice %e[1] [8] [4] : tensor<64xf32> to tensor<8xf32>
  // ONE-NOT: op=
  return %loop, %picked, %strided : tensor<64xf32>, f32, tensor<8xf32>
}

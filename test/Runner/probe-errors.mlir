// Misuses of amp-run's probes (--calibrate, --find-nonfinite, --f32,
// --input-dir) end with a message and exit status 1, before anything runs
// where the command line alone says so.
//
// RUN: rm -rf %t && mkdir -p %t/in %t/only0
// RUN: %python -c "import numpy as np; [np.save('%t/in/arg%%d.npy' %% i, np.ones(4, np.float32)) for i in (0, 1)]; np.save('%t/only0/arg0.npy', np.ones(4, np.float32))"
//
// Probes run on the CPU only (checked before the backend's runtime loads).
// RUN: not amp-run %s --entry=add --backend=vulkan --calibrate=%t/r.json 2>&1 | FileCheck %s --check-prefix=BACKEND
// RUN: not amp-run %s --entry=add --backend=cuda --find-nonfinite 2>&1 | FileCheck %s --check-prefix=BACKEND
// BACKEND: amp-run: --calibrate and --find-nonfinite run on the CPU backend only, not --backend={{vulkan|cuda}}
// RUN: not amp-run %s --entry=add --calibrate=%t/r.json --repeat=3 2>&1 | FileCheck %s --check-prefix=REPEAT
// REPEAT: amp-run: --repeat does not go with --calibrate or --find-nonfinite (it would time the probes)
// RUN: not amp-run %s --entry=add --f32=%s 2>&1 | FileCheck %s --check-prefix=F32-ALONE
// RUN: not amp-run %s --entry=add --nonfinite-report=%t/n.json 2>&1 | FileCheck %s --check-prefix=F32-ALONE
// F32-ALONE: amp-run: --f32 and --nonfinite-report go with --find-nonfinite
//
// Inputs: --input or --input-dir; several folders are several calls, which
// --output, --compare and --save-inputs cannot take; a folder lacking a file.
// RUN: not amp-run %s --entry=add --input=%t/in/arg0.npy,%t/in/arg1.npy --input-dir=%t/in 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: amp-run: give the inputs with --input or --input-dir, not both
// RUN: not amp-run %s --entry=add --input-dir=%t/in,%t/in --output=%t/o.npy 2>&1 | FileCheck %s --check-prefix=SEVERAL
// SEVERAL: amp-run: --output, --compare, --save-inputs and --repeat take one set of inputs, got 2 --input-dir folders
// RUN: not amp-run %s --entry=add --input-dir=%t/only0 --calibrate=%t/r.json 2>&1 | FileCheck %s --check-prefix=LACKING
// LACKING: amp-run: cannot read '{{.*}}only0{{/|\\}}arg1.npy': No such file or directory
//
// The ranges file cannot be written (after the run: the results come first).
// RUN: not amp-run %s --entry=add --seed=1 --calibrate=%t/no-such-dir/r.json 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: result 0: 4xf32
// UNWRITABLE: amp-run: cannot write '{{.*}}no-such-dir{{/|\\}}r.json': No such file or directory
// RUN: not amp-run %s --entry=add --seed=1 --find-nonfinite --nonfinite-report=%t/no-such-dir/n.json 2>&1 | FileCheck %s --check-prefix=UNWRITABLE-REPORT
// UNWRITABLE-REPORT: amp-run: cannot write '{{.*}}no-such-dir{{/|\\}}n.json': No such file or directory
//
// A program that has a function of a probe's name.
// RUN: not amp-run %S/Inputs/probe-name-clash.mlir --entry=clash --seed=1 --find-nonfinite 2>&1 | FileCheck %s --check-prefix=CLASH
// CLASH: probe-name-clash.mlir:6:1: error: the program defines 'ampProbeF32', a name amp-run's probes need for themselves
// CLASH: amp-run: cannot insert probes into '{{.*}}probe-name-clash.mlir'
//
// --f32: a file that is not there, an f32 program of another signature
// (only read when something non-finite was found: here exp(100) in f32).
// RUN: not amp-run %s --entry=overflow --seed=1 --find-nonfinite --f32=%t/missing.mlir 2>&1 | FileCheck %s --check-prefix=F32-MISSING
// F32-MISSING: amp-run: --f32: cannot open '{{.*}}missing.mlir': No such file or directory
// RUN: not amp-run %s --entry=overflow --seed=1 --find-nonfinite --f32=%S/Inputs/layer-tanh.mlir 2>&1 | FileCheck %s --check-prefix=F32-ENTRY
// F32-ENTRY: amp-run: --f32: no function @overflow in the module; functions: @layer

func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @overflow(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<100.0> : tensor<4xf32>
  %0 = arith.addf %a, %c : tensor<4xf32>
  %1 = math.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

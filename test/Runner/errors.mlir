// Every way amp-run can be misused ends with a message saying what is
// wrong and a non-zero exit status, never a crash.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/f32_2x3.npy', np.ones((2, 3), '<f4')); np.save('%t/f32_3x2.npy', np.ones((3, 2), '<f4')); np.save('%t/f32_6.npy', np.ones(6, '<f4')); np.save('%t/f16_2x3.npy', np.ones((2, 3), '<f2')); np.save('%t/f16_3x2.npy', np.ones((3, 2), '<f2')); np.save('%t/i32_2x3.npy', np.ones((2, 3), '<i4')); np.save('%t/c64.npy', np.ones((2, 3), '<c8')); np.save('%t/big.npy', np.ones((2, 3), '>f4')); np.save('%t/fortran.npy', np.asfortranarray(np.ones((2, 3), '<f4')))"
// RUN: echo "not numpy" > %t/text.npy
//
// The command line.
// RUN: not amp-run 2>&1 | FileCheck %s --check-prefix=NO-FILE
// NO-FILE: amp-run: no input file (usage: amp-run FILE.mlir --entry=NAME ...)
// RUN: not amp-run %s 2>&1 | FileCheck %s --check-prefix=NO-ENTRY
// NO-ENTRY: amp-run: give the function to run with --entry=NAME
// RUN: not amp-run %s --entry=add --backend=tpu 2>&1 | FileCheck %s --check-prefix=BACKEND
// BACKEND: amp-run: unknown backend 'tpu'; expected cpu, vulkan, cuda or spirv (sm_<N> is cuda for that chip)
// RUN: not amp-run %s --entry=add --backend=spirv 2>&1 | FileCheck %s --check-prefix=SPIRV
// SPIRV: amp-run: the spirv backend lowers programs but cannot run them; amp-run runs cpu, vulkan or cuda
// RUN: not amp-run %s --entry=add --backend=sm_90 --chip=sm_80 2>&1 | FileCheck %s --check-prefix=TWO-CHIPS
// TWO-CHIPS: amp-run: --backend=sm_90 and --chip=sm_80 name two chips
// The pipeline's options: checked by its parser, the message Python and
// the C API give.
// RUN: not amp-run %s --entry=add --pipeline-options="treads=2" 2>&1 | FileCheck %s --check-prefix=PIPELINE-OPTION
// PIPELINE-OPTION: amp-run: amp-lower-to-llvm: no such option treads
// A value of the wrong type: the same one line, nothing else.
// RUN: not amp-run %s --entry=add --pipeline-options="threads=x" 2>&1 | FileCheck %s --check-prefix=OPTION-TYPE
// OPTION-TYPE-NOT: {{.}}
// OPTION-TYPE: {{^}}amp-run: amp-lower-to-llvm: option threads: expected an integer, got 'x'
// OPTION-TYPE-NOT: {{.}}
// RUN: not amp-run %s --entry=add --pipeline-options="bf16-dot=maybe" 2>&1 | FileCheck %s --check-prefix=OPTION-BOOL
// OPTION-BOOL: amp-run: amp-lower-to-llvm: option bf16-dot: expected true or false, got 'maybe'
// RUN: not amp-run %s --entry=add --pipeline-options="threads" 2>&1 | FileCheck %s --check-prefix=OPTION-BARE
// OPTION-BARE-NOT: {{.}}
// OPTION-BARE: {{^}}amp-run: amp-lower-to-llvm: option threads: expected an integer, got ''
// OPTION-BARE-NOT: {{.}}
// RUN: not amp-run %s --entry=add --tf32 2>&1 | FileCheck %s --check-prefix=TF32-CPU
// TF32-CPU: amp-run: --tf32 needs --backend=cuda (or vulkan with --vulkan-emulate-tensor-cores)
// RUN: not amp-run %s --entry=add --backend=cuda --tf32 --no-tensor-cores 2>&1 | FileCheck %s --check-prefix=TF32-NO-TC
// TF32-NO-TC: amp-run: --tf32 computes on tensor cores; --no-tensor-cores contradicts it
// RUN: not amp-run %s --entry=add --no-tensor-cores 2>&1 | FileCheck %s --check-prefix=NO-TC-CPU
// NO-TC-CPU: amp-run: --no-tensor-cores is for --backend=cuda
// RUN: not amp-run %s --entry=add --vulkan-emulate-tensor-cores 2>&1 | FileCheck %s --check-prefix=EMULATE-CPU
// EMULATE-CPU: amp-run: --vulkan-emulate-tensor-cores is for --backend=vulkan
//
// The file.
// RUN: not amp-run %t/missing.mlir --entry=add 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: amp-run: cannot open '{{.*}}missing.mlir': No such file or directory
// RUN: not amp-run %S/Inputs/bad-syntax.mlir --entry=f 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: bad-syntax.mlir:3:12: error: expected ':'
// PARSE: amp-run: cannot parse '{{.*}}bad-syntax.mlir'
//
// The entry function.
// RUN: not amp-run %s --entry=nope 2>&1 | FileCheck %s --check-prefix=NO-FUNCTION
// NO-FUNCTION: amp-run: no function @nope in the module; functions: @add, @dyn, @complex_arg, @i8_result
// RUN: not amp-run %s --entry=decl 2>&1 | FileCheck %s --check-prefix=DECL
// DECL: amp-run: @decl is a declaration without a body
// RUN: not amp-run %s --entry=complex_arg 2>&1 | FileCheck %s --check-prefix=COMPLEX
// COMPLEX: amp-run: @complex_arg argument 0 has type tensor<4xcomplex<f32>>, which is not supported (amp-run exchanges ranked tensors, identity-layout memrefs and scalars of f16, bf16, f32, f64, i32, i64 and index)
// RUN: not amp-run %s --entry=i8_result 2>&1 | FileCheck %s --check-prefix=I8
// I8: amp-run: @i8_result result 0 has type tensor<4xi8>, which is not supported
//
// Inputs that do not fit the signature.
// RUN: not amp-run %s --entry=add --input=%t/f32_2x3.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: amp-run: @add takes 2 arguments, got 1 --input files
// RUN: not amp-run %s --entry=add --input=%t/f32_2x3.npy,%t/f32_3x2.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: amp-run: @add argument 1 (tensor<2x3xf32>): '{{.*}}f32_3x2.npy' has shape (3x2), expected (2x3)
// RUN: not amp-run %s --entry=add --input=%t/f32_6.npy,%t/f32_2x3.npy 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: amp-run: @add argument 0 (tensor<2x3xf32>): '{{.*}}f32_6.npy' has shape (6), rank 1, expected rank 2
// RUN: not amp-run %s --entry=add --input=%t/f32_2x3.npy,%t/f16_2x3.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: amp-run: @add argument 1 (tensor<2x3xf32>): '{{.*}}f16_2x3.npy' holds '<f2' (float16) data, expected '<f4' (float32) (--cast-inputs converts it)
// With --cast-inputs the data is converted, and a shape that does not fit
// is reported without the hint.
// RUN: not amp-run %s --entry=add --cast-inputs --input=%t/f32_2x3.npy,%t/f16_3x2.npy 2>&1 | FileCheck %s --check-prefix=CASTSHAPE
// CASTSHAPE: amp-run: @add argument 1 (tensor<2x3xf32>): '{{.*}}f16_3x2.npy' has shape (3x2), expected (2x3){{$}}
// --cast-inputs converts floats only.
// RUN: not amp-run %s --entry=add --cast-inputs --input=%t/f32_2x3.npy,%t/i32_2x3.npy 2>&1 | FileCheck %s --check-prefix=NOCAST
// NOCAST: amp-run: @add argument 1 (tensor<2x3xf32>): '{{.*}}i32_2x3.npy' holds '<i4' (int32) data, expected '<f4' (float32){{$}}
// RUN: not amp-run %s --entry=dyn --seed=1 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: amp-run: @dyn argument 0 (tensor<?xf32>) has dynamic sizes: give its values with --input=FILE.npy
//
// Files that are not .npy arrays amp-run reads.
// RUN: not amp-run %s --entry=add --input=%t/f32_2x3.npy,%t/absent.npy 2>&1 | FileCheck %s --check-prefix=ABSENT
// ABSENT: amp-run: cannot read '{{.*}}absent.npy': No such file or directory
// RUN: not amp-run %s --entry=add --input=%t/f32_2x3.npy,%t/text.npy 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT: amp-run: '{{.*}}text.npy' is not a .npy file
// RUN: not amp-run %s --entry=add --input=%t/c64.npy,%t/f32_2x3.npy 2>&1 | FileCheck %s --check-prefix=C64
// C64: amp-run: '{{.*}}c64.npy': unsupported dtype '<c8'
// RUN: not amp-run %s --entry=add --input=%t/big.npy,%t/f32_2x3.npy 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: amp-run: '{{.*}}big.npy': unsupported dtype '>f4' (amp-run reads little-endian
// RUN: not amp-run %s --entry=add --input=%t/fortran.npy,%t/f32_2x3.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// FORTRAN: amp-run: '{{.*}}fortran.npy': Fortran-order arrays are not supported
//
// Outputs and references.
// RUN: not amp-run %s --entry=add --output=%t/a.npy,%t/b.npy 2>&1 | FileCheck %s --check-prefix=OUTPUTS
// OUTPUTS: amp-run: @add has 1 results, got 2 --output files
// RUN: not amp-run %s --entry=add --compare=%t/a.npy,%t/b.npy 2>&1 | FileCheck %s --check-prefix=REFERENCES
// REFERENCES: amp-run: @add has 1 results, got 2 --compare files
// RUN: not amp-run %s --entry=add --compare=%t/f32_3x2.npy 2>&1 | FileCheck %s --check-prefix=REF-SHAPE
// REF-SHAPE: amp-run: result 0 vs '{{.*}}f32_3x2.npy': the result has shape (2x3) but the reference has shape (3x2)
// RUN: not amp-run %s --entry=add --compare=%t/f32_2x3.npy --rtol=-1 2>&1 | FileCheck %s --check-prefix=TOLERANCE
// TOLERANCE: amp-run: --rtol and --atol must not be negative

func.func @add(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = arith.addf %a, %b : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

func.func @dyn(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}

func.func private @decl(tensor<4xf32>) -> tensor<4xf32>

func.func @complex_arg(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  return %a : tensor<4xcomplex<f32>>
}

func.func @i8_result() -> tensor<4xi8> {
  %0 = arith.constant dense<1> : tensor<4xi8>
  return %0 : tensor<4xi8>
}

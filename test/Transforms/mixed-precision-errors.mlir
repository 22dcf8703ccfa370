// Bad options and bad policy files are clear errors with a non-zero exit,
// given once, before any IR is printed; op names no registered op has are
// warnings, given once however many functions the pass runs on.
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision=precision=f8 2>&1 | FileCheck %s --check-prefix=PRECISION
// PRECISION: for the --precision option: Cannot find option named 'f8'!
// PRECISION-NOT: func.func
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision=accumulate=f64 2>&1 | FileCheck %s --check-prefix=ACCUMULATE
// ACCUMULATE: for the --accumulate option: Cannot find option named 'f64'!
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision=accumulate-min-size=-3 2>&1 | FileCheck %s --check-prefix=MINSIZE
// MINSIZE: error: mixed-precision: accumulate-min-size must not be negative
// MINSIZE-NOT: func.func
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision=target=sm_1 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: error: mixed-precision: unsupported target 'sm_1'; expected cpu, vulkan, vulkan-storage16 or sm_<N>[a|f] with N >= 20
// TARGET-NOT: func.func
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision=missing-op=maybe 2>&1 | FileCheck %s --check-prefix=MISSINGOPT
// MISSINGOPT: for the --missing-op option: Cannot find option named 'maybe'!
// RUN: amp-opt %s --allow-unregistered-dialect --mixed-precision="never=foo.bar,math.exp" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: warning: mixed-precision: no registered op is named 'foo.bar' (listed in allow/follow/never)
// UNKNOWN-NOT: math.exp
// UNKNOWN-NOT: no registered op
// RUN: amp-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(mixed-precision{never=foo.bar}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONCE
// ONCE-COUNT-1: no registered op is named 'foo.bar'
// ONCE-NOT: no registered op
//
// Policy files: syntax and meaning errors name the file, line and column.
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision=policy-file=%S/Inputs/bad-syntax.json 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: error: mixed-precision: {{.*}}bad-syntax.json:4:3: Unexpected token
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision=policy-file=%S/Inputs/bad-policy.json 2>&1 | FileCheck %s --check-prefix=BADPOLICY
// BADPOLICY: error: mixed-precision: {{.*}}bad-policy.json:4:34: unknown policy 'sometimes'; expected allow, follow or never
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision=policy-file=%S/Inputs/bad-condition.yaml 2>&1 | FileCheck %s --check-prefix=BADCOND
// BADCOND: error: mixed-precision: {{.*}}bad-condition.yaml:5:27: expected a non-negative integer for 'min-reduction-size', got 'many'
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision=policy-file=%S/Inputs/no-op.yaml 2>&1 | FileCheck %s --check-prefix=NOOP
// NOOP: error: mixed-precision: {{.*}}no-op.yaml:2:5: a rule needs an 'op' (an op name, 'dialect.*' or '*')
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision=policy-file=%S/Inputs/does-not-exist.json 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: mixed-precision: {{.*}}does-not-exist.json: cannot read policy file
//
// missing-op=warn names each op without a model with its count; error fails.
// RUN: amp-opt %s --allow-unregistered-dialect --mixed-precision=missing-op=warn -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARN
// WARN: warning: amp: ops without a model stay f32: foo.compute (2), foo.other (1)
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision=missing-op=error -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERROR
// ERROR: error: amp: ops without a model: foo.compute (2), foo.other (1)
//
// keep-io-types=false needs the module, where callers can be updated.
// RUN: not amp-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(mixed-precision{keep-io-types=false}))' 2>&1 | FileCheck %s --check-prefix=NOKEEP
// NOKEEP: error: mixed-precision: keep-io-types=false changes signatures and callers; run the pass on the module
//
// Ranges: input-range entries, and ranges files that cannot be read, are
// not amp-run's, or were made for another program (the first entry that
// does not match is named).
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision="input-range=a:b" 2>&1 | FileCheck %s --check-prefix=INRANGE
// INRANGE: error: mixed-precision: input-range entry 'a:b': expected LO:HI with numbers LO <= HI (e.g. -14:14)
// INRANGE-NOT: func.func
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision="input-range=x=0:1" 2>&1 | FileCheck %s --check-prefix=INRANGEARG
// INRANGEARG: error: mixed-precision: input-range entry 'x=0:1': expected LO:HI or N=LO:HI with N an argument index
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision="ranges=%t.missing.json" 2>&1 | FileCheck %s --check-prefix=NORANGES
// NORANGES: error: mixed-precision: ranges={{.*}}missing.json: cannot read
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision="ranges=%S/Inputs/policy.json" 2>&1 | FileCheck %s --check-prefix=NOTRANGES
// NOTRANGES: error: mixed-precision: ranges={{.*}}policy.json: no "amp_ranges_version" (not a file of amp-run --calibrate)
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision=policy-file=%S/Inputs/bad-range.json 2>&1 | FileCheck %s --check-prefix=BADRANGE
// BADRANGE: error: mixed-precision: {{.*}}bad-range.json:3:34: 'range' must be [lo, hi] with lo <= hi
// RUN: not amp-opt %s --allow-unregistered-dialect --mixed-precision="ranges=%S/Inputs/other-program-ranges.json" 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: error: mixed-precision: the ranges do not match this program: the entry for op 1 result 0 ('math.exp' at other.mlir:3:8) is 'foo.compute' at mixed-precision-errors.mlir:{{[0-9]+}}:8 in this program
// OTHER-NOT: func.func
//
// A policy attribute of the wrong kind is rejected by the verifier.
// RUN: not amp-opt %S/Inputs/wrong-attribute.mlir --mixed-precision -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRONGATTR
// WRONGATTR: error: 'amp.precision' must be an #amp.precision attribute, got "never"

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "foo.compute"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "foo.compute"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "foo.other"(%1) : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.exp %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

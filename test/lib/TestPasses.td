//===- TestPasses.td - Passes that expose amp's models to tests -*- tablegen -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TEST_TESTPASSES_TD
#define AMP_TEST_TESTPASSES_TD

include "mlir/Pass/PassBase.td"

def TestPrintPolicy : Pass<"amp-test-print-policy"> {
  let summary = "Print what AmpOpInterface reports for every op";
  let description = [{
    For every op nested under the op the pass runs on, prints one line to
    stdout with what amp's models (or, for an op without a model, its
    traits) report:

    ```
    <op name> <category> [model|traits] acc=<kind>/<size>[/wide]
        data=(<data operands>)->(<data results>) compute=<yes|no>
        "<reason>"
    ```

    `acc` is `-` for an op that does not accumulate and the size is `?` when
    unknown. `compute` says whether the enclosing target (a
    `spirv.target_env` attribute or the `#nvvm.target` of a gpu.module; none
    means the CPU) can run the op's work in the `low` type. If the op carries
    policy attributes, their effective merge (`amp.precision` on the op over
    the `amp.scope` of its ancestors) is printed as `policy=<attr>`.

    This is how the models are seen and tested; it changes nothing.
  }];
  let options = [
    Option<"low", "low", "std::string", /*default=*/"\"f16\"",
           "Low-precision type the categories are asked for (f16 or bf16)">,
  ];
  let dependentDialects = ["::mlir::amp::AmpDialect"];
}

def TestConvertOps : Pass<"amp-test-convert-ops"> {
  let summary = "Convert every op on its own through its AmpOpInterface rewrite";
  let description = [{
    Exercises `convertToPrecision` op by op: each op with floating-point data
    whose category is not `never` (all of them with `all=true`) is rewritten
    to compute in `low`, with its accumulators in `accumulate`, and its
    results are cast back to their original types, so every op is converted
    in isolation and the program keeps its signature. An op whose model
    declines gets a remark. Ops that carry others (functions, scf, branches,
    terminators) and casts are left alone.

    This is no mixed-precision pass (it places casts around every op); it
    tests the rewrite hook, including numerically by running the result.
  }];
  let options = [
    Option<"low", "low", "std::string", /*default=*/"\"f16\"",
           "Low-precision type to convert to (f16 or bf16)">,
    Option<"accumulate", "accumulate", "std::string", /*default=*/"\"f32\"",
           "Accumulator type for contractions and reductions">,
    Option<"all", "all", "bool", /*default=*/"false",
           "Convert ops whose category is never as well">,
    Option<"buffers", "buffers", "bool", /*default=*/"false",
           "Convert linalg ops on buffers too (they run on converted copies; "
           "off, a test's memref harness stays as written)">,
  ];
  let dependentDialects = ["::mlir::amp::AmpDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TestCountCastKernels : Pass<"amp-test-count-cast-kernels"> {
  let summary = "Count linalg kernels whose only work is a cast";
  let description = [{
    Prints `cast-only kernels: N of M` for the op it runs on: M structured
    linalg ops, N of them doing nothing but `arith.extf`/`arith.truncf` on
    their inputs, followed by `(and K that feed reductions ...)`: the
    cast-only kernels read only by reductions that would evaluate a fused
    cast several times per element (a matmul's operands), which
    amp-fuse-elementwise keeps apart on purpose. After amp's kernel fusion
    every other cast should live in the kernel of its producer or
    consumer.
  }];
}

def TestCheckOptimality : Pass<"amp-test-check-optimality"> {
  let summary = "Check the optimal placement against every labelling";
  let description = [{
    Runs mixed-precision's analysis (not the rewrite) with the optimal
    placement and, for each function whose placement has at most `limit`
    free choices, also tries every labelling by brute force; emits a remark
    on the function with the bytes the minimum cut's labelling moves, the
    cut's cost and the best cost found:

    ```
    amp: optimal placement moves C bytes (cut C); the best of 2^n labellings moves C
    ```

    The three numbers are the same when the placement is optimal. The IR is
    not changed.
  }];
  let options = [
    Option<"limit", "limit", "unsigned", /*default=*/"16",
           "Largest number of free choices tried by brute force (at most 20)">,
    Option<"precision", "precision", "std::string", /*default=*/"\"f16\"",
           "Low-precision type: f16 or bf16">,
  ];
  let dependentDialects = ["::mlir::amp::AmpDialect"];
}

def TestPrintRanges : Pass<"amp-test-print-ranges"> {
  let summary = "Print the float range analysis's result for every value";
  let description = [{
    Runs amp's float range analysis (FloatRangeAnalysis.h) on the op the
    pass runs on and emits, for every float result of every op outside
    linalg bodies, a remark on the op:

    ```
    range: result <n> [lo, hi] <source>; <account>; f16: <fit>; bf16: <fit>
    ```

    where the source is empty (a fact), `assumed`, `calibrated` or
    `expanded`, and each fit is `fits`, `may overflow` or `underflows`. The
    options are those of mixed-precision (`input-range`, `ranges`).
  }];
  let options = [
    ListOption<"inputRange", "input-range", "std::string",
               "LO:HI or N=LO:HI ranges of function arguments">,
    Option<"rangesFile", "ranges", "std::string", /*default=*/"\"\"",
           "Calibrated ranges (amp-run --calibrate)">,
  ];
}

def TestFloatConversion : Pass<"amp-test-float-conversion"> {
  let summary = "Check amp's f32 to f16/bf16 narrowing against APFloat";
  let description = [{
    Narrows f32 bit patterns of every class to f16 and bf16 with
    amp/Support/FloatConversion.h, by bit arithmetic and (where the host
    has F16C) by the hardware path, one value and whole buffers on the
    context's threads, and compares every result bit for bit with
    APFloat::convert (round to nearest, ties to even), and the overflow and
    underflow counts with APFloat's. The patterns: both signs, every
    exponent, and mantissas at the rounding boundaries of both formats (the
    ties, one ulp either side, even and odd results), zeros, subnormals,
    the largest finite values, infinities, quiet and signaling NaNs with
    payloads that survive and that vanish, and `random` more drawn from a
    fixed seed. Widening back to f32 is checked on every 16-bit pattern of
    both formats. Prints one line per format and path to stdout; any
    mismatch is an error naming the pattern. It changes nothing.
  }];
  let options = [
    Option<"random", "random", "unsigned", /*default=*/"1000000",
           "How many further patterns are drawn at random">,
  ];
}

#endif // AMP_TEST_TESTPASSES_TD

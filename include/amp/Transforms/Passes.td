//===- Passes.td - amp's transformation passes -------------*- tablegen -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_PASSES_TD
#define AMP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

// The options that decide: shared by mixed-precision and
// amp-emulate-precision, so that both see the same decisions.
defvar decisionOptions = [
    Option<"precision", "precision", "::mlir::amp::LowPrecision",
           /*default=*/"::mlir::amp::LowPrecision::F16",
           "Low-precision type: f16 or bf16", [{::llvm::cl::values(
             clEnumValN(::mlir::amp::LowPrecision::F16, "f16",
                        "IEEE half precision"),
             clEnumValN(::mlir::amp::LowPrecision::BF16, "bf16",
                        "bfloat16 (f32's exponent range, 8 bits of mantissa)"))}]>,
    Option<"accumulate", "accumulate", "::mlir::amp::AccumulateMode",
           /*default=*/"::mlir::amp::AccumulateMode::F32",
           "Accumulator type of contractions, reductions and pools: f32 or "
           "low (the low-precision type)", [{::llvm::cl::values(
             clEnumValN(::mlir::amp::AccumulateMode::F32, "f32",
                        "accumulate in f32"),
             clEnumValN(::mlir::amp::AccumulateMode::Low, "low",
                        "accumulate in the low-precision type"))}]>,
    Option<"accumulateMinSize", "accumulate-min-size", "int64_t",
           /*default=*/"0",
           "With accumulate=f32, reductions over fewer elements than this "
           "accumulate in the low type (0: always f32)">,
    Option<"keepIOTypes", "keep-io-types", "bool", /*default=*/"true",
           "Keep public functions' signatures f32 (cast at entry and exit); "
           "when false their signatures become low precision too">,
    ListOption<"allowOps", "allow", "std::string",
               "Op names that run low (overrides the models)">,
    ListOption<"followOps", "follow", "std::string",
               "Op names that follow their inputs (overrides the models)">,
    ListOption<"neverOps", "never", "std::string",
               "Op names that stay f32 (overrides the models)">,
    Option<"policyFile", "policy-file", "std::string", /*default=*/"\"\"",
           "JSON file of per-op rules (see docs/Policies.md)">,
    Option<"missingOp", "missing-op", "::mlir::amp::MissingOpMode",
           /*default=*/"::mlir::amp::MissingOpMode::Never",
           "Ops without a model whose traits do not decide: follow, never, "
           "warn (never, and report each op name with its count) or error",
           [{::llvm::cl::values(
             clEnumValN(::mlir::amp::MissingOpMode::Follow, "follow",
                        "follow their inputs"),
             clEnumValN(::mlir::amp::MissingOpMode::Never, "never",
                        "stay f32"),
             clEnumValN(::mlir::amp::MissingOpMode::Warn, "warn",
                        "stay f32, with a warning naming them"),
             clEnumValN(::mlir::amp::MissingOpMode::Error, "error",
                        "fail, naming them"))}]>,
    Option<"placement", "placement", "::mlir::amp::Placement",
           /*default=*/"::mlir::amp::Placement::Optimal",
           "How follow ops and free values are placed: optimal (fewest bytes "
           "moved, by a minimum cut), greedy (TVM's forward rule: a follow op "
           "runs low iff its inputs are low) or naive (casts around every "
           "allow op)", [{::llvm::cl::values(
             clEnumValN(::mlir::amp::Placement::Optimal, "optimal",
                        "fewest bytes moved (minimum cut)"),
             clEnumValN(::mlir::amp::Placement::Greedy, "greedy",
                        "TVM's forward rule"),
             clEnumValN(::mlir::amp::Placement::Naive, "naive",
                        "casts around every allow op"))}]>,
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The target, for ops with no target attribute around them: cpu "
           "(the host, #llvm.target: on x86 f16 computes only with "
           "AVX512-FP16, bf16 contractions compute, the rest is "
           "storage-only), vulkan (Float16 and 16-bit storage, "
           "as on Mesa's lavapipe), vulkan-storage16 (16-bit storage without "
           "Float16) or sm_<N> (NVIDIA). Ops the target cannot compute low "
           "stay f32, storage-only where the target can still store the low "
           "type">,
    ListOption<"inputRanges", "input-range", "std::string",
               "Ranges of function arguments amp assumes instead of 'fits the "
               "low type': LO:HI for every float argument of the functions "
               "whose callers amp does not see, N=LO:HI for argument N "
               "(e.g. input-range=0=-14:14,1=0:1). An `amp.range = [lo, hi]` "
               "argument attribute takes precedence">,
    Option<"rangesFile", "ranges", "std::string", /*default=*/"\"\"",
           "Value ranges observed by `amp-run --calibrate` on this program: "
           "values whose calibrated maximum (with a margin of 2) exceeds the "
           "low type, or most of whose values would be subnormal in it, "
           "stay f32">,
];

def MixedPrecision : Pass<"mixed-precision"> {
  let summary = "Convert an f32 program to mixed f16/bf16 precision";
  let description = [{
    Decides, op by op, what may run in a low-precision type (f16 or bf16)
    and what must stay f32, then rewrites the types and places the casts.

    The pass runs on a function (any `FunctionOpInterface` op, so it nests
    as `builtin.module(func.func(mixed-precision))` and runs on `gpu.module`
    functions too) or on an op with a symbol table, usually the module, where
    private functions, their calls and returns are converted together.

    Every op gets a category, from the first of:
    1. an `amp.precision` attribute on the op (`#amp.precision<policy = ...>`);
    2. the `amp.scope` attribute of the nearest enclosing op stating one;
    3. the `never`, `follow` and `allow` options, then the policy file;
    4. the op's AmpOpInterface model;
    5. its traits (an op without a model: see `missing-op`).

    `allow` ops run low, keeping contractions' accumulators in the accumulate
    type and casting their results to the low type; `never` ops stay f32; a
    `follow` op runs low when its floating-point inputs are low. Sums,
    means and pools that can keep a wide accumulator read low inputs and
    accumulate in f32 (below `accumulate-min-size` elements they accumulate
    low). Values tied through control flow (scf iter_args, yields and
    results, cf block arguments, private calls) get one type. Integer, index
    and i1 values are never touched; f64 and already-low values are left
    alone.

    Before:
    ```mlir
    func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
      %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
                         outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
      %1 = math.exp %0 : tensor<4x4xf32>
      return %1 : tensor<4x4xf32>
    }
    ```
    After `mixed-precision{precision=f16}`:
    ```mlir
    %a16 = arith.truncf %a : tensor<4x8xf32> to tensor<4x8xf16>
    %b16 = arith.truncf %b : tensor<8x4xf32> to tensor<8x4xf16>
    %0 = linalg.matmul ins(%a16, %b16 : tensor<4x8xf16>, tensor<8x4xf16>)
                       outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = math.exp %0 : tensor<4x4xf32>
    ```
    (the matmul's f32 result is used in f32 by exp, so no cast is placed.)
  }];
  let options = !listconcat(decisionOptions, [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark with each op's decision and its reason">,
    Option<"graphFile", "graph", "std::string", /*default=*/"\"\"",
           "Write each function's dataflow with the decisions as a Graphviz "
           "digraph to this file ('-' for stdout): ops coloured by precision, "
           "casts marked with their bytes, reasons as tooltips">,
    Option<"graphMaxNodes", "graph-max-nodes", "unsigned", /*default=*/"400",
           "With graph=: above this many ops in a function, each control-flow "
           "region (scf.for, scf.if, ...) is drawn as one node">,
    Option<"reportFile", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report of every op's decision to this file "
           "('-' for stdout)">,
  ]);
  let statistics = [
    Statistic<"numAllow", "ops-low", "Ops computing in low precision">,
    Statistic<"numKeep", "ops-f32", "Ops kept in f32">,
    Statistic<"numWideAccumulate", "ops-wide-accumulator",
              "Reductions reading low inputs with an f32 accumulator">,
    Statistic<"numCasts", "casts-inserted", "Casts inserted">,
    Statistic<"numConstantBytesSaved", "constant-bytes-saved",
              "Bytes saved by converting constants at compile time">,
  ];
  // The dialect of a `target=` attribute (SPIR-V, NVVM) is added by
  // getDependentDialects only when that target is asked for.
  let dependentDialects = ["::mlir::amp::AmpDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::complex::ComplexDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect"];
}

def EmulatePrecision : Pass<"amp-emulate-precision", "::mlir::ModuleOp"> {
  let summary = "Emulate mixed-precision decisions in f32, each op's rounding "
                "switched on or off at run time";
  let description = [{
    Makes the decisions `mixed-precision` would make with the same options,
    but instead of rewriting types it keeps the program in f32 and rounds
    values to the low type where the converted program would hold them in
    it: the float operands of every op that computes low or reads low
    inputs into a wide accumulator, and the results the converted program
    stores low. Each rounding is guarded by a gate read from a new last
    argument of the entry function, `tensor<Nxf32>` (nonzero: on).

    With every gate on the program computes what the converted program
    computes (contractions accumulate in f32 in both; bodies of elementwise
    generics round their operands and results only); with every gate off it
    is the f32 program. A precision tuner compiles it once and tries
    candidate policies as inputs, not recompiles (`python3 -m amp.tune`).

    Every op of the entry that computes (not data movement) has a gate,
    in program order, whatever its mode, so that the list is the same
    under any policy. `gates=FILE` writes them as JSON: each op's first
    location name (what a policy rule's `loc:` selects), its mode, whether
    its category is allow, and its FLOPs; and the FLOPs of all of them.
    With `gates-only` the pass writes the file and changes nothing: a tuner
    learns the modes a candidate policy gives, and switches on the gates of
    the ops it makes low.
  }];
  let options = !listconcat(decisionOptions, [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The function that gets the gates argument; ops elsewhere are "
           "not emulated (they stay f32)">,
    Option<"gatesFile", "gates", "std::string", /*default=*/"\"\"",
           "Write the gates as JSON to this file ('-' for stdout)">,
    Option<"gatesOnly", "gates-only", "bool", /*default=*/"false",
           "Make the decisions and write the gates file only, changing "
           "nothing: the modes a policy gives each gated op">,
    Option<"excessPrecision", "excess-precision", "bool",
           /*default=*/"false",
           "Emulate a target that computes a chain of low elementwise ops in "
           "f32 and rounds where a value enters or leaves it, as amp's CPU "
           "backend does for bf16 (amp-excess-precision); otherwise every op "
           "that computes low rounds its results, as a target computing in "
           "the low type does">,
  ]);
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FoldCasts : Pass<"amp-fold-casts"> {
  let summary = "Fold, merge and move arith.extf/truncf casts exactly";
  let description = [{
    Applies amp's cast folding patterns (`populateAmpCastFoldingPatterns`)
    with the upstream arith folders. Every rewrite keeps the program's
    values bit for bit:

    * `truncf(extf(x)) -> x` when the types match (upstream folder);
      `extf(extf(x)) -> extf(x)`;
    * casts of dense and splat constants are folded at compile time (the
      constant is rounded exactly as the cast would round it at run time);
    * identical casts of one value in a block are merged;
    * a cast moves across data movement to the side where the tensor is
      smaller: a slice, gather or extract (`tensor`, `tosa`) of a cast
      becomes a cast of the slice; a cast of `linalg.broadcast` or
      `tensor.pad` becomes a broadcast or pad of the cast; a cast pair
      around a reshape or transpose (`truncf(collapse_shape(extf(x)))`)
      disappears;
    * `truncf(op(extf(a), extf(b))) -> op(a, b)` for `addf`, `subf`,
      `mulf`, `divf`, `negf`, `absf`, `sqrt`, `max`/`min`, from f32 to f16 or
      bf16: the f32 result rounded once is the correctly rounded low result
      (f32's 24 bits are at least 2p + 2 for p = 11 and 8), so computing in
      low precision gives the same bits.

    Lossy rewrites are never applied: `extf(truncf(x))` is not `x`, and
    `truncf(truncf(x))` rounds twice.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // AMP_TRANSFORMS_PASSES_TD

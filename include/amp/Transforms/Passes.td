//===- Passes.td - amp's transformation passes -------------*- tablegen -*-===//

#ifndef AMP_TRANSFORMS_PASSES_TD
#define AMP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

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
  let options = [
    Option<"precision", "precision", "std::string", /*default=*/"\"f16\"",
           "Low-precision type: f16 or bf16">,
    Option<"accumulate", "accumulate", "std::string", /*default=*/"\"f32\"",
           "Accumulator type of contractions, reductions and pools: f32 or "
           "low (the low-precision type)">,
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
    Option<"missingOp", "missing-op", "std::string", /*default=*/"\"never\"",
           "Ops without a model whose traits do not decide: follow, never, "
           "warn (never, and report each op name with its count) or error">,
    Option<"placement", "placement", "std::string", /*default=*/"\"optimal\"",
           "How follow ops and free values are placed: optimal (fewest bytes "
           "moved, by a minimum cut), greedy (TVM's forward rule: a follow op "
           "runs low iff its inputs are low) or naive (casts around every "
           "allow op)">,
    Option<"checkOptimality", "check-optimality", "unsigned",
           /*default=*/"0",
           "For tests: with placement=optimal, also try every labelling of "
           "functions with at most this many free choices and report both "
           "costs in a remark">,
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The target, for ops with no target attribute around them: cpu "
           "(everything computes low), vulkan (Float16 and 16-bit storage, "
           "as on Mesa's lavapipe), vulkan-storage16 (16-bit storage without "
           "Float16) or sm_<N> (NVIDIA). Ops the target cannot compute low "
           "stay f32, storage-only where the target can still store the low "
           "type">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark with each op's decision and its reason">,
    Option<"reportFile", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report of every op's decision to this file "
           "('-' for stdout)">,
  ];
  let statistics = [
    Statistic<"numAllow", "ops-low", "Ops computing in low precision">,
    Statistic<"numKeep", "ops-f32", "Ops kept in f32">,
    Statistic<"numWideAccumulate", "ops-wide-accumulator",
              "Reductions reading low inputs with an f32 accumulator">,
    Statistic<"numCasts", "casts-inserted", "Casts inserted">,
    Statistic<"numConstantBytesSaved", "constant-bytes-saved",
              "Bytes saved by converting constants at compile time">,
  ];
  let dependentDialects = ["::mlir::amp::AmpDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::complex::ComplexDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::spirv::SPIRVDialect",
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

def DecomposeAggregates : Pass<"amp-decompose-aggregates"> {
  let summary = "Decompose aggregated linalg ops (softmax) into structured ops";
  let description = [{
    Replaces every op implementing `linalg::AggregatedOpInterface`
    (`linalg.softmax`, Winograd ops) by the structured ops of its
    decomposition, so that loop lowering and elementwise fusion see plain
    `linalg.generic`s. Runs after mixed-precision in amp's lowering
    pipelines; the decomposition keeps the element types the ops have.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SplitCastsForFusion : Pass<"amp-split-casts-for-fusion"> {
  let summary = "Give every user of a tensor cast its own copy of the cast";
  let description = [{
    A cast read by several kernels cannot be fused into all of them and
    would stay a kernel of its own, reading and writing the whole tensor.
    Cloning a tensor `arith.extf`/`arith.truncf` once per user lets
    elementwise fusion put each copy inside its user, where the cast costs
    one conversion per element read instead of a round trip through memory.
    Runs in amp's lowering pipelines before fusion.
  }];
}

def ApproximateMath : Pass<"amp-approximate-math"> {
  let summary = "Evaluate math functions with polynomial approximations";
  let description = [{
    Replaces the `math` ops named in `functions` by upstream MLIR's
    polynomial (or rational) approximations, made of `arith` ops,
    `math.fma` and bit manipulations, on scalars and on vectors; an f16 or
    bf16 call is first extended to f32, so the approximation is always
    evaluated in f32. Two uses in amp's pipelines:

    - SPIR-V for Vulkan, `functions=erf,erfc`: GLSL.std.450 has no erf, so a
      GELU written with erf would not run in a Vulkan kernel.
    - The CPU, `functions=tanh,exp,log`: LLVM lowers these to a libm call
      per element, even inside vectorized kernels; the approximations are
      vector code, within 4 f32 units in the last place of the exact values
      (checked by running them: test/Runner/cpu-math.mlir).

    The upstream exp and log work on normal numbers (exp flushes subnormal
    results to zero, log misreads subnormal arguments); for f32 they are
    first wrapped in exact scalings by 2^32, `exp(x) = exp(x + 32 ln 2) *
    2^-32` for x < -87 and `log(x) = log(x * 2^32) - 32 ln 2` for
    x < 2^-126, so that subnormals keep their values.

    Names amp knows: tanh, exp, expm1, log, log1p, log2, erf, erfc, atan,
    atan2, asin, acos, sin, cos, cbrt; any other is an error.
  }];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "The math functions to approximate (default: erf, erfc)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def AttachSPIRVEntryPointABI : Pass<"amp-attach-spirv-entry-point-abi"> {
  let summary = "Give GPU kernels the SPIR-V entry point ABI of their block size";
  let description = [{
    Sets `spirv.entry_point_abi` on every `gpu.func` kernel that has none,
    with the workgroup size of its `known_block_size` (1x1x1 when unknown),
    so that `convert-gpu-to-spirv` turns it into a SPIR-V entry point.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
}

def NestSPIRVModules : Pass<"amp-nest-spirv-modules", "::mlir::ModuleOp"> {
  let summary = "Move each kernel's spirv.module into its gpu.module";
  let description = [{
    For Vulkan (`Shader`) targets, `convert-gpu-to-spirv` places the
    `spirv.module @__spv__<name>` it makes for `gpu.module @<name>` beside
    it, while `gpu-module-to-binary` serialises the `spirv.module` found
    inside a `gpu.module`. This pass moves every such `spirv.module` into
    the `gpu.module` it was made from, so that the kernels can be
    serialised into `gpu.binary` ops for a runtime. A `spirv.module` whose
    `gpu.module` cannot be found is an error.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::spirv::SPIRVDialect"];
}

def EmulateBF16Storage : Pass<"amp-emulate-bf16-storage", "::mlir::ModuleOp"> {
  let summary = "Make bf16 storage-only in GPU kernels: i16 in memory, f32 "
                "arithmetic, bit-exact conversions";
  let description = [{
    For targets without bf16 (SPIR-V for Vulkan, e.g. Mesa's lavapipe),
    rewrites every `gpu.module` so that no bf16 type remains, while the
    kernels compute what the bf16 program computes:

    1. bf16 arithmetic (`arith`) and math functions (`math`) run in f32
       with their results rounded to bf16 (upstream
       `arith-emulate-unsupported-floats` and
       `math-extend-to-supported-types` patterns). For +, -, *, / and sqrt
       this rounding gives exactly the bf16 result.
    2. bf16 values and buffers become i16 holding the same bits. The casts
       become integer code that is exact on every input:
       `extf` bf16 -> f32 shifts the 16 bits into the high half of an f32;
       `truncf` f32 -> bf16 rounds to nearest, ties to even, on the bits,
       keeps infinities, and turns a NaN into a quiet NaN of the same sign
       and leading payload bits (as hardware conversions do).
       bf16 constants become i16 constants of their bits.
    3. Launches of the rewritten kernels pass their bf16 buffers through a
       `builtin.unrealized_conversion_cast` to the i16 buffer type (the same
       bytes); `reconcile-unrealized-casts` removes it once the host is in
       the LLVM dialect.

    Host code is left alone: it keeps bf16 buffers and computes whatever
    bf16 it has with the CPU's own conversions.

    Before (in a kernel):
    ```mlir
    %x = memref.load %in[%i] : memref<64xbf16>
    %y = arith.addf %x, %x : bf16
    memref.store %y, %out[%i] : memref<64xbf16>
    ```
    After:
    ```mlir
    %x = memref.load %in[%i] : memref<64xi16>
    %w = arith.extui %x : i16 to i32
    ... (shift, bitcast to f32) ...
    %s = arith.addf %xf, %xf : f32
    ... (round to nearest even on the bits, NaN check) ...
    memref.store %y, %out[%i] : memref<64xi16>
    ```
    A kernel op that would still need bf16 (one that is neither arithmetic,
    math, a cast, a constant nor data movement) is an error.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::vector::VectorDialect"];
}

def ContiguousKernelBuffers : Pass<"amp-contiguous-kernel-buffers"> {
  let summary = "Give linalg ops on buffers identity-layout operands, copying "
                "strided views in and out";
  let description = [{
    For GPU kernels whose buffers are passed as bare pointers (amp's Vulkan
    calling convention: a buffer is its aligned pointer and its size in
    bytes), a view with an offset or strides (a `memref.subview` of a
    `tensor.extract_slice`, a strided `expand_shape`) would reach the kernel
    without its offset and with too few bytes. This pass replaces every
    operand of a linalg op on buffers whose layout is not the identity by a
    new identity-layout buffer of the same shape: the view is copied into it
    before the op (`memref.copy`, on the host) unless the op only overwrites
    it, copied back after the op when the op writes it, and the buffer is
    freed. A value used by several operands of one op gets one buffer. Ops
    with dynamic shapes are left alone.

    Before:
    ```mlir
    %v = memref.subview %a[0, 128] [450, 64] [1, 1]
        : memref<450x256xf32> to memref<450x64xf32, strided<[256, 1], offset: 128>>
    linalg.generic ... ins(%v : memref<450x64xf32, strided<[256, 1], offset: 128>>)
                       outs(%o : memref<450x64xf32>)
    ```
    After:
    ```mlir
    %c = memref.alloc() : memref<450x64xf32>
    memref.copy %v, %c : memref<450x64xf32, strided<[256, 1], offset: 128>> to memref<450x64xf32>
    linalg.generic ... ins(%c : memref<450x64xf32>) outs(%o : memref<450x64xf32>)
    memref.dealloc %c : memref<450x64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def ExpandFloorCeilDiv : Pass<"amp-expand-floor-ceil-div"> {
  let summary = "Expand rounding integer divisions into plain ones";
  let description = [{
    Rewrites `arith.floordivsi`, `arith.ceildivsi` and `arith.ceildivui`
    into `arith.divsi`/`divui` with comparisons and selects (upstream
    MLIR's patterns), for targets without such instructions: SPIR-V, where
    the index arithmetic of a bilinear `tosa.resize` kernel otherwise fails
    to lower ("failed to legalize operation 'arith.floordivsi'"). Other
    `arith` ops, including the min/max ops that `arith-expand` would also
    rewrite, are left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ReductionLoopsInnermost : Pass<"amp-reduction-loops-innermost"> {
  let summary = "Move the reduction dimensions of linalg ops after their "
                "parallel dimensions";
  let description = [{
    Permutes the loop dimensions of every structured linalg op that has a
    reduction dimension before a parallel one, so that its parallel
    dimensions come first and its reduction dimensions last, each group in
    its original order (named ops are generalized to `linalg.generic`
    first). `convert-linalg-to-parallel-loops` then makes one `scf.parallel`
    over all the parallel dimensions with the reductions as `scf.for` loops
    inside it, which `gpu-map-parallel-loops` and
    `convert-parallel-loops-to-gpu` turn into one kernel. Without it, a
    reduction over a middle axis (`tosa.reduce_sum` over axis 1 of a 4-d
    tensor, a global average pool written as sums) becomes an `scf.parallel`
    inside an `scf.for` inside an `scf.parallel`, which cannot be mapped to
    GPU threads.

    Each output element still sums its terms in the same order (the
    reduction dimensions keep their relative order), so results do not
    change.

    Before:
    ```mlir
    linalg.generic {indexing_maps = [(n, r, c) -> (n, r, c), (n, r, c) -> (n, c)],
                    iterator_types = ["parallel", "reduction", "parallel"]} ...
    ```
    After:
    ```mlir
    linalg.generic {indexing_maps = [(n, c, r) -> (n, r, c), (n, c, r) -> (n, c)],
                    iterator_types = ["parallel", "parallel", "reduction"]} ...
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def TileParallelLoopsForGPU : Pass<"amp-tile-parallel-loops-for-gpu"> {
  let summary = "Split outermost scf.parallel loops into workgroups of "
                "invocations";
  let description = [{
    Tiles every outermost `scf.parallel` loop with static trip counts so that
    `gpu-map-parallel-loops` maps the outer loop to the grid and the inner
    one to the invocations of a workgroup (GPU threads). Tile sizes are
    chosen per loop, from the innermost dimension outwards: each dimension
    gets the largest divisor of its trip count that keeps the product of
    the sizes at most `workgroup-size`, so that tiles are full and no
    invocation is idle (a prime trip count larger than the budget gets a
    tile of 1). Only the first three dimensions, which
    `gpu-map-parallel-loops` maps to the x, y and z ids, take part: the
    others run sequentially in every invocation and get tiles of 1.
    Loops that are already nested in a parallel loop, that
    reduce (have results), or whose bounds or steps are not constant, are
    left alone.

    Devices cap the workgroups of a dispatch per dimension (Vulkan's
    `maxComputeWorkGroupCount`, 65535 on many GPUs and on lavapipe). A
    dimension of the workgroup loop with more than `max-workgroups`
    iterations is split into two, `a * f + b` with both within the cap,
    when the loop has fewer than three dimensions (a 1-D loop over 8M
    elements: 131072 workgroups become 32768 x 4); otherwise the launch
    reports the excess.

    Before:
    ```mlir
    scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c128) step (%c1, %c1) { ... }
    ```
    After (`workgroup-size=64`):
    ```mlir
    scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c128) step (%c1, %c64) {
      scf.parallel (%ii, %jj) = (%c0, %c0) to (%c1, %c64) step (%c1, %c1) {
        ... (guarded by %j + %jj < 128, always true here)
      }
    }
    ```
  }];
  let options = [
    Option<"workgroupSize", "workgroup-size", "int64_t", /*default=*/"64",
           "Most invocations per workgroup (1 leaves the loops alone)">,
    Option<"maxWorkgroups", "max-workgroups", "int64_t", /*default=*/"65535",
           "Most workgroups along one dimension of the grid">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def FreeTemporaries : Pass<"amp-free-temporaries", "::mlir::ModuleOp"> {
  let summary = "Free a function's bufferized temporaries where it frees "
                "none itself";
  let description = [{
    One-shot bufferization allocates temporaries it never frees, so each
    call of a lowered function would leak them. On each function that
    contains no `memref.dealloc` of its own, this pass runs MLIR's buffer
    deallocation passes (`ownership-based-buffer-deallocation` and the
    passes that simplify its results; `bufferization-lower-deallocations`
    then runs on the module, where it may add the helper function it
    needs, and `convert-bufferization-to-memref` turns the clones made for
    buffers that control flow yields into copies), which free every buffer
    once it is dead and leave the buffers a function returns to its
    caller. A function that frees memory itself manages its buffers by
    hand, which that pipeline does not accept; it is left as it is.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def FuseElementwise : Pass<"amp-fuse-elementwise"> {
  let summary = "Fuse elementwise linalg ops into their consumers unless "
                "that recomputes them";
  let description = [{
    Linalg's elementwise fusion with a cost rule for amp's kernels: a
    producer (typically a cast made by mixed-precision) is fused into its
    only consumer, where it costs one evaluation per element the consumer
    reads instead of a round trip through memory, *except* when the
    consumer reduces and reads the producer's result through an indexing
    map that is not a permutation of its loops. Such a consumer (a matmul
    reading `A[i, k]` in loops `(i, j, k)`, a convolution reading its input
    through a window) would evaluate the producer once per iteration of the
    loops the map ignores: a cast fused into a 512^3 matmul runs 512 times
    per element. The producer then stays a kernel of its own, which writes
    its result once (in the low type, half the bytes of f32).

    Also applies what upstream's `linalg-fuse-elementwise-ops` applies with
    it: reshapes folded by expansion, constant folding of linalg ops and the
    canonicalizations of the ops involved.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def VectorizeForCPU : Pass<"amp-vectorize-for-cpu"> {
  let summary = "Tile linalg ops on buffers to vector-sized tiles and "
                "vectorize them";
  let description = [{
    Makes amp's CPU kernels move data in vectors, so that a buffer stored in
    f16 or bf16 costs half the memory traffic of f32. It runs after
    bufferization: each linalg op on memrefs with static loop ranges that
    the linalg vectorizer accepts is tiled with `scf.for` loops: one loop
    dimension, the *vector dimension*, gets tiles of the largest power of
    two that is at most `vector-size` and divides its range, every other
    dimension tiles of 1. The tiles are then vectorized into
    `vector.transfer_read`/`transfer_write` and vector arithmetic, leading
    unit dimensions are dropped from the vectors, transfers on subviews are
    folded into transfers on the viewed buffers, and an accumulator that a
    loop reads and writes at the same place (a matmul tile's, along k) is
    kept in registers across the loop.

    The vector dimension is the loop dimension that is the innermost
    (contiguous) index of the most data: for each operand whose indexing
    map ends in a plain loop dimension, that dimension is credited with the
    operand's number of elements. Dimensions whose range has no power-of-two
    divisor of at least 2 within `vector-size` cannot be vector dimensions.
    Left as they are (to become scalar loops, which LLVM's loop vectorizer
    may still vectorize) are ops with none, with dynamic loop ranges, that
    the vectorizer rejects, whose vector dimension is a reduction (each
    tile would be reduced across its lanes; as loops, LLVM keeps vectors of
    partial sums instead), ops on `i1` buffers (a memref stores a byte
    per `i1`, a vector of `i1` is packed bits), and ops that compute
    `math.fpowi` (LLVM's `powi` takes a scalar exponent).

    Every element type gets the same number of lanes, so that an f16
    program and its f32 original run the same loops and differ only in the
    bytes they move.

    Before (`vector-size=16`):
    ```mlir
    linalg.generic {indexing_maps = [#id, #id],
                    iterator_types = ["parallel", "parallel"]}
        ins(%x : memref<64x256xf16>) outs(%y : memref<64x256xf16>) {...}
    ```
    After:
    ```mlir
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c256 step %c16 {
        %v = vector.transfer_read %x[%i, %j], %pad {in_bounds = [true]}
            : memref<64x256xf16>, vector<16xf16>
        ... vector arithmetic ...
        vector.transfer_write %w, %y[%i, %j] {in_bounds = [true]}
            : vector<16xf16>, memref<64x256xf16>
      }
    }
    ```
  }];
  let options = [
    Option<"vectorSize", "vector-size", "int64_t", /*default=*/"16",
           "Lanes of the vectors (elements, whatever their type)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // AMP_TRANSFORMS_PASSES_TD

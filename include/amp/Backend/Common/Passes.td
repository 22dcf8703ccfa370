//===- Passes.td - lowering passes every backend uses ------*- tablegen -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_COMMON_PASSES_TD
#define AMP_BACKEND_COMMON_PASSES_TD

include "mlir/Pass/PassBase.td"

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

def CopyTensorsToBuffers : Pass<"amp-copy-tensors-to-buffers"> {
  let summary = "Give every buffer read from a computed tensor a copy of its "
                "own";
  let description = [{
    One-Shot Bufferize sees `bufferization.to_buffer %t` as a read of `%t`
    where the op stands, not where the memref it returns is read, and may
    write a later result in place into `%t`'s buffer after it. Written
    right before its reads, the memref holds `%t`; moved away from them (CSE
    keeps the first of two `to_buffer`s of one tensor, canonicalisations
    hoist pure ops), it may hold whatever was written there since. A
    conversion makes this reachable from valid input: `%t`, a function
    argument (never written) in the f32 program, becomes `arith.extf` of a
    low-precision argument, a temporary.

    Each `to_buffer` of a tensor that may share a buffer with a later
    result (anything but an argument of a function marked
    `bufferization.writable = false`) becomes a fresh `memref.alloc` that
    the tensor is materialized in
    (`bufferization.materialize_in_destination ... restrict writable`):
    bufferization may compute the tensor right into it, or copies it once.
    Runs first in amp's lowering pipelines.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FillPerInit : Pass<"amp-fill-per-init"> {
  let summary = "Give every destination that starts as a constant fill a "
                "fill of its own";
  let description = [{
    CSE merges identical fills: the zero every sum, matmul or max starts
    from is one `linalg.fill` (or its generalized form, a `linalg.generic`
    without inputs that yields a value defined above it) of one
    `tensor.empty`, read as the destination (init) of every such op.
    One-Shot Bufferize can let only one of them write in place into the
    filled buffer; the others get a copy of it (`memref.copy`, run on one
    thread): the digits transformer copied 19 buffers per call.

    Each destination operand of a destination-style op that is a constant
    fill of a `tensor.empty` shared with other users, or a
    `tensor.expand_shape`/`collapse_shape` of one, gets a fill of its own
    in its own type, placed right before its user; the first destination
    user of a fill keeps it. Fills and reshapes left without users are
    erased. Static shapes only. Runs right before bufferization in amp's
    lowering pipelines.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PropagateLayouts : Pass<"amp-propagate-layouts"> {
  let summary = "Store elementwise results in the layout of their inputs";
  let description = [{
    A model imported from ONNX computes in NCHW around convolutions that
    amp runs in NHWC; elementwise fusion folds the transposes between them
    into the elementwise kernels. When such a kernel's result has several
    users (a squeeze-excitation block's activation, read by a global pool
    and by the product with its scale) it is stored in NCHW: the kernel
    reads along channels and writes along columns, and one of the two is
    a gather or a scatter of single elements.

    For each result of an elementwise `linalg.generic` on tensors whose
    destination is a `tensor.empty` it does not read, and whose users are
    all `linalg.generic`s reading it as an input, the result's layout may
    be changed to the one its largest input is read in (the permutation of
    the loops that input's indexing map is): the op's output map becomes
    that map, and each user's map of the result is composed with the
    permutation, so that every user reads the same elements. The change is
    made when it lowers the elements, over the op and those users, that a
    vectorized kernel would read or write one at a time: in each op, those
    of the operands whose innermost index is not the loop most of the
    operands' elements are innermost along (an operand read along a
    reduction loop, a row reduction's row, counts for neither). A
    contraction's kernel reads each operand along the loop its layout has
    innermost (a matmul's A along k, its B along the output's columns), so
    no change may alter which loop that is: attention's `K^T` stays a
    transpose rather than a matmul operand read across its columns.

    An elementwise generic whose outputs are all written through one
    permutation of its loops other than the identity then has its loops
    interchanged (`linalg::interchangeGenericOp`) so that it writes them in
    loop order: the activation after a convolution, stored in NHWC but
    iterated in NCHW, becomes a kernel's epilogue (which reads the
    convolution's result element by element through the identity map).
    Runs in amp's CPU pipeline before elementwise fusion.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PoolsInNeighbourLayout : Pass<"amp-pools-in-neighbour-layout"> {
  let summary = "Compute pools that sit between a transpose and its inverse "
                "in the layout around them";
  let description = [{
    amp's ONNX importer gives a pool of an NCHW model the transposes to and
    from NHWC that TOSA's pools take. Between convolutions (which amp runs
    in NHWC) those transposes cancel; a pool whose neighbours compute in
    NCHW (a lone pool, one at a model's input or output) keeps both, and
    moves every element through two transposes for one window reduction.

    A window reduction is a `linalg.generic` on tensors with reduction
    loops and one output, one input read in its body and any others (the
    window's shape) not read, whose body combines with `arith.maximumf`,
    `minimumf`, `maxnumf`, `minnumf` or `addf` only (max, min and sum
    pools; a convolution multiplies). Where its input is a transpose (a
    generic that yields its input read through a permutation) used only by
    it, its output is a fill (a `linalg.fill`, or a generic that yields a
    value from above), and its only user is a transpose, the pool reads
    the first transpose's input (the permutation composed with its map)
    and writes a fill of the second transpose's result type through the
    inverse of the second's permutation composed with its output map; the
    second transpose's result is replaced, and the transposes are left
    dead. Its loops are then interchanged into the order of the output's
    dimensions, window loops innermost.

    On Zen 4, a 2x2 max pool of a 64x512x512 NCHW image took 26-34 ms with
    the transposes and 9 ms without. Runs in amp's CPU pipeline before unit
    dimensions are folded away.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PadInPlace : Pass<"amp-pad-in-place"> {
  let summary = "Fill only a padded tensor's border and compute its interior "
                "in place";
  let description = [{
    One-Shot Bufferize lowers `tensor.pad` to a fill of the whole padded
    buffer and a copy of the source into its interior: the interior is
    written twice and the source computed in a temporary of its own.
    Before a convolution with padding, that was the largest part of the
    memory traffic of ocr-cls's depthwise layers.

    Each `tensor.pad` of static shape, static padding and a constant
    padding value becomes a `tensor.empty` of the padded shape whose
    border slabs (the low and high padding of each dimension) are filled
    with the value, and whose interior receives the source through
    `tensor.insert_slice`. When the source is the only use of a result of
    an elementwise linalg op that does not read that result's destination,
    the op gets the interior (`tensor.extract_slice`) as its destination
    instead, and the fills move before it: after bufferization it writes
    straight into the padded buffer and nothing is copied. Runs right
    before bufferization in amp's CPU pipeline.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConcatInPlace : Pass<"amp-concat-in-place"> {
  let summary = "Compute the pieces of a concatenation, and of its padding, "
                "in place";
  let description = [{
    A concatenation on tensors (ONNX `Concat`, `tensor.concat` once
    decomposed) is a chain of `tensor.insert_slice`s into a `tensor.empty`.
    Empty-tensor elimination lets the producer of a piece write into the
    concatenation's buffer only when that buffer exists before it: a
    U-Net's skip connection, computed long before the decoder's
    upsampling that it is concatenated with, was copied. And a
    concatenation that a convolution pads was copied once more, into the
    padded buffer (amp-pad-in-place takes only a pad of an op's result).

    A concatenation here is a chain of insertions with static offsets,
    sizes and unit strides of disjoint slices into a `tensor.empty` of
    static shape, each link of the chain used only by the next. It is
    rebuilt with its destination created before the first of its pieces
    is computed and each piece inserted right after the op that computes
    it. When that op is a linalg op whose loops are all parallel and that
    does not read the destination of the piece, it gets the piece's slice
    of the chain as its destination: after bufferization it writes into the
    concatenation's buffer, and its other users read it there.

    A `tensor.pad` with a constant value of a concatenation (directly or
    through a `tensor.collapse_shape` that only drops unit dimensions)
    becomes the concatenation into the padded tensor: its border slabs
    filled as amp-pad-in-place fills them, the pieces inserted at their
    offsets plus the low padding. Runs right before amp-pad-in-place in
    amp's CPU pipeline.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
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
    hand, which that pipeline does not accept; it is left as it is. The
    functions are processed in parallel (a nested pass pipeline on the
    context's threads): after `amp-outline-kernels`, a model's kernels.
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
    canonicalizations of the ops involved. One reshape is not folded: an
    `expand_shape` that splits the innermost dimension of a reduction's
    result into several (a matmul's 96 columns as 3 heads x 4 x 8) stays a
    view of the result, since expanding the matmul would leave its kernel
    vectors of 8 lanes instead of 16.

    A transpose of a concatenation (an elementwise `linalg.generic` reading
    one input through a permutation into a `tensor.empty`, whose input is a
    chain of static `tensor.insert_slice`s into a `tensor.empty` used by
    nothing else) becomes the concatenation of the transposed pieces: each
    piece is transposed by a generic of its own and inserted at its place
    in the transposed result, where it fuses with the piece's producer. A
    network that concatenates feature maps in NCHW and convolves them in
    NHWC (ocr-det's four upsampled branches, 96x64x80) then computes each
    branch in NHWC; the transpose, which read its input one element at a
    time, is gone.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TileContractionsForGPU : Pass<"amp-tile-contractions-for-gpu"> {
  let summary = "Run contractions on buffers as GPU kernels that tile them "
                "in workgroup memory and keep accumulators in registers";
  let description = [{
    Replaces every contraction on buffers that both GPU backends' strategy
    takes (`amp::matchGPUContraction`: matmul, batch matmul, transposed
    operands, the two products of attention; any number of batch
    dimensions, one m, one n and one k dimension, identity-layout buffers
    of static shape, any side-effect-free body) by a `gpu.launch`:

    - each workgroup computes a `tileM x tileN` block of the output (the
      grid's z dimension runs over the batch);
    - each k step of `tileK` elements is staged in `#gpu.address_space<
      workgroup>` buffers, two of each operand: the next step is loaded from
      global memory before the current step's arithmetic and stored to the
      other buffer after it, with one `gpu.barrier` per step;
    - each thread keeps a `threadM x threadN` tile of accumulators (the op's
      output type, f32 for amp's f16/bf16 contractions) in registers
      through the whole reduction, applies the op's body for k = 0, 1, ...
      in order, and stores each output once;
    - shapes that are no multiple of the tiles are masked: operand reads
      past an end are clamped to the last row or column (they feed only
      outputs that are not stored), the last k step has its own static
      length, and stores are guarded.

    A `linalg.fill` of the output right before the op becomes the
    accumulators' initial value. The tile sizes come from
    `amp::chooseGPUContractionConfig` unless the op carries an
    `amp.lowering_config = {workgroup = array<i64: M, N, K>, thread =
    array<i64: M, N>}` attribute; the launch carries the configuration it
    used. An attribute that is malformed or that the target cannot run
    (more than 1024 threads, more than 48 KiB of workgroup memory) is an
    error. Ops the strategy does not take are left to the loop lowering.

    The backends give the workgroup buffers their target's form:
    `amp-workgroup-allocs-to-attributions` (NVVM) and
    `amp-workgroup-allocs-to-spirv` (SPIR-V).
  }];
  let options = [
    Option<"minWorkgroups", "min-workgroups", "int64_t", /*default=*/"128",
           "Fewest workgroups a tiling should give before smaller tiles are "
           "preferred">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def ReduceRowsInWorkgroups : Pass<"amp-reduce-rows-in-workgroups"> {
  let summary = "Run row reductions on buffers as GPU kernels that reduce "
                "each row across a workgroup";
  let description = [{
    Replaces every row reduction on buffers that the GPU strategy takes
    (`amp::matchGPURowReduction`: one reduction loop, the last, of at least
    `min-row-size` elements; a body that yields `combiner(x, acc)` with an
    associative and commutative combiner: addf, mulf, maximumf, minimumf,
    maxnumf, minnumf) by a `gpu.launch` with one workgroup per row (softmax's
    max and sum, layer norm's mean and variance, `linalg.reduce`):

    - each thread reduces elements `tid, tid + W, ...` of the row in a
      register, starting from the combiner's identity;
    - with `subgroup-size` S > 0, the threads of each subgroup combine
      their results with `gpu.shuffle xor` (log2 S steps), the subgroups'
      results meet in workgroup memory after one barrier and the first
      subgroup combines them the same way; with S = 0 (targets without
      subgroup shuffles) a tree through workgroup memory with a barrier per
      level does it;
    - thread 0 combines the row's result with the output's old value and
      stores it.

    The workgroup has `workgroup-size` threads, or the power of two that
    holds a shorter row. Results differ from a sequential loop by the
    rounding of another summation order.
  }];
  let options = [
    Option<"workgroupSize", "workgroup-size", "int64_t", /*default=*/"256",
           "Most threads per row (a power of two)">,
    Option<"subgroupSize", "subgroup-size", "int64_t", /*default=*/"0",
           "Threads that shuffle values among themselves (a power of two; 0 "
           "combines through workgroup memory only)">,
    Option<"minRowSize", "min-row-size", "int64_t", /*default=*/"64",
           "Shortest row reduced by a workgroup (shorter ones stay one "
           "thread's loop)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def FuseRowsInWorkgroups : Pass<"amp-fuse-rows-in-workgroups"> {
  let summary = "Run runs of row ops on buffers (softmax, layer norm) as one "
                "GPU kernel that reads each row once";
  let description = [{
    Finds runs of consecutive ops on buffers over the same rows
    (`amp::matchGPURowSequence`): fills of per-row buffers, row reductions,
    elementwise ops over the rows' elements and over the rows, indexed by
    row and element, with at least one reduction and rows of at least
    `min-row-size` elements. Softmax (max, exp, sum, divide) and layer norm
    (sum, mean, squared deviations, sum, normalisation) are such runs.
    Each run becomes one `gpu.launch` with a workgroup per row whose thread
    t holds elements t, t + W, ... of every row-sized value in registers
    (at most `max-elements-per-thread` of them): the row is read from
    memory once, each reduction combines across the workgroup
    (`amp::combineAcrossWorkgroup`: `gpu.shuffle` within subgroups of
    `subgroup-size` threads, or a tree through workgroup memory with 0) and
    hands its value to every thread, and only buffers read after the run
    are stored; temporaries only the run used disappear.

    Before (softmax, after bufferization):
    ```mlir
    linalg.generic ... outs(%max)               // fill -inf
    linalg.generic ... ins(%x) outs(%max)       // max over the row
    linalg.generic ... ins(%x, %max) outs(%e)   // exp(x - max)
    linalg.generic ... outs(%sum)               // fill 0
    linalg.generic ... ins(%e) outs(%sum)       // sum over the row
    linalg.generic ... ins(%e, %sum) outs(%e)   // e / sum
    ```
    After: one `gpu.launch` that loads each element of `%x` once and stores
    each element of `%e` once.

    Sums are combined in another order than the loops', as in
    `amp-reduce-rows-in-workgroups`, which takes the reductions this pass
    leaves (longer rows).
  }];
  let options = [
    Option<"workgroupSize", "workgroup-size", "int64_t", /*default=*/"256",
           "Most threads per row (a power of two)">,
    Option<"subgroupSize", "subgroup-size", "int64_t", /*default=*/"0",
           "Threads that shuffle values among themselves (a power of two; 0 "
           "combines through workgroup memory only)">,
    Option<"minRowSize", "min-row-size", "int64_t", /*default=*/"16",
           "Shortest row a run is fused for (one kernel instead of one per "
           "op pays even for short rows)">,
    Option<"maxElementsPerThread", "max-elements-per-thread", "int64_t",
           /*default=*/"16",
           "Most elements of a row each thread holds in registers (rows of "
           "up to workgroup-size times this many elements)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // AMP_BACKEND_COMMON_PASSES_TD

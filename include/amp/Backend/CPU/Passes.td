//===- Passes.td - lowering passes for the CPU (LLVM) ------*- tablegen -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_CPU_PASSES_TD
#define AMP_BACKEND_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def PackWeights : Pass<"amp-pack-weights"> {
  let summary = "Transpose constant operands of reductions so that kernels "
                "read them as vectors";
  let description = [{
    The kernels of amp-vectorize-contractions read an input as vectors
    along the output's innermost dimension only when that dimension is the
    input's innermost index too. Weights are usually constants stored the
    other way round: an ONNX or TOSA convolution's filter is `(f, kh, kw,
    c)` with `f` the output's innermost (channel) dimension, a linear
    layer's weight `(n, k)`. This pass runs on tensors, before
    bufferization: for each `linalg.generic` that reduces, has one output
    whose indexing map is a projected permutation, and an input defined by
    a dense constant (`dense` or `dense_resource`, not a splat) that
    indexes the output's innermost dimension other than innermost, it
    transposes the constant at compile time so that this dimension becomes
    its innermost (the other dimensions keep their order) and rewrites the
    input's indexing map to match. The constant keeps its element type: a
    weight converted to f16 or bf16 is packed in f16 or bf16.

    With `bf16-pairs`, the constant input of an op whose body is `acc +
    extf(a) * extf(b)` on bf16 `a`, `b` (an f32 accumulation of bf16
    products) goes instead, when the last reduction dimension `k` has an
    even range, the output's innermost `n` a range divisible by 4, and the
    other input indexes `k` only innermost and not `n`, to the pair layout
    `(..., k floordiv 2, n, k mod 2)` that the AVX512-BF16 dot product of
    amp-vectorize-contractions{bf16-dot} reads: a `(k, n)` weight of shape
    `KxN` becomes `(K/2)xNx2`.

    Before:
    ```mlir
    %w = arith.constant dense<...> : tensor<32x3x3x16xf32>
    linalg.generic {indexing_maps = [(n, h, w, f, kh, kw, c) -> (n, h + kh, w + kw, c),
                                     (n, h, w, f, kh, kw, c) -> (f, kh, kw, c),
                                     (n, h, w, f, kh, kw, c) -> (n, h, w, f)], ...}
        ins(%x, %w : ...) outs(%y : tensor<450x8x8x32xf32>)
    ```
    After:
    ```mlir
    %w = arith.constant dense<...> : tensor<3x3x16x32xf32>
    linalg.generic {indexing_maps = [(n, h, w, f, kh, kw, c) -> (n, h + kh, w + kw, c),
                                     (n, h, w, f, kh, kw, c) -> (kh, kw, c, f),
                                     (n, h, w, f, kh, kw, c) -> (n, h, w, f)], ...}
        ins(%x, %w : ...) outs(%y : tensor<450x8x8x32xf32>)
    ```
  }];
  let options = [
    Option<"bf16Pairs", "bf16-pairs", "bool", /*default=*/"false",
           "Put the constant weights of bf16 product sums in the pair "
           "layout of amp-vectorize-contractions{bf16-dot}">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def WidenReusedInputs : Pass<"amp-widen-reused-inputs"> {
  let summary = "Widen the f16 or bf16 inputs that a reduction reads many "
                "times once, before it";
  let description = [{
    A contraction of f16 or bf16 operands that sums in f32 widens its
    operands in its body (`acc + extf(a) * extf(b)`), and the kernels of
    amp-vectorize-contractions widen them where the body does: once per
    read. A matmul reads each element of `B[k, j]` once per tile of rows
    and each element of `A[i, k]` once per tile of columns, each a
    conversion (`vcvtph2ps`, or two integer ops for bf16) that costs about
    two f32 multiply-adds, and a scalar of `A` broadcast to a vector takes
    a whole vector's conversion. Widened once, before the op, the inputs
    are read as f32 and the kernel is the f32 kernel.

    This pass runs on tensors, before bufferization: for each
    `linalg.generic` that reduces, each input whose block argument only
    `arith.extf` ops use (all to the same type) and that the kernel would
    widen `min-widenings` times or more per element becomes an elementwise
    `linalg.generic` that widens the whole tensor; the block argument takes
    the wide type and the extfs go. The kernel's widenings per element are
    the op's reads of it (its loops' iterations over the input's
    elements), over the rows of a tile (at most `tile-rows`) for an input
    read as vectors, which a tile's rows share when the input does not
    index the output dimension they lie along: a 512^3 matmul's `B[k, j]`
    is widened 512 / 8 = 64 times per element, `A[i, k]`, a broadcast
    scalar, 512 times (each a whole vector's conversion); with 4 rows, `B`
    once, and it stays. A depthwise 3x3 convolution widens its input about
    9 times per element. An input made by a `tensor.pad` of a static source
    with a constant padding value becomes the pad of the widened source,
    so that amp-pad-in-place still writes the widening into the padded
    buffer. Inputs read about once per element (a sum, a global pool, a
    matmul's weights for a few rows) keep their casts in the kernel, which
    then moves half the bytes. The products and sums are those of the same
    widened values in the same order: results are bit-identical.

    With `keep-bf16-products` (set with amp-vectorize-contractions{bf16-dot}),
    the bf16 inputs of `acc + extf(a) * extf(b)` stay: the AVX512-BF16 dot
    product reads them as they are.

    Before:
    ```mlir
    linalg.generic {indexing_maps = [(i, j, k) -> (i, k), (i, j, k) -> (k, j),
                                     (i, j, k) -> (i, j)],
                    iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %w : tensor<64x32xf16>, tensor<32x16xf16>)
        outs(%acc : tensor<64x16xf32>) {
      ^bb0(%x: f16, %y: f16, %s: f32):
        %xw = arith.extf %x : f16 to f32
        %yw = arith.extf %y : f16 to f32
        %p = arith.mulf %xw, %yw : f32
        %r = arith.addf %s, %p : f32
        linalg.yield %r : f32
    } -> tensor<64x16xf32>
    ```
    After (`%a`, a broadcast scalar, is widened 16 times per element, `%w`
    64 / 8 = 8 times):
    ```mlir
    %aw = linalg.generic {...} ins(%a : tensor<64x32xf16>)
        outs(%e0 : tensor<64x32xf32>) {
      ^bb0(%x: f16, %o: f32):
        %xw = arith.extf %x : f16 to f32
        linalg.yield %xw : f32
    } -> tensor<64x32xf32>
    %ww = linalg.generic {...} ins(%w : tensor<32x16xf16>) ...
    linalg.generic {...} ins(%aw, %ww : tensor<64x32xf32>, tensor<32x16xf32>)
        outs(%acc : tensor<64x16xf32>) {
      ^bb0(%x: f32, %y: f32, %s: f32):
        %p = arith.mulf %x, %y : f32
        %r = arith.addf %s, %p : f32
        linalg.yield %r : f32
    } -> tensor<64x16xf32>
    ```
  }];
  let options = [
    Option<"minWidenings", "min-widenings", "double", /*default=*/"2",
           "Widen an input once where the kernel would widen each element "
           "at least this many times (at least 1)">,
    Option<"tileRows", "tile-rows", "int64_t", /*default=*/"8",
           "The rows of amp-vectorize-contractions' tiles, which share each "
           "vector read (its `rows`)">,
    Option<"keepBF16Products", "keep-bf16-products", "bool",
           /*default=*/"false",
           "Leave the bf16 inputs of bf16 product sums, for "
           "amp-vectorize-contractions{bf16-dot}">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def VectorizeContractions : Pass<"amp-vectorize-contractions"> {
  let summary = "Register-tiled vector kernels for contractions, "
                "convolutions and pools on buffers";
  let description = [{
    Replaces each linalg op on buffers that reduces (a matmul, a
    convolution, a pool, a sum along an outer dimension) with loops around a
    register tile: `rows` output vectors of up to `lanes` elements, along
    the output's innermost dimension (the *vector dimension*) and one other
    output dimension (the *row dimension*). The tile's accumulators are
    loaded once, carried through the reduction loops in registers, and
    stored once; each reduction step reads every input once per tile -- a
    vector when the input indexes the vector dimension, otherwise a scalar
    that is broadcast -- unless the input indexes the row dimension (then
    once per row), and applies the op's body to whole vectors. The body's
    casts stay where they are: an f16 or bf16 operand is loaded in its type
    and widened in registers (amp-lower-to-llvm runs
    amp-widen-reused-inputs first, which widens once the operands that an
    op reads many times). A product that only an addition uses becomes a
    `vector.fma`. The reductions run in the op's order, so each output
    element sums its terms in the same order as the op's loops would
    (with blocks, below: block by block, each in the op's order).

    The tiles run in the op's order of parallel loops, the vector tiles
    innermost, unless the inputs that no parallel loop but the vector
    dimension indexes (a convolution's filter, a matmul's B: every tile of
    rows reads them whole) take more than 512 KiB, about half a Zen 3/4
    core's L2: then the loop over the vector tiles goes outermost, so that
    each tile of rows reads the same slice of them, from the cache, instead
    of all of them from memory (a 3x3 convolution from 1536 to 512 channels
    on 32x32, 28 MiB of filter: 0.6 s before, 0.19 s after on Zen 4).

    Where the slice one vector tile reads still takes more than 256 KiB (a
    quarter of a Zen 4 core's L2: that convolution's is 1.8 MB), it is
    read a block of one reduction dimension at a time: the innermost one
    that those inputs all index (the input channels), in the fewest blocks
    of a multiple of 8 that divide its range and whose slices fit, the loop
    over the blocks outermost. Each tile then starts at the sums the blocks
    before stored in the op's output (the first at the fill, if any), adds
    its block's products and stores them; an epilogue applies to the last
    block's sums. The other inputs that the blocks divide (the image) are
    read a block at a time too, by every vector tile: this is done only
    where they take at most 8 MiB and stay in the cache between vector
    tiles, since reading part of each row of an image that streams from
    memory cost more than the blocks saved (Zen 4, one thread: the
    1536-to-512 convolution 0.23 s before, 0.15 s after; from 384 to 128
    channels on 128x128, 26 MB of image, 0.15 s unblocked, 0.17 s blocked).

    The row dimension is chosen so that the rows share the vector reads (for
    a matmul `C[i, j] += A[i, k] * B[k, j]` with `j` as the vector
    dimension, the rows are `i`: one vector of `B` per step, one scalar of
    `A` per row), the one with the most rows per tile on average. Its
    range is covered by the fewest tiles of at most `rows` rows, all of the
    same rows but the last, which takes what remains (11 rows, at most 4 a
    tile: 4, 4 and 3), so that no range, a prime one included, falls back
    to tiles of one row. Each row of a tile is up to `cols` vectors side by
    side along the vector dimension when the reduction has more steps than
    the tile has accumulators (`rows` times `cols`): a scalar read (or a
    bf16 pair broadcast) then serves every vector of its row, so a tile of 8
    rows by 2 vectors makes 16 multiply-adds per 10 reads instead of 8 per
    9, and keeps 16 independent sums in flight. (On a shorter reduction
    the tile mostly loads and stores its accumulators, and the wider tile
    measured slower.) Whole vectors that do not fill a tile end the
    dimension in one narrower tile, and a vector dimension whose range
    `lanes` does not divide ends in one shorter vector.

    Ops are taken when they have static loop ranges, one output indexed by
    parallel dimensions only, at least one reduction, inputs that index the
    vector dimension (if at all) only as their innermost index, no `i1`
    buffers, and a body of scalar elementwise ops without `linalg.index`.
    Others are left to amp-vectorize-for-cpu.

    A fill of the output right before the op (`linalg.fill`, or a generic
    without inputs that yields a constant or a value from outside, with an
    identity map on the same buffer) is folded into the kernel when the op
    writes every output element and reads no view of its output as an
    input: the accumulators start at the filled value, and the fill, a
    pass over the whole output before the kernel reads it back, is erased.

    With `bf16-dot` (for CPUs with AVX512-BF16), an op whose body is
    `acc + extf(a) * extf(b)` on bf16 `a`, `b` and f32 `acc`, and whose
    input is in the pair layout that `amp-pack-weights{bf16-pairs}` gives
    constant weights (`(..., k floordiv 2, n, k mod 2)`: the two
    consecutive `k` of each `n` side by side, `k` the last reduction), is
    reduced two `k` at a time: each step reads the pairs of all of a
    tile's lanes as one vector, broadcasts the other input's pair `(k,
    k + 1)` (its innermost index) to every lane, and accumulates with
    `x86vector.avx512.dot` (`vdpbf16ps`: both products, exact in f32, are
    added to the lane). Tiles have 16, 8 or 4 lanes (512, 256 or 128
    bits): 16 where the vector dimension's range (a multiple of 4) has
    them, what remains in a tile of 8 lanes and one of 4 at most. The instruction
    treats bf16 subnormal inputs (below 1.2e-38) as zero and sums each
    pair before adding it: results differ from the f32 sum in order only.
    Two computed bf16 tensors (attention's scores and weighted values: no
    packed constant) take the same instruction when one indexes `n` as
    its innermost index and `k` as another, and the other indexes `k` as
    its innermost index and not `n`, and `k`'s range is even: each step
    reads the first one's vectors at `k` and `k + 1` and interleaves them
    (`vector.interleave`) into the pairs; the row dimension is then one it
    does not index, so the pairs serve the whole tile. Where the vector
    dimension's range is not a multiple of 4, or `k`'s range is odd, the kernel widens
    each operand instead.

    An elementwise op right after the op that reads its output element by
    element (`amp::getContractionEpilogue`: a bias, an activation, a
    residual, a scale, a cast; a `linalg.generic` with parallel loops over
    the output's shape, identity maps on its output and on that input,
    other inputs read along the innermost dimension only as their
    innermost index or its output itself read in place, writing neither
    the op's inputs nor a different view of its output; "right after"
    past linalg ops on other buffers allocated in the function, such as
    the border fills of the padded buffer whose interior the epilogue
    writes) is its *epilogue*: each tile's results are stored, then
    the epilogue's body runs on them (its products and sums kept apart, as
    its own loops compute them, so results are bit-identical) and its
    result is stored into its output (once only when that is the op's
    output), and the epilogue op is erased. A pass over the output is
    saved, and with threads a barrier (amp-distribute-for-threads puts the
    epilogue into the op's slices). Where the op's output is a buffer
    allocated in the function that nothing but the op, its fill and the
    epilogue accesses (a convolution's f32 sums that batch norm and a cast
    to bf16 read), the tiles' results are not stored at all: only the
    epilogue's are, and the temporary goes.

    Padding rows are skipped. A convolution of a small feature map with a
    large window reads a padded buffer that is mostly zero rows (a 5x5
    window over 2 rows pads them to 6; a 3x3 window dilated by 4 over 16
    rows pads them to 24). Where an input is indexed by
    `stride * oh + dilation * kh` (`oh` a loop outside the tile, `kh` a
    reduction), directly or through a collapse of unit dimensions (an
    image's batch of one, folded), and its buffer, allocated in the
    function, has whole slabs of rows at
    either end that zero fills before the op write and that no other op
    writes (the padding's columns may be zero-filled too; any other access
    stays within the rows between the slabs), the `kh` loop of each output
    row steps only over the window rows that meet the rows between the
    slabs. Each output then sums the same nonzero products as before (the
    products left out are with zero; a filter holding an infinity or NaN
    would have made them NaN). The slabs' fills, which nothing reads then,
    are erased. Ops split over threads (`amp-distribute-for-threads`) are
    taken too: a fill, copy or op in an `scf.forall` whose slices step
    through a dimension counts as the whole of that dimension, and a slice
    of the convolution along its rows bounds `kh` from its own row offset.
    (Ops are vectorized last first, so the op that writes the rows
    between the slabs is still a linalg op when the convolution reading
    them is looked at, even where it becomes an earlier kernel's
    epilogue.)

    Before (`lanes=16 rows=4`):
    ```mlir
    linalg.generic {indexing_maps = [(i, j, k) -> (i, k), (i, j, k) -> (k, j),
                                     (i, j, k) -> (i, j)],
                    iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : memref<8x64xf32>, memref<64x32xf32>)
        outs(%c : memref<8x32xf32>) {
      ^bb0(%x: f32, %y: f32, %acc: f32):
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        linalg.yield %s : f32
    }
    ```
    After:
    ```mlir
    scf.for %i = %c0 to %c8 step %c4 {
      scf.for %j = %c0 to %c32 step %c16 {
        %c_0 = vector.transfer_read %c[%i, %j] ... : vector<16xf32>
        ... (rows 1 to 3)
        %r:4 = scf.for %k = %c0 to %c64 step %c1
            iter_args(%acc0 = %c_0, ...) -> (vector<16xf32>, ...) {
          %bk = vector.transfer_read %b[%k, %j] ... : vector<16xf32>
          %a0 = memref.load %a[%i, %k] : memref<8x64xf32>
          %a0v = vector.broadcast %a0 : f32 to vector<16xf32>
          %s0 = vector.fma %a0v, %bk, %acc0 : vector<16xf32>
          ... (rows 1 to 3)
          scf.yield %s0, %s1, %s2, %s3 : ...
        }
        vector.transfer_write %r#0, %c[%i, %j] ... : vector<16xf32>, ...
        ... (rows 1 to 3)
      }
    }
    ```
  }];
  let options = [
    Option<"lanes", "lanes", "int64_t", /*default=*/"16",
           "Elements of each vector (whatever their type)">,
    Option<"rows", "rows", "int64_t", /*default=*/"8",
           "The most output vectors of a tile along the row dimension">,
    Option<"cols", "cols", "int64_t", /*default=*/"2",
           "The most output vectors of a tile's row, side by side along the "
           "vector dimension">,
    Option<"bf16Dot", "bf16-dot", "bool", /*default=*/"false",
           "Reduce bf16 products in pairs with x86vector.avx512.dot "
           "(AVX512-BF16) where an input is in the pair layout">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::x86vector::X86VectorDialect"];
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
    the vectorizer rejects, whose vector dimension is a reduction (but see
    below), ops on `i1` buffers (a memref stores a byte per `i1`, a vector
    of `i1` is packed bits), and ops that compute `math.fpowi` (LLVM's
    `powi` takes a scalar exponent).

    Where an operand that the vector dimension indexes has another parallel
    dimension as its innermost index (the input of a transpose between
    NCHW and NHWC, or its output), that dimension is tiled too: tiles of at
    most 8 lanes along the vector dimension by 4 (at least 4, a power of
    two dividing its range) along the other, vectorized into 2-d vectors.
    The operand is read (or written) in rows along its own innermost index
    and turned in registers by a `vector.transpose`, instead of one element
    at a time; the loop along the other dimension is innermost and the one
    along the vector dimension next, so that each tile reads on in the rows
    the last one read. (Wider tiles read more rows at once, which with the
    power-of-two distance between an image's planes fall into the same
    cache sets: on Zen 4, a 64-channel 512x512 transpose took 12-14 ms in
    8x4 tiles, 22-30 ms in 16x16 ones, 46 ms one element at a time.)

    Reductions along their inputs' innermost index (the row sums and sums
    of squares of a layer norm, a softmax's maximum and sum), which LLVM
    would leave as one scalar chain per output element (it does not
    reorder floating-point sums), are taken first, by their own kernel
    (`amp::vectorizeInnerReduction`): an op on buffers with one reduction
    dimension `r`, one float output indexed by all its parallel dimensions,
    inputs that index `r` only as their innermost index, and a body that
    yields `combiner(acc, term)` (`arith.addf`, `mulf`, `maxnumf`,
    `minnumf`, `maximumf` or `minimumf`, the accumulator used only there).
    For each output element, `term` is computed on vectors of the largest
    power of two within `vector-size` (at least 4) that divides the range of
    `r`, combined lane by lane along `r`, and the lanes are combined at the
    end by a `vector.reduction` with `reassoc`. Up to 8 consecutive output
    elements along the output's innermost index (a power of two dividing
    its range, within the lanes) are reduced together: their partial
    vectors are combined pairwise, each row's lanes halved per step (lane
    `i` with lane `i + w/2`, as `vector.reduction` pairs them), into one
    vector of results, stored as a vector; a softmax over rows of 8 thus
    takes 7 vector maxima per 8 rows instead of 8 scalar chains (LLVM
    expands a `maxnumf` reduction one lane at a time). A sum thus adds its terms
    as interleaved partial sums and then a tree, not in order: as accurate
    (usually more), deterministic, and the same for any thread count. A
    fill of the output right before the op is folded, as in
    `amp-vectorize-contractions`.

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
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def DistributeForThreads : Pass<"amp-distribute-for-threads"> {
  let summary = "Split linalg ops on buffers into one slice per thread "
                "(scf.forall)";
  let description = [{
    Runs before `amp-vectorize-for-cpu` when amp's CPU code is to use
    `threads` threads (`amp-lower-to-llvm{threads=N}`, `amp-run --threads`).
    Each linalg op on memrefs with static loop ranges and at least
    `min-iterations` iterations is tiled along one parallel loop dimension
    into `threads` slices of equal size, as an `scf.forall` whose
    iterations the lowering runs on OpenMP threads (`scf.forall` →
    `scf.parallel` → `omp.wsloop`). The dimension is the outermost parallel
    one whose range `threads` divides, so that every slice has static sizes
    and is vectorized as the whole op would be. Reduction dimensions are
    never split: each output element is computed by one thread, in the
    order a single thread would, so results do not depend on the number of
    threads. Ops with no such dimension, with dynamic ranges or with fewer
    iterations (where starting threads costs more than it saves) stay as
    they are. A `memref.copy` of static shape and at least `min-iterations`
    elements (bufferization's, e.g. into a padded buffer's interior) is
    split the same way, as a `linalg.copy`.

    A fill of an op's output right before the op (the initial value of a
    matmul's sums) is not split on its own: it goes into the op's slices,
    each filling its part just before computing it, where
    `amp-vectorize-contractions` folds it into the kernel. Likewise an
    epilogue of an op with reductions (`amp::getContractionEpilogue`: an
    elementwise op right after it, past linalg ops on other buffers
    allocated in the function, that reads its output element by element),
    when the op's output map has the split dimension: the
    epilogue is split along the matching dimension into the same slices,
    and each slice of the op is followed by its slice of the epilogue in
    one `scf.forall` iteration, where the epilogue was (the op's slices
    move past the ops between them, which touch none of its buffers).
    Slice `i` of the epilogue reads only what slice `i` of the op wrote,
    so the threads need no barrier between them.

    Consecutive ops split into slices of the same bounds run in one
    `scf.forall` when their slices line up: wherever one writes a buffer
    the other reads or writes, both access it through the same view with
    the split loop dimension as the same result of a projected permutation
    map (a row-wise chain: matmul, activation, row sum, scale). Slice `i`
    of each op then touches only the part slice `i` of the other touches,
    so each thread runs its slices of the ops one after the other, with no
    barrier between them. Buffers allocated in the function share memory
    only with their own views; two other buffers (arguments) may share
    memory, and ops that write one and access the other are not merged.
    Allocations and pure ops between two such ops move before the first.

    Before (`threads=2`):
    ```mlir
    linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>)
                  outs(%c : memref<64x16xf32>)
    ```
    After:
    ```mlir
    scf.forall (%i) = (0) to (64) step (32) {
      %sa = memref.subview %a[%i, 0] [32, 32] [1, 1] : ...
      %sc = memref.subview %c[%i, 0] [32, 16] [1, 1] : ...
      linalg.matmul ins(%sa, %b : ...) outs(%sc : ...)
    }
    ```
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"2",
           "Slices per op (the threads that run them)">,
    Option<"minIterations", "min-iterations", "int64_t",
           /*default=*/"16384",
           "The fewest loop iterations an op needs to be split">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect"];
}

def MergeParallelRegions : Pass<"amp-merge-parallel-regions"> {
  let summary = "Run consecutive OpenMP parallel regions as one";
  let description = [{
    `amp-distribute-for-threads` splits each large op into one slice per
    thread, and the lowering runs each op's slices as an `omp.parallel`
    region: one fork and join of the threads per op (about 3 µs on amp's
    2-core development VM, where a small model's ops take 20 µs). This pass
    runs after `convert-scf-to-openmp` and merges consecutive
    `omp.parallel` ops of a block that have the same operands and
    attributes into the first of them:

    - the bodies run one after the other; a body that does not end with an
      `omp.wsloop` (whose end is a barrier) is followed by an
      `omp.barrier`, so each starts when the one before has finished on
      every thread;
    - ops between two regions whose results only they use (a small op
      left on one thread, a copy) run in an `omp.single` (one thread, then
      a barrier);
    - pure ops and `memref.alloc`s between them move before the merged
      region, and `memref.dealloc`s after it.

    Moving allocations up and deallocations down keeps more buffers alive
    at once; a region stops growing when the buffers it would allocate
    early would exceed `max-hoisted-bytes`, before ops whose results are
    used after the next region, and at a call or a terminator.

    Before:
    ```mlir
    omp.parallel num_threads(%n : i32) { omp.wsloop { ... } omp.terminator }
    %b = memref.alloc() : memref<64xf32>
    omp.parallel num_threads(%n : i32) { omp.wsloop { ... } omp.terminator }
    ```
    After:
    ```mlir
    %b = memref.alloc() : memref<64xf32>
    omp.parallel num_threads(%n : i32) {
      omp.wsloop { ... }
      omp.wsloop { ... }
      omp.terminator
    }
    ```
  }];
  let options = [
    Option<"maxHoistedBytes", "max-hoisted-bytes", "int64_t",
           /*default=*/"33554432",
           "The most bytes of buffers a merged region may allocate before "
           "it starts">,
  ];
  let dependentDialects = ["::mlir::omp::OpenMPDialect"];
}

def ExcessPrecision : Pass<"amp-excess-precision"> {
  let summary = "Compute bf16 (and optionally f16) arithmetic in f32, "
                "rounding once where a value leaves the computation";
  let description = [{
    A CPU without bf16 arithmetic (or, without AVX512-FP16, f16
    arithmetic) computes each such op in f32 and rounds its result to the
    low type, so that a chain of elementwise ops fused into one loop (a
    convolution's batch norm and activation, say) widens and rounds again
    between every two of its ops. With this pass the chain stays in f32:
    each scalar or vector `arith`/`math` op (and `vector.fma`) whose float
    operands and results are all of a selected low type is computed in
    f32, taking the f32 results of the ops before it as they are, and its
    result is rounded (`arith.truncf`) only for users that are not such
    ops: stores, yields, calls, reductions, and casts.

    This is excess precision, as XLA's `xla_allow_excess_precision` and
    GCC's `-fexcess-precision=fast` allow, within a chain of low-precision
    ops only: a result may differ in its last bit from rounding after every
    op. Every cast the program has stays exact: an `arith.truncf` (amp's
    casts, a user's fake quantisation) still rounds, and an `arith.extf`
    widens the rounded value, so a value leaves a chain of bf16 ops as a
    bf16 value. f16 is off by default: f16 has a smaller range than f32, and
    an intermediate value that would overflow f16 would stay finite here,
    unlike on targets that compute in f16.

    ```mlir
    %t = arith.truncf %acc : vector<16xf32> to vector<16xbf16>
    %s = arith.mulf %t, %scale : vector<16xbf16>
    %r = arith.maximumf %s, %zero : vector<16xbf16>
    // becomes
    %t = arith.truncf %acc : vector<16xf32> to vector<16xbf16>
    %0 = arith.extf %t : vector<16xbf16> to vector<16xf32>
    %1 = arith.extf %scale : vector<16xbf16> to vector<16xf32>
    %2 = arith.mulf %0, %1 : vector<16xf32>
    %3 = arith.extf %zero : vector<16xbf16> to vector<16xf32>
    %4 = arith.maximumf %2, %3 : vector<16xf32>
    %r = arith.truncf %4 : vector<16xf32> to vector<16xbf16>
    ```
  }];
  let options = [
    Option<"bf16", "bf16", "bool", /*default=*/"true",
           "Compute bf16 arithmetic in f32">,
    Option<"f16", "f16", "bool", /*default=*/"false",
           "Compute f16 arithmetic in f32">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def WideConvolutionResults : Pass<"amp-wide-convolution-results"> {
  let summary = "Hand on a convolution's f32 sums where its bf16 (or f16) "
                "result is only widened again";
  let description = [{
    A TOSA convolution on bf16 inputs accumulates in f32 (`acc_type = f32`)
    but returns bf16: TOSA's types tie the result to the inputs. Where the
    program then only widens that result back to f32 (`arith.extf`, through
    transposes and reshapes that have no other user), as amp's conversion
    does for a convolution whose batch norm or activation it keeps in f32,
    the CPU would round every sum to bf16 in the kernel's epilogue and
    widen it again in the next op. This pass makes such a convolution
    (`tosa.conv2d`, `conv3d`, `depthwise_conv2d`, `transpose_conv2d`)
    return its f32 sums instead, with its bias widened, and drops the
    widening: excess precision, as `amp-excess-precision` allows within a
    chain of bf16 ops, on the rounding of the convolution's own result. The
    IR it makes is valid TOSA in the dialect's verifier but not in TOSA's
    profiles (which give a bf16 convolution a bf16 result), so it runs
    inside `amp-lower-to-llvm` (with `excess-precision`, the default), not
    on what amp-opt prints. f16 is off by default, as in
    `amp-excess-precision`.

    ```mlir
    %c = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, ...}
        : (tensor<1x8x8x4xbf16>, tensor<8x1x1x4xbf16>, tensor<8xbf16>,
           tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x8x8x8xbf16>
    %r = arith.extf %c : tensor<1x8x8x8xbf16> to tensor<1x8x8x8xf32>
    // becomes
    %b = arith.extf %bias : tensor<8xbf16> to tensor<8xf32>
    %r = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, ...}
        : (tensor<1x8x8x4xbf16>, tensor<8x1x1x4xbf16>, tensor<8xf32>,
           tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x8x8x8xf32>
    ```
  }];
  let options = [
    Option<"bf16", "bf16", "bool", /*default=*/"true",
           "Hand on the f32 sums of bf16 convolutions">,
    Option<"f16", "f16", "bool", /*default=*/"false",
           "Hand on the f32 sums of f16 convolutions">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tosa::TosaDialect"];
}

def OutlineKernels : Pass<"amp-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Make each loop nest of a function a function of its own";
  let description = [{
    A lowered model is one function whose body is its kernels, one loop
    nest (or OpenMP region) per fused op, one after the other. Compiled as
    one LLVM function, it is one serial compile whose cost grows faster
    than its size, and one symbol in a profile. This pass moves each op
    with regions at the top level of a function (an `scf.for`,
    `scf.forall`, `scf.parallel`, `omp.parallel`, `scf.if`...) into a
    private function of its own and calls it:

    - values the op uses from above become arguments, except constants and
      `memref.get_global`s, which are cloned into the new function (its
      loops keep constant trip counts, its weights known addresses);
    - the op's results become the function's;
    - the function is named after the op's location where it has a name
      (an ONNX node's: `main__p2o_Conv_0`), `<function>__kernel` otherwise,
      made unique, and marked `no_inline` (for MLIR's inliner) and
      `passthrough = ["noinline"]` (which func-to-llvm carries to LLVM,
      whose inliner would otherwise copy a kernel into its caller where
      both land in one partition, compiling it twice).

    Inside an OpenMP region (the threaded pipeline merges the kernels of a
    model into a few regions, to fork the threads once), the ops with
    regions at the top level of each `omp.loop_nest` body are outlined the
    same way, first, and called once per iteration of their worksharing
    loop with its induction variables as arguments; the region alone would
    otherwise be one function as large as the model.

    The object compiler then splits the module into partitions by
    function and compiles them in parallel, and `perf` names each kernel.

    ```mlir
    func.func @main(%a: memref<64xf32>, %b: memref<64xf32>) {
      %c0 = arith.constant 0 : index
      scf.for %i = %c0 to %c64 step %c1 { ... } loc("p2o.Relu.0")
      return
    }
    // becomes
    func.func @main(%a: memref<64xf32>, %b: memref<64xf32>) {
      call @main__p2o_Relu_0(%a, %b) : (memref<64xf32>, memref<64xf32>) -> ()
      return
    }
    func.func private @main__p2o_Relu_0(%a: memref<64xf32>, %b: memref<64xf32>)
        attributes {no_inline, passthrough = ["noinline"]} {
      %c0 = arith.constant 0 : index
      scf.for %i = %c0 to %c64 step %c1 { ... }
      return
    }
    ```
  }];
  let options = [
    Option<"minOps", "min-ops", "int64_t", /*default=*/"1",
           "Ops with fewer operations in their regions stay inline (at "
           "least 1)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def ConvertVectorToLLVMPerFunction
    : Pass<"amp-convert-vector-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Upstream's convert-vector-to-llvm, function by function in "
                "parallel where that is safe";
  let description = [{
    `convert-vector-to-llvm` is a big rewrite of every function of a
    lowered model: run on the module, it is one serial pass over all of
    them (0.14 s of PaddleOCR's classifier's 0.8 s lowering). Each kernel
    being a function of its own (`amp-outline-kernels`), this pass runs it
    nested on each `func.func`, which the pass manager spreads over the
    context's threads.

    One of its patterns is not local to a function: `vector.print`
    declares `printf`-like functions in the module, which a nested pass
    must not do. Where the module holds a `vector.print`, or an op other
    than `func.func` with regions at its top level (a `gpu.module`, an
    `llvm.func`), the pass runs on the module as upstream's does. The
    result is the same either way.
  }];
  let options = [
    Option<"x86Vector", "x86-vector", "bool", /*default=*/"false",
           "As convert-vector-to-llvm's x86-vector: lower the x86vector "
           "dialect's ops (the AVX512-BF16 dot product)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def BoundLLVMUnrolling : Pass<"amp-bound-llvm-unrolling"> {
  let summary = "Keep LLVM from unrolling loops that hold loops";
  let description = [{
    amp's kernels come out of vectorization with their register tiles
    unrolled and their innermost loops short. LLVM's unrollers (full and
    runtime) would unroll the loops around them as well, copying inner
    loops by the outer trip count: PaddleOCR's classifier fills the border
    of a padded input row by row, a loop of 12-byte fills that LLVM turned
    into 1175 `memset`s in one basic block, and the code of the model
    doubled. LLVM's time grows faster than the code, as its machine
    scheduler orders every memory access of a block against the others:
    6 of the classifier's 8 seconds of LLVM went there.

    Run before `convert-scf-to-cf`, this pass marks each `scf.for` that
    holds another loop and runs at least `min-trips` times (or an unknown
    number of times) with the discardable attribute
    `llvm.loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>`,
    which `convert-scf-to-cf` carries to the loop's latch branch. Run after
    the conversion to the LLVM dialect, it moves each such attribute into
    the `loop_annotation` of the `llvm.br`/`llvm.cond_br` that carries it,
    which the translation to LLVM IR emits as `llvm.loop.unroll.disable`.

    Innermost loops, and short outer loops (a 3x3 window), are left for
    LLVM to unroll: without any unrolling the recogniser ran 12% slower;
    with this pass its run time stays within the noise of full unrolling
    (bench/coldstart).

    ```mlir
    scf.for %n = %c0 to %c24 step %c1 {
      scf.for %h = %c0 to %c48 step %c1 { ... }
    }
    // becomes
    scf.for %n = %c0 to %c24 step %c1 {
      scf.for %h = %c0 to %c48 step %c1 { ... }
    } {llvm.loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
    ```
  }];
  let options = [
    Option<"minTrips", "min-trips", "int64_t", /*default=*/"8",
           "Outer loops that run fewer times than this are left for LLVM "
           "to unroll (at least 1)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def LowerScalarTransfers : Pass<"amp-lower-scalar-transfers"> {
  let summary = "Lower 0-d vector transfers on buffers to loads and stores";
  let description = [{
    A `vector.transfer_read`/`transfer_write` of a 0-d vector on a memref
    moves one element: it becomes a `memref.load` broadcast to the 0-d
    vector, or an extract and a `memref.store`. Transfers of one element
    appear where `convert-vector-to-scf` unrolls a broadcasting transfer;
    LLVM's lowering of transfers needs a unit innermost stride, which the
    element of a strided view (`strided<[?, ?, ?]>`) need not have, and
    such a transfer would be left unconverted.

    ```mlir
    %v = vector.transfer_read %m[%i, %j], %pad
        : memref<1x8xf32, strided<[?, ?], offset: ?>>, vector<f32>
    // becomes
    %e = memref.load %m[%i, %j] : memref<1x8xf32, strided<[?, ?], offset: ?>>
    %v = vector.broadcast %e : f32 to vector<f32>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // AMP_BACKEND_CPU_PASSES_TD

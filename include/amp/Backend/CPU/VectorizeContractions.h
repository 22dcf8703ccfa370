//===- VectorizeContractions.h - Register-tiled contraction kernels -*- C++
//-*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_CPU_VECTORIZECONTRACTIONS_H
#define AMP_BACKEND_CPU_VECTORIZECONTRACTIONS_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir {
class AffineMap;
class Block;
class IRMapping;
class Location;
class OpBuilder;
class Operation;
class RewriterBase;
class Type;
namespace linalg {
class GenericOp;
class LinalgOp;
} // namespace linalg
namespace amp {

/// The register tile of a contraction kernel: `rows` output vectors of
/// `lanes` elements, along the loop dimensions `vectorDim` (the output's
/// innermost) and `rowDim` (absent when `rows` is 1).
struct ContractionTile {
  unsigned vectorDim;
  int64_t lanes;
  std::optional<unsigned> rowDim;
  int64_t rows;
  /// With AVX512-BF16: the reduction dimension read in pairs, two products
  /// per lane per `x86vector.avx512.dot` (see isBF16PairLayout).
  std::optional<unsigned> pairDim;
  /// With `pairDim`: the pairs are made in the kernel, by interleaving the
  /// rows k and k + 1 of an input in the plain layout (see
  /// getBF16InterleavedInput), instead of read from the pair layout.
  bool interleaved = false;
  /// Vectors of `lanes` elements per row, side by side along `vectorDim`.
  int64_t cols = 1;
};

/// A reduction loop of a kernel whose steps read zeros of an input past a
/// range of rows: a convolution's window rows `kh` over an input whose
/// padding rows are zero fills (`stride * oh + kh` indexes its rows). The
/// kernel steps over the window rows that meet rows `[firstRow, endRow)`
/// of the input's buffer only; the products it leaves out are with zeros.
/// With a dilation, `stride * oh + dilation * kh` indexes the rows.
struct ZeroRowClip {
  /// The reduction dimension (`kh`) and the parallel one (`oh`, a loop
  /// outside the tile) with their factors.
  unsigned reductionDim, outerDim;
  int64_t stride, dilation;
  /// The offset of the op's view of the buffer along its rows (`offset`
  /// plus the `offsetValues`: a slice of the op on a thread reads rows
  /// from where its induction variable says), and the rows that may hold
  /// nonzero values.
  int64_t offset, firstRow, endRow;
  SmallVector<Value> offsetValues;
  /// The fills of rows that nothing else reads: dead once the kernel
  /// skips them.
  SmallVector<Operation *> deadFills;
};

/// Whether every op of `body` but its terminator is a scalar constant or a
/// pure scalar elementwise op without regions, on integers and floats.
bool isScalarElementwiseBody(Block &body);

/// The ops of `body` that `result` depends on, created at the insertion
/// point of `b` on vectors of `width` lanes, with `mapping` giving the
/// block arguments' values; returns `result`'s vector. Scalars (values
/// from above, arguments mapped to scalars) are broadcast; with
/// `fuseProducts`, a product that only an addition uses becomes a
/// `vector.fma`.
Value applyBodyToVectors(OpBuilder &b, Location loc, Block &body,
                         IRMapping &mapping, int64_t width, Value result,
                         bool fuseProducts = true);

/// The indices `map` gives at the loop indices `dims`, composed and folded
/// (constants where they fold), created at the insertion point of `b`.
SmallVector<Value> getIndicesAt(OpBuilder &b, Location loc, AffineMap map,
                                ArrayRef<Value> dims);

/// The elementwise op that a kernel for `op` can apply to its results
/// before storing them (an epilogue: a bias, an activation, a residual, a
/// scale), if any: the op after `op` in its block, past ops without memory
/// effects, allocations and linalg ops on other buffers allocated in the
/// function whose bodies touch no memory (a padded buffer's border fills,
/// which `op` may run after), is
/// a `linalg.generic` on buffers with only parallel loops, one per
/// dimension of `op`'s output `C`, a body of scalar elementwise ops that
/// does not read its output's elements, an identity map on its output `D`
/// and on one input that is `C`; its other inputs are `D` itself read with
/// an identity map (a residual added in place), or neither `C` nor `D`
/// (compared through views) and read the innermost dimension only as
/// their innermost index; and `D` is no input of `op`. Each element of `D`
/// then depends only on the same element of `C`, so the epilogue can run
/// on any part of `C` as soon as that part is computed.
linalg::GenericOp getContractionEpilogue(linalg::LinalgOp op);

/// Whether `body` (block arguments a, b, acc) computes
/// `acc + extf(a) * extf(b)` with a and b of type `low` and acc f32.
bool isWidenedProductSum(Block &body, Type low);

/// The input of `op` (on tensors or buffers) that is in the bf16 pair layout
/// of the dot product `vdpbf16ps`, if any: `op`'s body is a widened bf16
/// product sum, its output's innermost index is the loop dimension `n`,
/// `k` is its last reduction dimension, the input indexes
/// `(..., k floordiv 2, n, k mod 2)` (pairs of consecutive k innermost,
/// amp-pack-weights{bf16-pairs} makes it) and the other input indexes `k`
/// only as its innermost index and not `n`.
std::optional<unsigned> getBF16PairInput(linalg::LinalgOp op);

/// The input of `op` whose pairs of consecutive `k` a kernel makes itself,
/// if any: as for getBF16PairInput, but the input is in the plain layout
/// (a computed tensor, not a packed weight): it indexes `n` as its innermost
/// index and `k` as one other index, and the other input indexes `k` as its
/// innermost index and not `n`. Interleaving the input's vectors at `k` and
/// `k + 1` gives the pairs; the other input's pair is contiguous.
std::optional<unsigned> getBF16InterleavedInput(linalg::LinalgOp op);

/// The op that fills the output of `op` (on buffers) with one value just
/// before it, when `op` writes every element of that output: the op before
/// `op` in its block, past ops without memory effects and allocations, is a
/// `linalg.fill`, or a `linalg.generic` without
/// inputs that yields one value from outside its body or an `arith.constant`,
/// writing the same buffer with an identity map; and `op`'s output map is a
/// permutation of its parallel dimensions. A kernel for `op` can start its
/// accumulators at the value and leave the fill out.
linalg::LinalgOp getInitFill(linalg::LinalgOp op);

/// `value`, or the buffer it is a view of (through view-like ops).
Value getRootBuffer(Value value);

/// The op after (`forward`) or before `op` in its block, skipping ops
/// without memory effects (constants, globals, views) and allocations; null
/// at either end.
Operation *getAdjacentEffectfulOp(Operation *op, bool forward);

/// The value `fill` (see getInitFill) writes, created before the insertion
/// point of `builder` when it is a constant inside the fill's body.
Value materializeFillValue(OpBuilder &builder, linalg::LinalgOp fill);

/// The register tile for `op`, or nullopt when `op` is not a contraction
/// amp emits a kernel for: an op on buffers with static loop ranges, one
/// output whose indexing map is a projected permutation of the parallel
/// dimensions ending in the vector dimension, at least one reduction, inputs
/// that index the vector dimension (if at all) only as their innermost index,
/// and a body of scalar elementwise ops (no `linalg.index`). A vector has
/// at most `lanes` elements (fewer when the range is smaller); the row
/// dimension's range is covered by the fewest tiles of at most `maxRows`
/// rows, `rows` each (the kernel's last tile takes the rows that remain);
/// a row is up to `maxCols` vectors (`cols`) when the reduction has more
/// steps (pairs of steps with `pairDim`) than the tile has accumulators.
/// With `bf16Dot`, an op with an input in the bf16 pair layout gets a tile
/// with `pairDim` and 16, 8 or 4 lanes (the most the vector dimension's
/// range has; the kernel ends in tiles of 8 and 4 lanes), or none when the
/// range is not a multiple of 4; an op with an input
/// getBF16InterleavedInput finds gets such a tile with `interleaved` when
/// the range is a multiple of 4 and `k`'s range is even, else the plain
/// tile.
std::optional<ContractionTile>
chooseContractionTile(linalg::LinalgOp op, int64_t lanes, int64_t maxRows,
                      int64_t maxCols, bool bf16Dot = false);

/// Replaces `op` (see chooseContractionTile) with loops around a register
/// tile: the tile's output vectors are loaded once, carried through the
/// reduction loops, and stored once; in the innermost loop each input is
/// read once per tile (as a vector when it indexes the vector dimension,
/// else as a broadcast scalar) unless it indexes the row dimension, and the
/// body is applied to whole vectors, a product added to the accumulator
/// becoming one fused multiply-add. Reductions run in the op's order.
/// A fill of the output right before `op` (getInitFill) is folded: the
/// accumulators start at its value and the fill is erased.
LogicalResult vectorizeContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                                   int64_t lanes, int64_t maxRows,
                                   int64_t maxCols, bool bf16Dot = false);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_CPU_VECTORIZECONTRACTIONS_H

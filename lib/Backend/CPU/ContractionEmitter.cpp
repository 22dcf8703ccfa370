//===- ContractionEmitter.cpp - The loops and register tile of a kernel
//-----===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Emission for amp-vectorize-contractions: the loops around the register
// tile, the tile's loads, body and stores (vectorizeContraction).
//
//===----------------------------------------------------------------------===//

#include "ContractionKernels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

Value amp::applyBodyToVectors(OpBuilder &b, Location loc, Block &body,
                              IRMapping &mapping, int64_t width, Value result,
                              bool fuseProducts) {
  auto vectorOf = [&](Value value) -> Value {
    Value mapped = mapping.lookupOrDefault(value);
    if (isa<VectorType>(mapped.getType()))
      return mapped;
    Value splat = vector::BroadcastOp::create(
        b, loc, VectorType::get({width}, mapped.getType()), mapped);
    mapping.map(value, splat);
    return splat;
  };
  // The ops `result` depends on.
  DenseSet<Operation *> needed;
  SmallVector<Value> worklist{result};
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != &body || !needed.insert(def).second)
      continue;
    llvm::append_range(worklist, def->getOperands());
  }
  auto fusedProduct = [&](Value addend) -> arith::MulFOp {
    auto mul = addend.getDefiningOp<arith::MulFOp>();
    if (!mul || mul->getBlock() != &body || !mul->hasOneUse())
      return nullptr;
    return mul;
  };
  // Each addition's product (its right operand's, else its left's).
  DenseMap<Operation *, std::pair<arith::MulFOp, Value>> fused;
  DenseSet<Operation *> fusedProducts;
  for (auto add : body.getOps<arith::AddFOp>()) {
    if (!fuseProducts || !needed.contains(add))
      continue;
    if (arith::MulFOp mul = fusedProduct(add.getRhs()))
      fused[add] = {mul, add.getLhs()};
    else if (arith::MulFOp mul = fusedProduct(add.getLhs()))
      fused[add] = {mul, add.getRhs()};
    else
      continue;
    fusedProducts.insert(fused[add].first);
  }
  for (Operation &inner : body.without_terminator()) {
    if (!needed.contains(&inner) || fusedProducts.contains(&inner))
      continue;
    if (auto it = fused.find(&inner); it != fused.end()) {
      auto [mul, other] = it->second;
      Value lhs = vectorOf(mul.getLhs()), rhs = vectorOf(mul.getRhs());
      mapping.map(inner.getResult(0),
                  vector::FMAOp::create(b, loc, lhs, rhs, vectorOf(other)));
      continue;
    }
    if (auto c = dyn_cast<arith::ConstantOp>(inner)) {
      auto type = VectorType::get({width}, c.getType());
      mapping.map(
          c.getResult(),
          arith::ConstantOp::create(
              b, loc, type, DenseElementsAttr::get(type, c.getValue())));
      continue;
    }
    IRMapping operands;
    for (Value operand : inner.getOperands())
      operands.map(operand, vectorOf(operand));
    Operation *vectorized = b.clone(inner, operands);
    for (OpResult value : vectorized->getResults())
      value.setType(VectorType::get({width}, value.getType()));
    mapping.map(inner.getResults(), vectorized->getResults());
  }
  return vectorOf(result);
}

SmallVector<Value> amp::getIndicesAt(OpBuilder &b, Location loc, AffineMap map,
                                     ArrayRef<Value> dims) {
  SmallVector<OpFoldResult> operands(dims.begin(), dims.end());
  SmallVector<Value> indices;
  for (AffineExpr index : map.getResults())
    indices.push_back(getValueOrCreateConstantIndexOp(
        b, loc,
        affine::makeComposedFoldedAffineApply(
            b, loc, AffineMap::get(map.getNumDims(), 0, index), operands)));
  return indices;
}

namespace {
/// Emits the loops and the register tile of one contraction.
class KernelEmitter {
public:
  /// With `initValue`, the accumulators start at it instead of at the
  /// output's elements.
  KernelEmitter(RewriterBase &rewriter, linalg::LinalgOp op,
                amp::ContractionTile tile, Value initValue,
                linalg::GenericOp epilogue, bool storesResult,
                std::optional<amp::ZeroRowClip> clip)
      : b(rewriter), op(op), tile(tile), loc(op.getLoc()),
        ranges(op.getStaticLoopRanges()), initValue(initValue),
        epilogue(epilogue), storesResult(storesResult), clip(clip) {}

  void emit() {
    dims.assign(ranges.size(), constant(0));
    if (tile.interleaved) {
      pairInput = *amp::getBF16InterleavedInput(op);
    } else if (tile.pairDim) {
      // The pair-layout input with its last two dimensions (n, pair) as
      // one: a tile's pairs of all its lanes are one vector.
      pairInput = *amp::getBF16PairInput(op);
      Value pairs = op.getDpsInputOperand(pairInput)->get();
      int64_t rank = cast<MemRefType>(pairs.getType()).getRank();
      SmallVector<ReassociationIndices> groups;
      for (int64_t d = 0; d < rank - 2; ++d)
        groups.push_back({d});
      groups.push_back({rank - 2, rank - 1});
      collapsedPairs = memref::CollapseShapeOp::create(b, loc, pairs, groups);
    }
    SmallVector<unsigned> outer, reductions;
    for (auto [dim, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
      if (iterator == utils::IteratorType::reduction)
        reductions.push_back(dim);
      else if (dim != tile.vectorDim && dim != tile.rowDim)
        outer.push_back(dim);
    }
    if (tile.rowDim)
      outer.push_back(*tile.rowDim);
    reductionDims = reductions;
    // Tiles of `tile.cols` full vectors a row, then one of the full vectors
    // that remain, then one shorter vector for what remains (dot products:
    // one of 8 lanes and one of 4 at most). `around` emits the loops over
    // the other parallel dimensions around each.
    auto emitVectorTiles =
        [&](function_ref<void(function_ref<void()>)> around) {
          int64_t range = ranges[tile.vectorDim];
          int64_t step = tile.lanes * tile.cols;
          int64_t full = range - range % step;
          if (full > 0) {
            emitLoop(tile.vectorDim, 0, full, step, [&] {
              around([&] {
                cols = tile.cols;
                emitTile(tile.lanes);
              });
            });
          }
          if (int64_t vectors = (range - full) / tile.lanes) {
            dims[tile.vectorDim] = constant(full);
            around([&] {
              cols = vectors;
              emitTile(tile.lanes);
            });
            full += vectors * tile.lanes;
          }
          for (int64_t at = full; at < range;) {
            int64_t width = range - at;
            if (tile.pairDim)
              width = width >= 8 ? 8 : 4;
            dims[tile.vectorDim] = constant(at);
            around([&] {
              cols = 1;
              emitTile(width);
            });
            at += width;
          }
        };
    // Inputs that every tile along the other parallel dimensions reads
    // whole (a convolution's filter, a matmul's B) and that do not fit in
    // a core's cache are read a vector tile's slice at a time: the loop
    // along the vector dimension goes outside the others, so that each
    // slice is read from the cache by every tile of rows instead of the
    // whole input from memory by each.
    if (readsReusedInputsBySlice(outer)) {
      // A slice that still does not fit is read a block of one reduction
      // dimension at a time, the loop over the blocks outermost: each
      // tile sums a block's terms into the output, which it reads back
      // for the next block.
      chooseReductionBlock(outer);
      auto vectorTiles = [&] {
        emitVectorTiles(
            [&](function_ref<void()> body) { emitLoops(outer, body); });
      };
      if (!blockDim)
        return vectorTiles();
      auto loop =
          scf::ForOp::create(b, loc, constant(0), constant(ranges[*blockDim]),
                             constant(blockSize));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      blockStart = loop.getInductionVar();
      return vectorTiles();
    }
    emitLoops(outer, [&] {
      emitVectorTiles([](function_ref<void()> body) { body(); });
    });
  }

private:
  /// Above this many bytes, the inputs every tile reads whole are read one
  /// vector tile's slice at a time (about half of a Zen 3/4 core's L2).
  static constexpr int64_t kCachedReusedInputBytes = 512 * 1024;

  /// Up to this many bytes, the inputs every tile reads whole are read
  /// from the shared cache (L3) by each tile of rows fast enough.
  static constexpr int64_t kSharedCacheReusedInputBytes = 4 * 1024 * 1024;

  /// Above this many bytes, the slice of the reused inputs that a vector
  /// tile reads is read a block of a reduction dimension at a time (a
  /// quarter of a Zen 4 core's L2, half of a Zen 3 core's).
  static constexpr int64_t kSliceBytes = 256 * 1024;

  /// Up to this many bytes, the other inputs that the blocks divide stay in
  /// the cache between vector tiles (a share of the L3).
  static constexpr int64_t kCachedBlockedInputBytes = 8 * 1024 * 1024;

  /// Whether the vector tiles' loop goes outside the others (above): where
  /// the inputs every tile reads whole exceed kCachedReusedInputBytes,
  /// unless they fit in kSharedCacheReusedInputBytes and the other inputs
  /// exceed kCachedBlockedInputBytes. Each vector tile then reads those
  /// others again, from memory, which costs more than reading the reused
  /// ones from the shared cache for every tile of rows (a 384->128 3x3
  /// convolution of 128x128 pixels, a 1.8 MB filter and a 25 MB image:
  /// 155 -> 140 ms on a Zen 4).
  bool readsReusedInputsBySlice(ArrayRef<unsigned> outer) {
    int64_t reused = getReusedInputBytes(outer);
    if (reused <= kCachedReusedInputBytes)
      return false;
    if (reused > kSharedCacheReusedInputBytes)
      return true;
    SmallVector<OpOperand *> reusedInputs = getReusedInputs(outer);
    int64_t others = 0;
    for (OpOperand *input : op.getDpsInputOperands())
      if (!llvm::is_contained(reusedInputs, input))
        others += getBytes(input).value_or(0);
    return others <= kCachedBlockedInputBytes;
  }

  /// The inputs that the parallel loops `outer` do not index (read whole
  /// by the tiles of every iteration of theirs).
  SmallVector<OpOperand *> getReusedInputs(ArrayRef<unsigned> outer) {
    SmallVector<OpOperand *> reused;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (!getBytes(input) || llvm::any_of(outer, [&](unsigned dim) {
            return map.isFunctionOfDim(dim);
          }))
        continue;
      reused.push_back(input);
    }
    return reused;
  }

  /// The bytes of `input`'s buffer, where it has a static shape and an
  /// integer or float element type.
  static std::optional<int64_t> getBytes(OpOperand *input) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    if (!type || !type.hasStaticShape() ||
        !type.getElementType().isIntOrFloat())
      return std::nullopt;
    return type.getNumElements() *
           llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  }

  /// The bytes of the inputs that the parallel loops `outer` do not index.
  int64_t getReusedInputBytes(ArrayRef<unsigned> outer) {
    int64_t bytes = 0;
    for (OpOperand *input : getReusedInputs(outer))
      bytes += *getBytes(input);
    return bytes;
  }

  /// Sets `blockDim` and `blockSize` where the slice of the reused inputs
  /// that one vector tile reads exceeds kSliceBytes: the innermost
  /// reduction dimension that each of them indexes, in the fewest blocks
  /// whose slices fit.
  void chooseReductionBlock(ArrayRef<unsigned> outer) {
    SmallVector<OpOperand *> reused = getReusedInputs(outer);
    int64_t slice = 0;
    for (OpOperand *input : reused) {
      int64_t bytes = *getBytes(input);
      if (op.getMatchingIndexingMap(input).isFunctionOfDim(tile.vectorDim))
        bytes = bytes *
                std::min(ranges[tile.vectorDim], tile.lanes * tile.cols) /
                ranges[tile.vectorDim];
      slice += bytes;
    }
    if (slice <= kSliceBytes)
      return;
    for (unsigned dim : llvm::reverse(reductionDims)) {
      if (clip && dim == clip->reductionDim)
        continue;
      if (!llvm::all_of(reused, [&](OpOperand *input) {
            return op.getMatchingIndexingMap(input).isFunctionOfDim(dim);
          }))
        continue;
      // The other inputs are read a block at a time too, by every vector
      // tile: from the cache when they fit in it, else from memory, a part
      // of each row of theirs at a time, which costs more than the blocks
      // save.
      int64_t others = 0;
      for (OpOperand *input : op.getDpsInputOperands())
        if (!llvm::is_contained(reused, input) &&
            op.getMatchingIndexingMap(input).isFunctionOfDim(dim))
          others += getBytes(input).value_or(0);
      if (others > kCachedBlockedInputBytes)
        return;
      // Blocks of a multiple of 8 elements that divide the range, so that
      // every block's loop has the same constant trip count.
      for (int64_t blocks = llvm::divideCeil(slice, kSliceBytes);
           ranges[dim] / blocks >= 8; ++blocks) {
        if (ranges[dim] % blocks || (ranges[dim] / blocks) % 8)
          continue;
        blockDim = dim;
        blockSize = ranges[dim] / blocks;
        return;
      }
      return;
    }
  }

  /// Whether the tile reads the first block of the blocked dimension.
  Value isFirstBlock() {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, blockStart,
                                 constant(0));
  }

  /// Whether the tile reads the last block of the blocked dimension.
  Value isLastBlock() {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, blockStart,
                                 constant(ranges[*blockDim] - blockSize));
  }

  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }

  /// 2 * `value`, as an affine map that indices compose with.
  Value twice(Value value) {
    return affine::AffineApplyOp::create(
        b, loc, AffineMap::get(1, 0, b.getAffineDimExpr(0) * 2), value);
  }

  /// A loop over `dim` from `lower` to `upper` by `step` around `body`, or
  /// just `body` with the dimension at `lower` for a single iteration.
  void emitLoop(unsigned dim, int64_t lower, int64_t upper, int64_t step,
                function_ref<void()> body) {
    if (upper - lower <= step) {
      dims[dim] = constant(lower);
      body();
      return;
    }
    auto loop = scf::ForOp::create(b, loc, constant(lower), constant(upper),
                                   constant(step));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    dims[dim] = loop.getInductionVar();
    body();
  }

  /// Nested loops over the parallel dimensions `loopDims` (the row
  /// dimension by `rows`), `body` innermost.
  void emitLoops(ArrayRef<unsigned> loopDims, function_ref<void()> body) {
    if (loopDims.empty())
      return body();
    unsigned dim = loopDims.front();
    auto inner = [&] { emitLoops(loopDims.drop_front(), body); };
    if (dim != tile.rowDim)
      return emitLoop(dim, 0, ranges[dim], 1, inner);
    // Full tiles, then one of the rows that remain.
    int64_t full = ranges[dim] - ranges[dim] % tile.rows;
    if (full > 0)
      emitLoop(dim, 0, full, tile.rows, inner);
    if (full == ranges[dim])
      return;
    rows = ranges[dim] - full;
    dims[dim] = constant(full);
    inner();
    rows = tile.rows;
  }

  /// The indices `map` gives for the tile's row `row` and its vector `col`
  /// (`col` vectors of `width` lanes along the vector dimension).
  SmallVector<Value> indices(AffineMap map, int64_t row, int64_t col = 0,
                             int64_t width = 0) {
    SmallVector<OpFoldResult> operands(dims.begin(), dims.end());
    SmallVector<Value> result;
    for (AffineExpr index : map.getResults()) {
      if (tile.rowDim && row != 0)
        index = index.replace(b.getAffineDimExpr(*tile.rowDim),
                              b.getAffineDimExpr(*tile.rowDim) + row);
      if (col != 0)
        index = index.replace(b.getAffineDimExpr(tile.vectorDim),
                              b.getAffineDimExpr(tile.vectorDim) + col * width);
      OpFoldResult folded = affine::makeComposedFoldedAffineApply(
          b, loc, AffineMap::get(map.getNumDims(), 0, index), operands);
      result.push_back(getValueOrCreateConstantIndexOp(b, loc, folded));
    }
    return result;
  }

  Value readVector(Value buffer, ArrayRef<Value> at, int64_t width) {
    Type element = cast<MemRefType>(buffer.getType()).getElementType();
    Value padding = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(element)));
    return vector::TransferReadOp::create(
        b, loc, VectorType::get({width}, element), buffer, at, padding,
        ArrayRef<bool>{true});
  }

  /// The tile at the current dimensions, `width` lanes wide.
  void emitTile(int64_t width) {
    OpOperand *init = op.getDpsInitOperand(0);
    AffineMap outMap = op.getMatchingIndexingMap(init);
    // Accumulators row by row, each row's vectors in order.
    auto readAccumulators = [&](bool fromInit) {
      SmallVector<Value> accumulators;
      for (int64_t row = 0; row < rows; ++row)
        for (int64_t col = 0; col < cols; ++col)
          accumulators.push_back(
              fromInit
                  ? vector::BroadcastOp::create(
                        b, loc, VectorType::get({width}, initValue.getType()),
                        initValue)
                  : readVector(init->get(), indices(outMap, row, col, width),
                               width));
      return accumulators;
    };
    SmallVector<Value> accumulators;
    if (blockDim && initValue) {
      // The first block starts at the filled value, the others at the sums
      // of the blocks before.
      accumulators = emitIfElse(
          isFirstBlock(), [&] { return readAccumulators(true); },
          [&] { return readAccumulators(false); });
    } else {
      accumulators = readAccumulators(initValue != nullptr);
    }
    SmallVector<Value> results =
        emitReductions(reductionDims, accumulators, width);
    auto storeResults = [&](bool last) {
      Value output =
          last && epilogue ? epilogue.getDpsInitOperand(0)->get() : Value();
      for (int64_t row = 0; row < rows; ++row)
        for (int64_t col = 0; col < cols; ++col) {
          Value result = results[row * cols + col];
          SmallVector<Value> at = indices(outMap, row, col, width);
          if ((storesResult || !last) && output != init->get())
            vector::TransferWriteOp::create(b, loc, result, init->get(), at,
                                            ArrayRef<bool>{true});
          if (output)
            vector::TransferWriteOp::create(b, loc,
                                            applyEpilogue(result, at, width),
                                            output, at, ArrayRef<bool>{true});
        }
      return SmallVector<Value>();
    };
    if (!blockDim || (!epilogue && storesResult)) {
      storeResults(/*last=*/true);
      return;
    }
    // Before the last block, the sums go to the op's output, and the
    // epilogue applies to the whole sums only.
    emitIfElse(
        isLastBlock(), [&] { return storeResults(true); },
        [&] { return storeResults(false); });
  }

  /// An scf.if on `condition` whose branches yield what `thenValues` and
  /// `elseValues` emit; its results.
  SmallVector<Value> emitIfElse(Value condition,
                                function_ref<SmallVector<Value>()> thenValues,
                                function_ref<SmallVector<Value>()> elseValues) {
    auto emitBranch = [&](function_ref<SmallVector<Value>()> values) {
      return [&, values](OpBuilder &nested, Location nestedLoc) {
        SmallVector<Value> yielded = values();
        scf::YieldOp::create(nested, nestedLoc, yielded);
      };
    };
    auto ifOp = scf::IfOp::create(b, loc, condition, emitBranch(thenValues),
                                  emitBranch(elseValues));
    return SmallVector<Value>(ifOp.getResults());
  }

  /// The epilogue's body on `result`, the output's vector at `at` (the
  /// epilogue's loop indices), its other inputs read there.
  Value applyEpilogue(Value result, ArrayRef<Value> at, int64_t width) {
    Block &body = *epilogue.getBody();
    Value c = op.getDpsInitOperand(0)->get();
    unsigned innermost = epilogue.getNumLoops() - 1;
    IRMapping mapping;
    for (OpOperand *input : epilogue.getDpsInputOperands()) {
      BlockArgument arg = epilogue.getMatchingBlockArgument(input);
      AffineMap map = epilogue.getMatchingIndexingMap(input);
      if (input->get() == c && map.isIdentity()) {
        mapping.map(arg, result);
        continue;
      }
      if (arg.use_empty())
        continue;
      SmallVector<Value> inputAt = amp::getIndicesAt(b, loc, map, at);
      mapping.map(arg,
                  map.isFunctionOfDim(innermost)
                      ? readVector(input->get(), inputAt, width)
                      : memref::LoadOp::create(b, loc, input->get(), inputAt)
                            .getResult());
    }
    // (Products and sums stay apart, as in the epilogue's own loops.)
    return amp::applyBodyToVectors(b, loc, body, mapping, width,
                                   body.getTerminator()->getOperand(0),
                                   /*fuseProducts=*/false);
  }

  /// Loops over the reduction dimensions `loopDims` that carry the
  /// accumulators; their results.
  SmallVector<Value> emitReductions(ArrayRef<unsigned> loopDims,
                                    ValueRange accumulators, int64_t width) {
    if (loopDims.empty())
      return emitStep(accumulators, width);
    unsigned dim = loopDims.front();
    if (ranges[dim] == 1) {
      dims[dim] = constant(0);
      return emitReductions(loopDims.drop_front(), accumulators, width);
    }
    // A dimension read in pairs steps over the pairs.
    int64_t steps = dim == tile.pairDim ? ranges[dim] / 2 : ranges[dim];
    if (steps == 1) {
      dims[dim] = constant(0);
      return emitReductions(loopDims.drop_front(), accumulators, width);
    }
    Value lower = constant(0), upper = constant(steps);
    if (blockDim && dim == *blockDim) {
      // The steps of the current block, a constant count (pairs: half of
      // its elements).
      upper = constant(dim == tile.pairDim ? blockSize / 2 : blockSize);
    } else if (clip && dim == clip->reductionDim) {
      // Window rows `k` with `firstRow <= offset + stride * outer +
      // dilation * k < endRow`.
      MLIRContext *context = b.getContext();
      AffineExpr outer = getAffineDimExpr(0, context);
      AffineExpr start = clip->offset + clip->stride * outer;
      SmallVector<OpFoldResult> operands{dims[clip->outerDim]};
      for (auto [position, offset] : llvm::enumerate(clip->offsetValues)) {
        start = start + getAffineSymbolExpr(position, context);
        operands.push_back(offset);
      }
      auto bound = [&](bool isLower) {
        AffineMap map = AffineMap::get(
            1, clip->offsetValues.size(),
            isLower
                ? ArrayRef<AffineExpr>{getAffineConstantExpr(0, context),
                                       (clip->firstRow - start)
                                           .ceilDiv(clip->dilation)}
                : ArrayRef<AffineExpr>{getAffineConstantExpr(steps, context),
                                       (clip->endRow - start)
                                           .ceilDiv(clip->dilation)},
            context);
        OpFoldResult value =
            isLower
                ? affine::makeComposedFoldedAffineMax(b, loc, map, operands)
                : affine::makeComposedFoldedAffineMin(b, loc, map, operands);
        return getValueOrCreateConstantIndexOp(b, loc, value);
      };
      lower = bound(/*isLower=*/true);
      upper = bound(/*isLower=*/false);
    }
    auto loop =
        scf::ForOp::create(b, loc, lower, upper, constant(1), accumulators);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      dims[dim] = loop.getInductionVar();
      if (dim == tile.pairDim)
        dims[dim] = twice(dims[dim]);
      if (blockDim && dim == *blockDim)
        dims[dim] = affine::AffineApplyOp::create(
            b, loc,
            AffineMap::get(2, 0, b.getAffineDimExpr(0) + b.getAffineDimExpr(1)),
            ValueRange{blockStart, dims[dim]});
      SmallVector<Value> next = emitReductions(loopDims.drop_front(),
                                               loop.getRegionIterArgs(), width);
      scf::YieldOp::create(b, loc, next);
    }
    return SmallVector<Value>(loop.getResults());
  }

  /// One step of the reduction: the inputs read, the body applied to each
  /// row's accumulator.
  SmallVector<Value> emitStep(ValueRange accumulators, int64_t width) {
    if (tile.pairDim)
      return emitPairStep(accumulators, width);
    Block &body = *op.getBlock();
    // Each input's values: one per row it indexes, one per vector of the
    // row when it indexes the vector dimension.
    struct Input {
      SmallVector<Value> values;
      int64_t rows = 1, cols = 1;
    };
    SmallVector<Input> inputs;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Input &in = inputs.emplace_back();
      if (body.getArgument(input->getOperandNumber()).use_empty())
        continue;
      AffineMap map = op.getMatchingIndexingMap(input);
      bool isVector = map.isFunctionOfDim(tile.vectorDim);
      in.rows = tile.rowDim && map.isFunctionOfDim(*tile.rowDim) ? rows : 1;
      in.cols = isVector ? cols : 1;
      for (int64_t row = 0; row < in.rows; ++row)
        for (int64_t col = 0; col < in.cols; ++col) {
          SmallVector<Value> at = indices(map, row, col, width);
          in.values.push_back(
              isVector ? readVector(input->get(), at, width)
                       : memref::LoadOp::create(b, loc, input->get(), at)
                             .getResult());
        }
    }
    SmallVector<Value> results;
    for (int64_t row = 0; row < rows; ++row)
      for (int64_t col = 0; col < cols; ++col) {
        IRMapping mapping;
        for (auto [i, in] : llvm::enumerate(inputs))
          if (!in.values.empty())
            mapping.map(body.getArgument(i),
                        in.values[(in.rows == 1 ? 0 : row) * in.cols +
                                  (in.cols == 1 ? 0 : col)]);
        mapping.map(body.getArguments().back(), accumulators[row * cols + col]);
        results.push_back(amp::applyBodyToVectors(
            b, loc, body, mapping, width, body.getTerminator()->getOperand(0)));
      }
    return results;
  }

  /// One step of a bf16 pair reduction: each lane of an accumulator adds
  /// the two products of its pair, `vdpbf16ps`.
  SmallVector<Value> emitPairStep(ValueRange accumulators, int64_t width) {
    OpOperand *pairOperand = op.getDpsInputOperand(pairInput);
    OpOperand *scalarOperand = op.getDpsInputOperand(1 - pairInput);
    AffineMap pairMap = op.getMatchingIndexingMap(pairOperand);
    SmallVector<Value> pairs;
    for (int64_t col = 0; col < cols; ++col) {
      if (tile.interleaved) {
        // The vectors at k and k + 1, interleaved.
        Value first = readVector(pairOperand->get(),
                                 indices(pairMap, 0, col, width), width);
        Value k = dims[*tile.pairDim];
        dims[*tile.pairDim] = affine::AffineApplyOp::create(
            b, loc, AffineMap::get(1, 0, b.getAffineDimExpr(0) + 1), k);
        Value second = readVector(pairOperand->get(),
                                  indices(pairMap, 0, col, width), width);
        dims[*tile.pairDim] = k;
        SmallVector<int64_t> mask;
        for (int64_t lane = 0; lane < width; ++lane)
          llvm::append_values(mask, lane, width + lane);
        pairs.push_back(vector::ShuffleOp::create(b, loc, first, second, mask));
        continue;
      }
      // (..., k / 2, n, 0) in the collapsed buffer: (..., k / 2, 2 n).
      SmallVector<Value> at = indices(pairMap, 0, col, width);
      at.pop_back();
      at.back() = twice(at.back());
      pairs.push_back(readVector(collapsedPairs, at, 2 * width));
    }
    // The other input's pair (k, k + 1) in every lane.
    AffineMap map = op.getMatchingIndexingMap(scalarOperand);
    bool perRow = tile.rowDim && map.isFunctionOfDim(*tile.rowDim);
    SmallVector<Value> broadcasts;
    for (int64_t row = 0, e = perRow ? rows : 1; row < e; ++row) {
      Value pair = readVector(scalarOperand->get(), indices(map, row), 2);
      Value word = vector::BitCastOp::create(
          b, loc, VectorType::get({1}, b.getI32Type()), pair);
      Value words = vector::BroadcastOp::create(
          b, loc, VectorType::get({width}, b.getI32Type()), word);
      broadcasts.push_back(vector::BitCastOp::create(
          b, loc, VectorType::get({2 * width}, b.getBF16Type()), words));
    }
    SmallVector<Value> results;
    for (int64_t row = 0; row < rows; ++row)
      for (int64_t col = 0; col < cols; ++col) {
        Value accumulator = accumulators[row * cols + col];
        results.push_back(x86vector::DotBF16Op::create(
            b, loc, accumulator.getType(), accumulator,
            broadcasts[perRow ? row : 0], pairs[col]));
      }
    return results;
  }

  RewriterBase &b;
  linalg::LinalgOp op;
  amp::ContractionTile tile;
  Location loc;
  SmallVector<int64_t> ranges;
  Value initValue;
  /// An elementwise op applied to the results before they are stored
  /// (getContractionEpilogue), or null.
  linalg::GenericOp epilogue;
  /// Whether the op's own results are stored too when an epilogue writes
  /// another buffer (they are not where only the epilogue read them).
  bool storesResult;
  SmallVector<unsigned> reductionDims;
  /// The rows of the tile emitted: `tile.rows`, fewer in the last tile.
  int64_t rows = tile.rows;
  /// The vectors of each of its rows: `tile.cols`, fewer at the end.
  int64_t cols = 1;
  /// The reduction steps to skip, if any.
  std::optional<amp::ZeroRowClip> clip;
  /// The index each loop dimension is at where code is emitted.
  SmallVector<Value> dims;
  /// The reduction dimension read a block at a time (chooseReductionBlock),
  /// if any, the block's elements, and where the current block starts.
  std::optional<unsigned> blockDim;
  int64_t blockSize = 0;
  Value blockStart;
  /// With a pair dimension: the input in the pair layout, and its buffer
  /// with the last two dimensions collapsed.
  unsigned pairInput = 0;
  Value collapsedPairs;
};
} // namespace

LogicalResult amp::vectorizeContraction(RewriterBase &rewriter,
                                        linalg::LinalgOp op, int64_t lanes,
                                        int64_t maxRows, int64_t maxCols,
                                        bool bf16Dot) {
  std::optional<ContractionTile> tile =
      chooseContractionTile(op, lanes, maxRows, maxCols, bf16Dot);
  if (!tile)
    return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  // With an epilogue, the kernel takes its place: what lies between them
  // (views, constants, allocations such as the epilogue's output) touches
  // no buffer the op reads or writes.
  linalg::GenericOp epilogue = getContractionEpilogue(op);
  rewriter.setInsertionPoint(epilogue ? epilogue.getOperation()
                                      : op.getOperation());
  linalg::LinalgOp fill = getInitFill(op);
  Value initValue = fill ? materializeFillValue(rewriter, fill) : Value();
  bool storesResult = !epilogue || !isOnlyReadByEpilogue(op, fill, epilogue);
  std::optional<ZeroRowClip> clip = findZeroRowClip(op, *tile);
  KernelEmitter(rewriter, op, *tile, initValue, epilogue, storesResult, clip)
      .emit();
  rewriter.eraseOp(op);
  if (clip)
    for (Operation *dead : clip->deadFills)
      rewriter.eraseOp(dead);
  if (fill)
    rewriter.eraseOp(fill);
  if (epilogue)
    rewriter.eraseOp(epilogue);
  return success();
}

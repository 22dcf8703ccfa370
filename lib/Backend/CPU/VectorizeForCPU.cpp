//===- VectorizeForCPU.cpp - Vector-sized tiles of linalg ops -------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/VectorizeForCPU.h"
#include "amp/Backend/CPU/Passes.h"
#include "amp/Backend/CPU/VectorizeReductions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_VECTORIZEFORCPU
#include "amp/Backend/CPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// The largest power of two in [2, vectorSize] that divides `range`, or 1.
static int64_t laneCount(int64_t range, int64_t vectorSize) {
  int64_t lanes = 1;
  for (int64_t t = 2; t <= vectorSize; t *= 2)
    if (range % t == 0)
      lanes = t;
  return lanes;
}

std::optional<std::pair<unsigned, int64_t>>
amp::chooseVectorDimension(linalg::LinalgOp op, int64_t vectorSize) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.empty() || llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;
  // Elements of the operands each dimension is the innermost index of.
  SmallVector<int64_t> contiguous(ranges.size(), 0);
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type || !type.hasStaticShape())
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (map.getNumResults() == 0)
      continue;
    if (auto dim = dyn_cast<AffineDimExpr>(map.getResults().back()))
      contiguous[dim.getPosition()] += type.getNumElements();
  }
  std::optional<std::pair<unsigned, int64_t>> best;
  for (auto [dim, range] : llvm::enumerate(ranges)) {
    int64_t lanes = laneCount(range, vectorSize);
    // Ties go to the later (inner) loop dimension.
    if (lanes < 2 || contiguous[dim] == 0 ||
        (best && contiguous[dim] < contiguous[best->first]))
      continue;
    best = {static_cast<unsigned>(dim), lanes};
  }
  return best;
}

std::optional<std::pair<unsigned, int64_t>>
amp::chooseTransposedDimension(linalg::LinalgOp op, unsigned vectorDim,
                               int64_t vectorSize) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<std::pair<unsigned, int64_t>> best;
  int64_t bestElements = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type || !type.hasStaticShape() || type.getRank() < 2)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    auto inner = dyn_cast<AffineDimExpr>(map.getResults().back());
    // An operand that the vector dimension indexes, but not contiguously.
    if (!inner || inner.getPosition() == vectorDim ||
        !map.isFunctionOfDim(vectorDim))
      continue;
    unsigned dim = inner.getPosition();
    int64_t lanes = laneCount(ranges[dim], vectorSize);
    if (iterators[dim] != utils::IteratorType::parallel || lanes < 4 ||
        type.getNumElements() <= bestElements)
      continue;
    best = {dim, lanes};
    bestElements = type.getNumElements();
  }
  return best;
}

/// A transposed tile's lanes along the vector dimension and rows along the
/// transposed one. Measured on Zen 4 on 64-channel NCHW <-> NHWC transposes
/// of 512x512 images, f32 and f16 alike: 8x4 moves 64 MB in 12-14 ms,
/// 16x16 in 22-30 ms (its 16 rows, a plane apart, fall in the same cache
/// sets), one lane at a time (a gather) in 46 ms.
static constexpr int64_t kTransposeLanes = 8;
static constexpr int64_t kTransposeRows = 4;

/// Whether `op` reads or writes i1 elements: a memref stores one byte per
/// i1, but LLVM loads and stores a vector of i1 as packed bits.
static bool accessesBooleans(linalg::LinalgOp op) {
  return llvm::any_of(op->getOperandTypes(), [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && shaped.getElementType().isInteger(1);
  });
}

/// Whether `op`'s body computes something LLVM has no vector form of:
/// llvm.intr.powi (math.fpowi) takes a scalar exponent.
static bool computesScalarOnly(linalg::LinalgOp op) {
  return op->walk([](math::FPowIOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

LogicalResult amp::vectorizeForCPU(RewriterBase &rewriter, linalg::LinalgOp op,
                                   int64_t vectorSize) {
  if (!op.hasPureBufferSemantics() || accessesBooleans(op) ||
      computesScalarOnly(op) || !linalg::hasVectorizationImpl(op) ||
      failed(linalg::vectorizeOpPrecondition(op)))
    return failure();
  std::optional<std::pair<unsigned, int64_t>> vectorDim =
      chooseVectorDimension(op, vectorSize);
  // A reduction along the vector dimension would reduce each tile across
  // its lanes; as scalar loops, LLVM's loop vectorizer keeps lanes of
  // partial results instead (and a sum in order loses nothing).
  if (!vectorDim || op.getIteratorTypesArray()[vectorDim->first] ==
                        utils::IteratorType::reduction)
    return failure();

  // An operand read across its rows (a transpose's input) is read in
  // tiles of whole vectors along its own contiguous dimension too, which
  // are transposed in registers: one element at a time, each read of a
  // vector would touch as many cache lines (and pages) as it has lanes.
  std::optional<std::pair<unsigned, int64_t>> transposedDim =
      chooseTransposedDimension(op, vectorDim->first, vectorSize);
  // Tiles of one element everywhere else; a dimension of range 1 needs no
  // loop.
  SmallVector<int64_t> tileSizes;
  for (auto [dim, range] : llvm::enumerate(op.getStaticLoopRanges())) {
    if (dim == vectorDim->first)
      tileSizes.push_back(
          transposedDim ? std::min<int64_t>(vectorDim->second, kTransposeLanes)
                        : vectorDim->second);
    else if (transposedDim && dim == transposedDim->first)
      tileSizes.push_back(
          std::min<int64_t>(transposedDim->second, kTransposeRows));
    else
      tileSizes.push_back(range == 1 ? 0 : 1);
  }
  scf::SCFTilingOptions options;
  options.setTileSizes(
      getAsIndexOpFoldResult(rewriter.getContext(), tileSizes));
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  // The loop along the transposed operand's rows innermost, the one along
  // the vector dimension next: each tile then reads the next vectors of the
  // rows that the previous one read, as many rows as one tile has (a loop
  // along the vector dimension inside would read as many rows at once as
  // the vector dimension has elements, and with power-of-two strides they
  // compete for the same cache sets).
  if (transposedDim) {
    SmallVector<int64_t> interchange;
    for (unsigned dim = 0, e = tileSizes.size(); dim < e; ++dim)
      if (dim != vectorDim->first && dim != transposedDim->first)
        interchange.push_back(dim);
    interchange.push_back(vectorDim->first);
    interchange.push_back(transposedDim->first);
    options.setInterchange(interchange);
  }
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled) || tiled->tiledOps.size() != 1)
    return failure();
  rewriter.eraseOp(op);

  // Every tile has static sizes (the tiles divide the ranges). With the
  // vector dimension as its last loop, the tile is vectorized into vectors
  // whose other dimensions are leading unit ones, which are then dropped (a
  // matmul tile (i, j, k) would otherwise read 16x1 vectors, which LLVM
  // splits into scalars).
  Operation *tile = tiled->tiledOps.front();
  if (auto generic = dyn_cast<linalg::GenericOp>(tile)) {
    SmallVector<unsigned> order;
    for (unsigned dim = 0, e = generic.getNumLoops(); dim < e; ++dim)
      if (dim != vectorDim->first &&
          (!transposedDim || dim != transposedDim->first))
        order.push_back(dim);
    if (transposedDim)
      order.push_back(transposedDim->first);
    order.push_back(vectorDim->first);
    rewriter.setInsertionPoint(generic);
    FailureOr<linalg::GenericOp> interchanged =
        linalg::interchangeGenericOp(rewriter, generic, order);
    if (succeeded(interchanged))
      tile = *interchanged;
  }
  rewriter.setInsertionPoint(tile);
  FailureOr<linalg::VectorizationResult> vectorized =
      linalg::vectorize(rewriter, tile);
  if (succeeded(vectorized))
    rewriter.eraseOp(tile);
  // Otherwise tiled but scalar: still correct.
  return success();
}

/// Whether `transfer` moves a 2-d vector whose map lists its two memref
/// dimensions in the opposite order to the memref's (a transposed tile),
/// without a mask.
static bool isTransposedTransfer(VectorTransferOpInterface transfer) {
  AffineMap map = transfer.getPermutationMap();
  if (map.getNumResults() != 2 || transfer.getMask())
    return false;
  auto outer = dyn_cast<AffineDimExpr>(map.getResult(0));
  auto inner = dyn_cast<AffineDimExpr>(map.getResult(1));
  return outer && inner && outer.getPosition() > inner.getPosition();
}

/// The same map with its two results swapped.
static AffineMap swapResults(AffineMap map) {
  return AffineMap::get(map.getNumDims(), map.getNumSymbols(),
                        {map.getResult(1), map.getResult(0)}, map.getContext());
}

namespace {
/// A transposed 2-d read becomes a read of whole rows of the memref and a
/// vector.transpose in registers.
struct TransposedReadToRows : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    if (!isTransposedTransfer(read))
      return failure();
    VectorType type = read.getVectorType();
    auto rowsType = VectorType::get({type.getDimSize(1), type.getDimSize(0)},
                                    type.getElementType());
    SmallVector<bool> inBounds =
        llvm::to_vector(llvm::reverse(read.getInBoundsValues()));
    Value rows = vector::TransferReadOp::create(
        rewriter, read.getLoc(), rowsType, read.getBase(), read.getIndices(),
        AffineMapAttr::get(swapResults(read.getPermutationMap())),
        read.getPadding(), /*mask=*/Value(),
        rewriter.getBoolArrayAttr(inBounds));
    rewriter.replaceOpWithNewOp<vector::TransposeOp>(read, rows,
                                                     ArrayRef<int64_t>{1, 0});
    return success();
  }
};

/// A transposed 2-d write becomes a vector.transpose in registers and a
/// write of whole rows of the memref.
struct TransposedWriteToRows : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferWriteOp write,
                                PatternRewriter &rewriter) const override {
    if (!isTransposedTransfer(write) || write->getNumResults() != 0)
      return failure();
    Value rows = vector::TransposeOp::create(
        rewriter, write.getLoc(), write.getVector(), ArrayRef<int64_t>{1, 0});
    SmallVector<bool> inBounds =
        llvm::to_vector(llvm::reverse(write.getInBoundsValues()));
    rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
        write, rows, write.getBase(), write.getIndices(),
        AffineMapAttr::get(swapResults(write.getPermutationMap())),
        /*mask=*/Value(), rewriter.getBoolArrayAttr(inBounds));
    return success();
  }
};

struct VectorizeForCPU : amp::impl::VectorizeForCPUBase<VectorizeForCPU> {
  using Base::Base;
  LogicalResult initialize(MLIRContext *context) override {
    if (vectorSize < 2 || vectorSize > 1024) {
      return emitError(UnknownLoc::get(context),
                       "amp-vectorize-for-cpu: vector-size must be "
                       "in [2, 1024], got ")
             << static_cast<int64_t>(vectorSize);
    }
    return success();
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Copies between strided views (a padded convolution input's interior)
    // would call the runtime's element-by-element memrefCopy: as
    // linalg.copy they become vector loops like any other op. Contiguous
    // copies stay memref.copy (a memcpy).
    getOperation()->walk([&](memref::CopyOp copy) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (!source || !target ||
          (memref::isStaticShapeAndContiguousRowMajor(source) &&
           memref::isStaticShapeAndContiguousRowMajor(target)))
        return;
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    });
    // Reductions along their inputs' innermost index first, before the
    // fills of their outputs (which they fold) are vectorized.
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (linalg::LinalgOp op : ops)
      (void)amp::vectorizeInnerReduction(rewriter, op, vectorSize);
    ops.clear();
    getOperation()->walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (linalg::LinalgOp op : ops)
      (void)amp::vectorizeForCPU(rewriter, op, vectorSize);

    // Vectors without their leading unit dimensions, transfers on subviews
    // folded into transfers on the viewed buffers.
    RewritePatternSet patterns(&getContext());
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    memref::populateFoldMemRefAliasOpPatterns(patterns);
    // Best effort, as in upstream's fold-memref-alias-ops: the folding of
    // reshapes into transfers may report changes it did not make, so the
    // driver can stop before it sees a fixed point; the IR is valid anyway.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
    // Transposed reads and writes (of 2-d tiles) as reads and writes of
    // rows and a vector.transpose.
    RewritePatternSet transposes(&getContext());
    transposes.add<TransposedReadToRows, TransposedWriteToRows>(&getContext());
    (void)applyPatternsGreedily(getOperation(), std::move(transposes));
    // An accumulator read and written at the same place in every iteration
    // of a loop (a matmul tile's, along k) stays in registers across it.
    linalg::hoistRedundantVectorTransfers(getOperation());
  }
};
} // namespace

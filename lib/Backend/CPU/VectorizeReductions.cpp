//===- VectorizeReductions.cpp - Kernels for innermost reductions ---------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/VectorizeReductions.h"
#include "amp/Backend/CPU/VectorizeContractions.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

std::optional<amp::InnerReduction>
amp::matchInnerReduction(linalg::LinalgOp op, int64_t vectorSize) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1 ||
      !isScalarElementwiseBody(*op.getBlock()))
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, [](int64_t range) {
        return ShapedType::isDynamic(range) || range == 0;
      }))
    return std::nullopt;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type || !isa<FloatType>(type.getElementType()))
      return std::nullopt;
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned dim =
      llvm::find(iterators, utils::IteratorType::reduction) - iterators.begin();

  // The output: every parallel dimension once, the reduction not.
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!outMap.isProjectedPermutation() || outMap.isFunctionOfDim(dim) ||
      outMap.getNumResults() != op.getNumParallelLoops())
    return std::nullopt;
  // Inputs read along the reduction only as their innermost index.
  bool readsAlong = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isFunctionOfDim(dim))
      continue;
    ArrayRef<AffineExpr> results = map.getResults();
    if (results.back() != getAffineDimExpr(dim, op.getContext()) ||
        llvm::any_of(results.drop_back(), [&](AffineExpr index) {
          return index.isFunctionOfDim(dim);
        }))
      return std::nullopt;
    readsAlong = true;
  }
  if (!readsAlong)
    return std::nullopt;

  // The body yields combiner(acc, term), acc used nowhere else.
  Block &body = *op.getBlock();
  BlockArgument acc = body.getArguments().back();
  Operation *combiner = body.getTerminator()->getOperand(0).getDefiningOp();
  if (!combiner || combiner->getBlock() != &body ||
      !linalg::getCombinerOpKind(combiner) || !combiner->hasOneUse() ||
      !acc.hasOneUse() || acc.getUses().begin()->getOwner() != combiner)
    return std::nullopt;
  Value term = combiner->getOperand(combiner->getOperand(0) == acc ? 1 : 0);

  int64_t lanes = 1;
  for (int64_t width = 2; width <= vectorSize; width *= 2)
    if (ranges[dim] % width == 0)
      lanes = width;
  if (lanes < 4)
    return std::nullopt;
  unsigned rowDim = 0;
  int64_t rows = 1;
  if (outMap.getNumResults() != 0) {
    rowDim = cast<AffineDimExpr>(outMap.getResults().back()).getPosition();
    for (int64_t count = 2; count <= std::min<int64_t>(lanes, 8); count *= 2)
      if (ranges[rowDim] % count == 0)
        rows = count;
  }
  return InnerReduction{dim, lanes, combiner, term, rowDim, rows};
}

LogicalResult amp::vectorizeInnerReduction(RewriterBase &rewriter,
                                           linalg::LinalgOp op,
                                           int64_t vectorSize) {
  std::optional<InnerReduction> reduction = matchInnerReduction(op, vectorSize);
  if (!reduction)
    return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  Block &body = *op.getBlock();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  linalg::LinalgOp fill = getInitFill(op);
  Value initValue = fill ? materializeFillValue(rewriter, fill) : Value();
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap outMap = op.getMatchingIndexingMap(init);
  int64_t lanes = reduction->lanes;
  unsigned dim = reduction->dim;

  SmallVector<Value> dims(ranges.size());
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  // The term on the `lanes` elements from `dims[dim]` on.
  auto termVector = [&]() -> Value {
    IRMapping mapping;
    for (OpOperand *input : op.getDpsInputOperands()) {
      BlockArgument arg = body.getArgument(input->getOperandNumber());
      if (arg.use_empty())
        continue;
      AffineMap map = op.getMatchingIndexingMap(input);
      SmallVector<Value> at = getIndicesAt(rewriter, loc, map, dims);
      if (!map.isFunctionOfDim(dim)) {
        mapping.map(arg, memref::LoadOp::create(rewriter, loc, input->get(), at)
                             .getResult());
        continue;
      }
      Value padding = arith::ConstantOp::create(
          rewriter, loc, rewriter.getZeroAttr(arg.getType()));
      mapping.map(arg,
                  vector::TransferReadOp::create(
                      rewriter, loc, VectorType::get({lanes}, arg.getType()),
                      input->get(), at, padding, ArrayRef<bool>{true}));
    }
    return applyBodyToVectors(rewriter, loc, body, mapping, lanes,
                              reduction->term);
  };
  // combiner(acc, term) on other operands, keeping the operand order.
  auto combine = [&](Value accumulator, Value term) -> Value {
    Operation *combiner = reduction->combiner;
    bool accFirst = combiner->getOperand(0) == body.getArguments().back();
    IRMapping operands;
    operands.map(combiner->getOperand(accFirst ? 0 : 1), accumulator);
    operands.map(combiner->getOperand(accFirst ? 1 : 0), term);
    Operation *combined = rewriter.clone(*combiner, operands);
    combined->getResult(0).setType(accumulator.getType());
    return combined->getResult(0);
  };

  // The halves of the rows of `lanes` lanes in `first` (then `second`),
  // `width` lanes each: the lower halves, or the upper ones.
  auto halves = [&](Value first, Value second, int64_t width, bool upper) {
    int64_t length = cast<VectorType>(first.getType()).getNumElements();
    SmallVector<int64_t> mask;
    for (int64_t offset : {int64_t(0), length}) {
      if (offset && first == second)
        break;
      for (int64_t row = 0; row < length / width; ++row)
        for (int64_t lane = 0; lane < width / 2; ++lane)
          mask.push_back(offset + row * width + (upper ? width / 2 : 0) + lane);
    }
    return vector::ShuffleOp::create(rewriter, loc, first, second, mask)
        .getResult();
  };
  // One vector with the results of `partials` (a vector of `lanes` lanes
  // per row), in row order: pairs of vectors become one with both rows'
  // halves combined, then the rows' lanes are halved until one is left.
  auto combineRows = [&](SmallVector<Value> partials) -> Value {
    int64_t width = lanes;
    while (partials.size() > 1) {
      SmallVector<Value> next;
      for (size_t i = 0; i < partials.size(); i += 2)
        next.push_back(
            combine(halves(partials[i], partials[i + 1], width, false),
                    halves(partials[i], partials[i + 1], width, true)));
      partials = next;
      width /= 2;
    }
    Value combined = partials.front();
    for (; width > 1; width /= 2)
      combined = combine(halves(combined, combined, width, false),
                         halves(combined, combined, width, true));
    return combined;
  };

  int64_t rows = reduction->rows;
  unsigned rowDim = reduction->rowDim;
  // The partial vectors of `rows` consecutive output elements from
  // `dims[rowDim]` on, combined into their output elements.
  auto emitRows = [&] {
    // (Without rows, `rowDim` means nothing; it may even be `dim`.)
    Value first = rows > 1 ? dims[rowDim] : Value();
    auto atRow = [&](int64_t row) {
      if (rows == 1)
        return;
      dims[rowDim] =
          row == 0
              ? first
              : affine::AffineApplyOp::create(
                    rewriter, loc,
                    AffineMap::get(1, 0, rewriter.getAffineDimExpr(0) + row),
                    first)
                    .getResult();
    };
    // Lanes of partial results over the reduction.
    dims[dim] = index(0);
    SmallVector<Value> partials;
    for (int64_t row = 0; row < rows; ++row) {
      atRow(row);
      partials.push_back(termVector());
    }
    if (ranges[dim] > lanes) {
      auto loop =
          scf::ForOp::create(rewriter, loc, index(lanes), index(ranges[dim]),
                             index(lanes), partials);
      OpBuilder::InsertionGuard inLoop(rewriter);
      rewriter.setInsertionPointToStart(loop.getBody());
      dims[dim] = loop.getInductionVar();
      SmallVector<Value> next;
      for (int64_t row = 0; row < rows; ++row) {
        atRow(row);
        next.push_back(combine(loop.getRegionIterArgs()[row], termVector()));
      }
      scf::YieldOp::create(rewriter, loc, next);
      rewriter.setInsertionPointAfter(loop);
      partials.assign(loop.getResults().begin(), loop.getResults().end());
    }
    if (rows > 1)
      dims[rowDim] = first;
    SmallVector<Value> at = getIndicesAt(rewriter, loc, outMap, dims);
    if (rows == 1) {
      Value lanesCombined = vector::ReductionOp::create(
          rewriter, loc, *linalg::getCombinerOpKind(reduction->combiner),
          partials.front(), arith::FastMathFlags::reassoc);
      Value start = initValue
                        ? initValue
                        : memref::LoadOp::create(rewriter, loc, init->get(), at)
                              .getResult();
      memref::StoreOp::create(rewriter, loc, combine(start, lanesCombined),
                              init->get(), at);
      return;
    }
    Value combined = combineRows(partials);
    auto type = cast<VectorType>(combined.getType());
    Value start =
        initValue ? vector::BroadcastOp::create(rewriter, loc, type, initValue)
                        .getResult()
                  : vector::TransferReadOp::create(
                        rewriter, loc, type, init->get(), at,
                        arith::ConstantOp::create(
                            rewriter, loc,
                            rewriter.getZeroAttr(type.getElementType())),
                        ArrayRef<bool>{true})
                        .getResult();
    vector::TransferWriteOp::create(rewriter, loc, combine(start, combined),
                                    init->get(), at, ArrayRef<bool>{true});
  };

  std::function<void(unsigned)> emitLoops = [&](unsigned d) {
    if (d == ranges.size())
      return emitRows();
    int64_t step = d == rowDim ? rows : 1;
    if (d == dim || ranges[d] == step) {
      dims[d] = index(0);
      return emitLoops(d + 1);
    }
    auto loop = scf::ForOp::create(rewriter, loc, index(0), index(ranges[d]),
                                   index(step));
    OpBuilder::InsertionGuard inLoop(rewriter);
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
    dims[d] = loop.getInductionVar();
    emitLoops(d + 1);
  };
  emitLoops(0);
  rewriter.eraseOp(op);
  if (fill)
    rewriter.eraseOp(fill);
  return success();
}

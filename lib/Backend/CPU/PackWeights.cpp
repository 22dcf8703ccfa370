//===- PackWeights.cpp - Constant operands in kernel order ----------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/PackWeights.h"
#include "amp/Backend/CPU/Passes.h"
#include "amp/Backend/CPU/VectorizeContractions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"

#include <cstring>

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_PACKWEIGHTS
#include "amp/Backend/CPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// The bytes of a non-splat dense constant of byte-sized elements, or none.
static std::optional<ArrayRef<char>> rawElements(Attribute value) {
  auto type = dyn_cast<ShapedType>(cast<TypedAttr>(value).getType());
  if (!type || !type.hasStaticShape() || type.getElementTypeBitWidth() % 8 != 0)
    return std::nullopt;
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (dense.isSplat())
      return std::nullopt;
    return dense.getRawData();
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
  return std::nullopt;
}

/// `data` (elements of `bytes` bytes, in shape `shape`) with its dimensions
/// in the order `order` (result dimension i is source dimension order[i]).
static std::vector<char> transpose(ArrayRef<char> data, int64_t bytes,
                                   ArrayRef<int64_t> shape,
                                   ArrayRef<unsigned> order) {
  int64_t rank = shape.size();
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  std::vector<char> result(data.size());
  SmallVector<int64_t> index(rank, 0); // in the result's dimensions
  int64_t source = 0;
  for (size_t out = 0, e = data.size() / bytes; out < e; ++out) {
    std::memcpy(&result[out * bytes], &data[source * bytes], bytes);
    for (int64_t d = rank - 1; d >= 0; --d) {
      int64_t stride = strides[order[d]];
      if (++index[d] < shape[order[d]]) {
        source += stride;
        break;
      }
      source -= (index[d] - 1) * stride;
      index[d] = 0;
    }
  }
  return result;
}

/// Replaces `input` (a constant) of `op` with `data` in shape `shape` and
/// its indexing map with `indices`.
static void replaceConstantOperand(RewriterBase &rewriter, linalg::GenericOp op,
                                   OpOperand *input, ArrayRef<int64_t> shape,
                                   ArrayRef<char> data,
                                   ArrayRef<AffineExpr> indices) {
  auto constant = input->get().getDefiningOp<arith::ConstantOp>();
  auto type = cast<RankedTensorType>(constant.getType());
  auto packedType = RankedTensorType::get(shape, type.getElementType());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  auto packed = arith::ConstantOp::create(
      rewriter, constant.getLoc(), packedType,
      DenseElementsAttr::getFromRawBuffer(packedType, data));
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps[input->getOperandNumber()] =
      AffineMap::get(op.getNumLoops(), 0, indices, op.getContext());
  rewriter.modifyOpInPlace(op, [&] {
    input->set(packed);
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  if (constant->use_empty())
    rewriter.eraseOp(constant);
}

/// The bf16 pair layout (VectorizeContractions.h, getBF16PairInput) for the
/// constant input of a widened bf16 product sum.
static LogicalResult packBF16Pairs(RewriterBase &rewriter,
                                   linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 ||
      !amp::isWidenedProductSum(*op.getBlock(),
                                BFloat16Type::get(op.getContext())))
    return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  unsigned n = cast<AffineDimExpr>(outMap.getResults().back()).getPosition();
  unsigned k = 0;
  for (auto [dim, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::reduction)
      k = dim;
  if (ShapedType::isDynamic(ranges[k]) || ranges[k] % 2 != 0 ||
      ShapedType::isDynamic(ranges[n]) || ranges[n] % 4 != 0)
    return failure();
  AffineExpr kExpr = rewriter.getAffineDimExpr(k);
  AffineExpr nExpr = rewriter.getAffineDimExpr(n);
  for (unsigned which = 0; which < 2; ++which) {
    OpOperand *input = op.getDpsInputOperand(which);
    AffineMap map = op.getMatchingIndexingMap(input);
    AffineMap other =
        op.getMatchingIndexingMap(op.getDpsInputOperand(1 - which));
    auto constant = input->get().getDefiningOp<arith::ConstantOp>();
    if (!constant || !map.isProjectedPermutation() || !map.isFunctionOfDim(k) ||
        !map.isFunctionOfDim(n) || other.getNumResults() == 0 ||
        other.getResults().back() != kExpr || other.isFunctionOfDim(n) ||
        llvm::count_if(other.getResults(), [&](AffineExpr index) {
          return index.isFunctionOfDim(k);
        }) != 1)
      continue;
    std::optional<ArrayRef<char>> data = rawElements(constant.getValue());
    if (!data)
      continue;
    auto type = cast<RankedTensorType>(constant.getType());
    int64_t bytes = type.getElementTypeBitWidth() / 8;
    // First (others..., k, n), then pairs of k innermost.
    SmallVector<unsigned> order;
    SmallVector<AffineExpr> indices;
    SmallVector<int64_t> shape;
    unsigned kPosition = 0, nPosition = 0;
    for (auto [position, index] : llvm::enumerate(map.getResults())) {
      if (index == kExpr)
        kPosition = position;
      else if (index == nExpr)
        nPosition = position;
      else {
        order.push_back(position);
        indices.push_back(index);
        shape.push_back(type.getDimSize(position));
      }
    }
    unsigned others = order.size();
    order.append({kPosition, nPosition});
    std::vector<char> kn = transpose(*data, bytes, type.getShape(), order);
    SmallVector<int64_t> split(shape);
    split.append({ranges[k] / 2, 2, ranges[n]});
    SmallVector<unsigned> pairsLast;
    for (unsigned d = 0; d < others; ++d)
      pairsLast.push_back(d);
    pairsLast.append({others, others + 2, others + 1});
    std::vector<char> packed = transpose(kn, bytes, split, pairsLast);
    shape.append({ranges[k] / 2, ranges[n], 2});
    indices.append({kExpr.floorDiv(2), nExpr, kExpr % 2});
    replaceConstantOperand(rewriter, op, input, shape, packed, indices);
    return success();
  }
  return failure();
}

LogicalResult amp::packWeights(RewriterBase &rewriter, linalg::GenericOp op,
                               bool bf16Pairs) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0)
    return failure();
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outMap.getNumResults() == 0 || !outMap.isProjectedPermutation())
    return failure();
  if (bf16Pairs && succeeded(packBF16Pairs(rewriter, op)))
    return success();
  unsigned vectorDim =
      cast<AffineDimExpr>(outMap.getResults().back()).getPosition();

  bool changed = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto constant = input->get().getDefiningOp<arith::ConstantOp>();
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!constant || !map.isProjectedPermutation() ||
        !map.isFunctionOfDim(vectorDim) ||
        map.getResults().back() == rewriter.getAffineDimExpr(vectorDim))
      continue;
    std::optional<ArrayRef<char>> data = rawElements(constant.getValue());
    if (!data)
      continue;
    auto type = cast<RankedTensorType>(constant.getType());
    // The vector dimension moves last; the others keep their order.
    SmallVector<unsigned> order;
    unsigned last = 0;
    for (auto [position, index] : llvm::enumerate(map.getResults())) {
      if (index == rewriter.getAffineDimExpr(vectorDim))
        last = position;
      else
        order.push_back(position);
    }
    order.push_back(last);
    SmallVector<int64_t> shape;
    SmallVector<AffineExpr> indices;
    for (unsigned position : order) {
      shape.push_back(type.getDimSize(position));
      indices.push_back(map.getResult(position));
    }
    std::vector<char> packed = transpose(
        *data, type.getElementTypeBitWidth() / 8, type.getShape(), order);
    replaceConstantOperand(rewriter, op, input, shape, packed, indices);
    changed = true;
  }
  return success(changed);
}

namespace {
struct PackWeights : amp::impl::PackWeightsBase<PackWeights> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation()->walk([&](linalg::GenericOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : ops)
      (void)amp::packWeights(rewriter, op, bf16Pairs);
  }
};
} // namespace

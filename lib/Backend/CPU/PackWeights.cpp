//===- PackWeights.cpp - Constant operands in kernel order ----------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/PackWeights.h"
#include "amp/Backend/CPU/Passes.h"

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
  if (!type || !type.hasStaticShape() ||
      type.getElementTypeBitWidth() % 8 != 0)
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

LogicalResult amp::packWeights(RewriterBase &rewriter, linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0)
    return failure();
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outMap.getNumResults() == 0 || !outMap.isProjectedPermutation())
    return failure();
  unsigned vectorDim =
      cast<AffineDimExpr>(outMap.getResults().back()).getPosition();

  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  bool changed = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto constant = input->get().getDefiningOp<arith::ConstantOp>();
    AffineMap map = maps[input->getOperandNumber()];
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
    auto packedType = RankedTensorType::get(shape, type.getElementType());
    std::vector<char> packed =
        transpose(*data, type.getElementTypeBitWidth() / 8, type.getShape(),
                  order);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op);
    auto packedConstant = arith::ConstantOp::create(
        rewriter, constant.getLoc(), packedType,
        DenseElementsAttr::getFromRawBuffer(packedType, packed));
    rewriter.modifyOpInPlace(op, [&] { input->set(packedConstant); });
    maps[input->getOperandNumber()] =
        AffineMap::get(map.getNumDims(), 0, indices, op.getContext());
    if (constant->use_empty())
      rewriter.eraseOp(constant);
    changed = true;
  }
  if (!changed)
    return failure();
  rewriter.modifyOpInPlace(op, [&] {
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  return success();
}

namespace {
struct PackWeights : amp::impl::PackWeightsBase<PackWeights> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation()->walk([&](linalg::GenericOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : ops)
      (void)amp::packWeights(rewriter, op);
  }
};
} // namespace

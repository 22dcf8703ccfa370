//===- ContractionZeroRows.cpp - Skipping steps past known zeros
//------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Zero-row clipping: a reduction step that reads only rows of an input
// known to be zero (a padded buffer's border that a fill wrote and nothing
// overwrote) adds nothing, so a kernel skips it.
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

namespace {
/// Where a view reaches along one dimension of its root buffer.
struct RowSpan {
  int64_t begin, end;
};
} // namespace

/// Whether the offset of `subview` along `dim` is an induction variable of
/// an `scf.forall` directly around `at` that steps from 0 through the
/// source's whole extent along `dim`, one subview size at a time: the views
/// of all its iterations (the slices of an op split over threads) together
/// cover the source along `dim`. An induction variable counts once
/// (`used`): the same one at two dimensions covers a diagonal.
static bool isForallCover(memref::SubViewOp subview, unsigned dim,
                          Operation *at, SmallPtrSetImpl<Value> &used) {
  auto iv = dyn_cast_if_present<BlockArgument>(
      dyn_cast_if_present<Value>(subview.getMixedOffsets()[dim]));
  auto forall =
      iv ? dyn_cast<scf::ForallOp>(iv.getOwner()->getParentOp()) : nullptr;
  if (!forall || at->getParentOp() != forall ||
      iv.getArgNumber() >= forall.getRank() || !used.insert(iv).second)
    return false;
  unsigned index = iv.getArgNumber();
  std::optional<int64_t> lower =
      getConstantIntValue(forall.getMixedLowerBound()[index]);
  std::optional<int64_t> upper =
      getConstantIntValue(forall.getMixedUpperBound()[index]);
  std::optional<int64_t> step =
      getConstantIntValue(forall.getMixedStep()[index]);
  int64_t size = subview.getStaticSizes()[dim];
  int64_t extent = subview.getSourceType().getDimSize(dim);
  // (The verifier lets a forall step by 0; a dynamic size is negative.)
  return lower && upper && step && *lower == 0 && *step == size && size > 0 &&
         !ShapedType::isDynamic(extent) && *upper == extent &&
         extent % size == 0;
}

/// The span of rows `[offset, offset + size)` of `view` (which `at` reads
/// or writes) along dimension `dim` of its root buffer, when the views
/// between them keep the rank and have a unit stride and a static size
/// along `dim`; and whether the view covers the root buffer whole along
/// every other dimension, over all iterations of the `scf.forall`s
/// directly around `at` where its offsets are their induction variables.
/// Along `dim`, a dynamic offset is added to `dynamicOffsets` where it is
/// given (the span then starts there plus `begin`), and otherwise is known
/// only as such a forall's steps, whose views together span the source's.
static std::optional<std::pair<RowSpan, bool>>
getRowSpan(Value view, unsigned dim, Operation *at,
           SmallVectorImpl<Value> *dynamicOffsets = nullptr,
           unsigned *rootDim = nullptr) {
  auto type = cast<MemRefType>(view.getType());
  if (ShapedType::isDynamic(type.getDimSize(dim)))
    return std::nullopt;
  RowSpan span{0, type.getDimSize(dim)};
  bool whole = true;
  SmallPtrSet<Value, 4> used;
  while (true) {
    type = cast<MemRefType>(view.getType());
    // A collapse of unit dimensions: `dim` is its group's dimension that
    // is not a unit one.
    if (auto collapse = view.getDefiningOp<memref::CollapseShapeOp>()) {
      MemRefType source = collapse.getSrcType();
      std::optional<int64_t> wide;
      for (int64_t d : collapse.getReassociationIndices()[dim]) {
        if (source.getDimSize(d) == 1)
          continue;
        if (wide)
          return std::nullopt;
        wide = d;
      }
      dim = wide ? *wide : collapse.getReassociationIndices()[dim].front();
      view = collapse.getSrc();
      continue;
    }
    auto subview = view.getDefiningOp<memref::SubViewOp>();
    if (!subview)
      break;
    MemRefType source = subview.getSourceType();
    if (source.getRank() != type.getRank())
      return std::nullopt;
    ArrayRef<int64_t> offsets = subview.getStaticOffsets(),
                      sizes = subview.getStaticSizes(),
                      strides = subview.getStaticStrides();
    if (strides[dim] != 1 || ShapedType::isDynamic(sizes[dim]))
      return std::nullopt;
    if (!ShapedType::isDynamic(offsets[dim])) {
      span.begin += offsets[dim];
      span.end += offsets[dim];
    } else if (dynamicOffsets) {
      dynamicOffsets->push_back(cast<Value>(subview.getMixedOffsets()[dim]));
    } else if (span.begin == 0 && span.end == sizes[dim] &&
               isForallCover(subview, dim, at, used)) {
      span.end = source.getDimSize(dim);
    } else {
      return std::nullopt;
    }
    for (unsigned other = 0; other < type.getRank(); ++other)
      if (other != dim &&
          (offsets[other] != 0 || sizes[other] != source.getDimSize(other)) &&
          !isForallCover(subview, other, at, used))
        whole = false;
    view = subview.getSource();
  }
  if (!isa_and_present<memref::AllocOp, memref::AllocaOp>(
          view.getDefiningOp()) ||
      ShapedType::isDynamic(cast<MemRefType>(view.getType()).getDimSize(dim)))
    return std::nullopt;
  if (rootDim)
    *rootDim = dim;
  return std::make_pair(span, whole);
}

/// Whether `a` surely runs before `b`: `a` is in a block that holds `b`
/// (or an op around it), or in `scf.forall`s there that each run their
/// body, and comes first.
static bool runsBefore(Operation *a, Operation *b) {
  for (Operation *ancestor = a; ancestor && ancestor->getBlock();) {
    if (Operation *other = ancestor->getBlock()->findAncestorOpInBlock(*b))
      return ancestor != other && ancestor->isBeforeInBlock(other);
    auto forall = dyn_cast_if_present<scf::ForallOp>(ancestor->getParentOp());
    if (!forall)
      return false;
    for (auto [lower, upper] : llvm::zip_equal(forall.getMixedLowerBound(),
                                               forall.getMixedUpperBound())) {
      std::optional<int64_t> from = getConstantIntValue(lower),
                             to = getConstantIntValue(upper);
      if (!from || !to || *from >= *to)
        return false;
    }
    ancestor = forall;
  }
  return false;
}

/// Finds, for `op` (with `tile`), a reduction dimension whose steps past
/// known zeros of an input can be skipped (`amp::ZeroRowClip`).
std::optional<amp::ZeroRowClip>
amp::findZeroRowClip(linalg::LinalgOp op, const amp::ContractionTile &tile) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    for (auto [dim, index] : llvm::enumerate(map.getResults())) {
      // The index `stride * outer + dilation * reduction`.
      auto sum = dyn_cast<AffineBinaryOpExpr>(index);
      if (!sum || sum.getKind() != AffineExprKind::Add)
        continue;
      std::optional<amp::ZeroRowClip> clip;
      for (auto [term, other] : {std::pair(sum.getLHS(), sum.getRHS()),
                                 std::pair(sum.getRHS(), sum.getLHS())}) {
        int64_t dilation = 1;
        if (auto product = dyn_cast<AffineBinaryOpExpr>(term);
            product && product.getKind() == AffineExprKind::Mul) {
          auto factor = dyn_cast<AffineConstantExpr>(product.getRHS());
          if (!factor || factor.getValue() < 1)
            continue;
          dilation = factor.getValue();
          term = product.getLHS();
        }
        auto reduction = dyn_cast<AffineDimExpr>(term);
        if (!reduction || iterators[reduction.getPosition()] !=
                              utils::IteratorType::reduction)
          continue;
        int64_t stride = 1;
        AffineExpr outer = other;
        if (auto product = dyn_cast<AffineBinaryOpExpr>(other);
            product && product.getKind() == AffineExprKind::Mul) {
          auto factor = dyn_cast<AffineConstantExpr>(product.getRHS());
          if (!factor)
            continue;
          stride = factor.getValue();
          outer = product.getLHS();
        }
        auto outerDim = dyn_cast<AffineDimExpr>(outer);
        if (!outerDim ||
            iterators[outerDim.getPosition()] != utils::IteratorType::parallel)
          continue;
        unsigned position = outerDim.getPosition();
        if (position == tile.vectorDim || position == tile.rowDim ||
            reduction.getPosition() == tile.pairDim ||
            ranges[reduction.getPosition()] < 2)
          continue;
        clip = amp::ZeroRowClip{reduction.getPosition(),
                                position,
                                stride,
                                dilation,
                                0,
                                0,
                                0,
                                {},
                                {}};
      }
      if (!clip)
        continue;
      // (`rowDim`: the dimension of the input's root buffer that `dim`
      // is, past collapses of unit dimensions.)
      unsigned rowDim = dim;
      std::optional<std::pair<RowSpan, bool>> read =
          getRowSpan(input->get(), dim, op, &clip->offsetValues, &rowDim);
      if (!read)
        continue;
      clip->offset = read->first.begin;
      Value root = amp::getRootBuffer(input->get());
      int64_t rows = cast<MemRefType>(root.getType()).getDimSize(rowDim);
      // Every access to the buffer: zero fills of whole slabs of rows
      // before `op`, and others that stay within the rows between them.
      SmallVector<std::pair<Operation *, RowSpan>> zeroSlabs, others;
      bool known = true;
      SmallVector<Value> worklist{root};
      while (known && !worklist.empty()) {
        Value buffer = worklist.pop_back_val();
        for (Operation *user : buffer.getUsers()) {
          if (user == op.getOperation() || isa<memref::DeallocOp>(user))
            continue;
          if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
            worklist.push_back(subview.getResult());
            continue;
          }
          // (A collapse that only `op` reads: the view `op` reads through.)
          if (isa<memref::CollapseShapeOp>(user) &&
              llvm::all_of(user->getUsers(), [&](Operation *reader) {
                return reader == op.getOperation();
              }))
            continue;
          std::optional<std::pair<RowSpan, bool>> span =
              getRowSpan(buffer, rowDim, user);
          if (!span || !isa<linalg::LinalgOp, memref::CopyOp>(user)) {
            known = false;
            break;
          }
          Value filled = getFilledScalar(user);
          bool zeroBefore = filled && matchPattern(filled, m_AnyZeroFloat()) &&
                            runsBefore(user, op);
          // (Zeros written elsewhere, such as the padding columns, keep
          // the slabs zero.)
          if (zeroBefore && span->second)
            zeroSlabs.push_back({user, span->first});
          else if (!zeroBefore)
            others.push_back({user, span->first});
        }
      }
      if (!known)
        continue;
      // The rows from either end that zero slabs cover.
      int64_t first = 0, end = rows;
      for (bool grew = true; grew;) {
        grew = false;
        for (auto &[fill, span] : zeroSlabs) {
          if (span.begin <= first && span.end > first) {
            first = span.end;
            grew = true;
          }
          if (span.end >= end && span.begin < end) {
            end = span.begin;
            grew = true;
          }
        }
      }
      if (first >= end || (first == 0 && end == rows))
        continue;
      // Others may not write the zero rows; where they read none, the
      // slabs' fills of those rows are dead once `op` skips them.
      bool othersInside = true;
      for (auto &[other, span] : others)
        if (span.begin < first || span.end > end)
          othersInside = false;
      if (!othersInside)
        continue;
      clip->firstRow = first;
      clip->endRow = end;
      for (auto &[fill, span] : zeroSlabs)
        if (span.end <= first || span.begin >= end)
          clip->deadFills.push_back(fill);
      return clip;
    }
  }
  return std::nullopt;
}

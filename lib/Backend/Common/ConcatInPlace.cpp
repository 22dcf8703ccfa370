//===- ConcatInPlace.cpp - Concatenations written in place ----------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/ConcatInPlace.h"
#include "amp/Backend/Common/PadInPlace.h"
#include "amp/Backend/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_CONCATINPLACE
#include "amp/Backend/Common/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
/// A concatenation: insertions of static, disjoint slices into a
/// `tensor.empty`, each link of the chain used only by the next.
struct Concatenation {
  tensor::EmptyOp root;
  SmallVector<tensor::InsertSliceOp> inserts;
};

/// One piece of a concatenation in the tensor it is rebuilt into.
struct Piece {
  Value value;
  SmallVector<int64_t> offsets, sizes;
};
} // namespace

/// The concatenation whose last insertion gives `value`, if it is one.
static std::optional<Concatenation> getConcatenation(Value value) {
  Concatenation concat;
  while (auto insert = value.getDefiningOp<tensor::InsertSliceOp>()) {
    if (!concat.inserts.empty() &&
        (!value.hasOneUse() ||
         insert->getBlock() != concat.inserts.front()->getBlock()))
      return std::nullopt;
    if (ShapedType::isDynamicShape(insert.getStaticOffsets()) ||
        ShapedType::isDynamicShape(insert.getStaticSizes()) ||
        !llvm::all_of(insert.getStaticStrides(),
                      [](int64_t stride) { return stride == 1; }))
      return std::nullopt;
    concat.inserts.push_back(insert);
    value = insert.getDest();
  }
  concat.root = value.getDefiningOp<tensor::EmptyOp>();
  // (All the links in one block.)
  if (!concat.root || !concat.root.getType().hasStaticShape() ||
      concat.inserts.size() < 2 || !value.hasOneUse())
    return std::nullopt;
  std::reverse(concat.inserts.begin(), concat.inserts.end());
  // Disjoint slices: the order of the insertions does not matter.
  for (auto [i, a] : llvm::enumerate(concat.inserts))
    for (tensor::InsertSliceOp b : ArrayRef(concat.inserts).drop_front(i + 1))
      if (llvm::all_of(llvm::seq<unsigned>(0, a.getStaticOffsets().size()),
                       [&](unsigned d) {
                         int64_t aStart = a.getStaticOffsets()[d],
                                 bStart = b.getStaticOffsets()[d];
                         return aStart < bStart + b.getStaticSizes()[d] &&
                                bStart < aStart + a.getStaticSizes()[d];
                       }))
        return std::nullopt;
  return concat;
}

/// The block's op that computes `value`, or null where it comes from
/// outside the block.
static Operation *getComputingOp(Block *block, Value value) {
  Operation *def = value.getDefiningOp();
  return def ? block->findAncestorOpInBlock(*def) : nullptr;
}

/// The destination of the op that computes `piece` when it can be its
/// slice of the concatenation: `piece` is the result of an op of `block`
/// that overwrites its destination, the first result of that op among the
/// pieces (`producers`: the ops of the pieces before), and inserted into
/// nothing else (a piece of two concatenations is computed in neither).
static OpOperand *getInitInSlice(Block *block, Value piece,
                                 DenseSet<Operation *> &producers) {
  Operation *producer = getComputingOp(block, piece);
  if (!producer || producer != piece.getDefiningOp() ||
      !producers.insert(producer).second)
    return nullptr;
  if (llvm::count_if(piece.getUsers(), [&](Operation *user) {
        auto insert = dyn_cast<tensor::InsertSliceOp>(user);
        return insert && insert.getSource() == piece;
      }) != 1)
    return nullptr;
  return amp::getOverwrittenInit(piece);
}

/// Rebuilds `concat` into `destination` (created by `createDestination`
/// before the first piece is computed), piece `i` at `pieces[i]`: each
/// piece inserted right after it is computed, an elementwise producer
/// writing into its slice. Returns the last link.
static Value
rebuildInPlace(PatternRewriter &rewriter, Concatenation &concat,
               MutableArrayRef<Piece> pieces,
               function_ref<Value(OpBuilder &, Location)> createDestination) {
  Block *block = concat.inserts.back()->getBlock();
  // The pieces by where they are computed: those from outside the block
  // first, then in the block's order.
  llvm::stable_sort(pieces, [&](const Piece &a, const Piece &b) {
    Operation *x = getComputingOp(block, a.value);
    Operation *y = getComputingOp(block, b.value);
    if (!x || !y)
      return !x && y;
    return x->isBeforeInBlock(y);
  });
  Location loc = concat.inserts.back().getLoc();
  // The destination before the first piece computed in the block.
  Operation *first = concat.inserts.front();
  for (Piece &piece : pieces)
    if (Operation *producer = getComputingOp(block, piece.value)) {
      first = producer;
      break;
    }
  rewriter.setInsertionPoint(first);
  Value chain = createDestination(rewriter, loc);
  MLIRContext *context = rewriter.getContext();
  // (Each piece's producer comes after the chain so far: it is computed
  // after the pieces before, each inserted right after its producer.)
  DenseSet<Operation *> producers;
  for (Piece &piece : pieces) {
    SmallVector<OpFoldResult> offsets =
        getAsIndexOpFoldResult(context, piece.offsets);
    SmallVector<OpFoldResult> sizes =
        getAsIndexOpFoldResult(context, piece.sizes);
    SmallVector<OpFoldResult> strides(piece.offsets.size(),
                                      rewriter.getIndexAttr(1));
    Operation *producer = getComputingOp(block, piece.value);
    if (OpOperand *init = getInitInSlice(block, piece.value, producers)) {
      rewriter.setInsertionPoint(producer);
      Value slice = tensor::ExtractSliceOp::create(
          rewriter, loc, cast<RankedTensorType>(piece.value.getType()), chain,
          offsets, sizes, strides);
      rewriter.modifyOpInPlace(producer, [&] { init->set(slice); });
    }
    // Inserted right after it is computed, or after the chain so far.
    Operation *after = chain.getDefiningOp();
    if (producer && after->isBeforeInBlock(producer))
      after = producer;
    rewriter.setInsertionPointAfter(after);
    chain = tensor::InsertSliceOp::create(rewriter, loc, piece.value, chain,
                                          offsets, sizes, strides);
  }
  return chain;
}

/// Whether `sizes` drops to `type`'s shape without some of its unit
/// dimensions (the rank-reduced slice type of a piece).
static bool isSliceOf(ArrayRef<int64_t> sizes, RankedTensorType type) {
  return isRankReducedType(RankedTensorType::get(sizes, type.getElementType()),
                           type) == SliceVerificationResult::Success;
}

namespace {
/// The pieces of a concatenation that nothing pads inserted in place.
struct ConcatInPlacePattern : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::InsertSliceOp last,
                                PatternRewriter &rewriter) const override {
    std::optional<Concatenation> concat = getConcatenation(last.getResult());
    if (!concat)
      return rewriter.notifyMatchFailure(last, "not a concatenation");
    if (last->hasOneUse() &&
        isa<tensor::InsertSliceOp, tensor::PadOp, tensor::CollapseShapeOp>(
            *last->user_begin()))
      return rewriter.notifyMatchFailure(
          last, "inserted further, or padded: rewritten from there");
    // Done when each piece that can be computed in its slice is.
    Block *block = last->getBlock();
    DenseSet<Operation *> producers;
    bool inPlace = llvm::all_of(concat->inserts, [&](auto insert) {
      OpOperand *init = getInitInSlice(block, insert.getSource(), producers);
      if (!init)
        return true;
      auto slice = init->get().template getDefiningOp<tensor::ExtractSliceOp>();
      return slice && slice.getSource() == insert.getDest() &&
             slice.getStaticOffsets() == insert.getStaticOffsets() &&
             slice.getStaticSizes() == insert.getStaticSizes();
    });
    if (inPlace)
      return rewriter.notifyMatchFailure(last, "computed in place already");
    SmallVector<Piece> pieces;
    for (tensor::InsertSliceOp insert : concat->inserts)
      pieces.push_back({insert.getSource(),
                        llvm::to_vector(insert.getStaticOffsets()),
                        llvm::to_vector(insert.getStaticSizes())});
    RankedTensorType type = concat->root.getType();
    Value chain = rebuildInPlace(
        rewriter, *concat, pieces, [&](OpBuilder &b, Location loc) {
          return tensor::EmptyOp::create(b, loc, type.getShape(),
                                         type.getElementType(),
                                         type.getEncoding());
        });
    rewriter.replaceOp(last, chain);
    return success();
  }
};

/// A constant padding of a concatenation: the concatenation into the
/// padded tensor, its border filled.
struct PaddedConcatInPlacePattern : OpRewritePattern<tensor::PadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::PadOp pad,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = pad.getResultType();
    if (!type.hasStaticShape() || !pad.getLow().empty() ||
        !pad.getHigh().empty() || pad.getNofold())
      return rewriter.notifyMatchFailure(pad, "dynamic or nofold padding");
    TypedAttr padAttr;
    Value padValue = pad.getConstantPaddingValue();
    if (!padValue || !matchPattern(padValue, m_Constant(&padAttr)))
      return rewriter.notifyMatchFailure(pad, "padding is not a constant");
    // The concatenation, through a collapse of unit dimensions.
    Value source = pad.getSource();
    SmallVector<ReassociationIndices> groups;
    auto collapse = source.getDefiningOp<tensor::CollapseShapeOp>();
    if (collapse) {
      if (!source.hasOneUse())
        return rewriter.notifyMatchFailure(pad, "collapse has other uses");
      groups = collapse.getReassociationIndices();
      source = collapse.getSrc();
    }
    if (!source.hasOneUse())
      return rewriter.notifyMatchFailure(pad, "source has other uses");
    std::optional<Concatenation> concat = getConcatenation(source);
    if (!concat)
      return rewriter.notifyMatchFailure(pad, "not a padded concatenation");
    ArrayRef<int64_t> concatShape = concat->root.getType().getShape();
    if (!collapse)
      for (int64_t d = 0, e = concatShape.size(); d < e; ++d)
        groups.push_back({d});
    // Each group's dimension that is not a unit one (any, if all are).
    SmallVector<int64_t> kept;
    for (const ReassociationIndices &group : groups) {
      auto wide = llvm::make_filter_range(
          group, [&](int64_t d) { return concatShape[d] != 1; });
      if (llvm::range_size(wide) > 1)
        return rewriter.notifyMatchFailure(pad, "collapse merges dimensions");
      kept.push_back(wide.empty() ? group.front() : *wide.begin());
    }
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    SmallVector<Piece> pieces;
    for (tensor::InsertSliceOp insert : concat->inserts) {
      Piece &piece = pieces.emplace_back();
      piece.value = insert.getSource();
      for (auto [d, dim] : llvm::enumerate(kept)) {
        piece.offsets.push_back(low[d] + insert.getStaticOffsets()[dim]);
        piece.sizes.push_back(insert.getStaticSizes()[dim]);
      }
      if (!isSliceOf(piece.sizes, insert.getSourceType()))
        return rewriter.notifyMatchFailure(pad, "piece drops a wide dimension");
    }
    Value chain = rebuildInPlace(
        rewriter, *concat, pieces, [&](OpBuilder &b, Location loc) {
          Value value = arith::ConstantOp::create(b, loc, padAttr);
          Value padded = tensor::EmptyOp::create(b, loc, type.getShape(),
                                                 type.getElementType(),
                                                 type.getEncoding());
          return amp::fillBorder(b, loc, padded, low, high, value);
        });
    rewriter.replaceOp(pad, chain);
    return success();
  }
};

struct ConcatInPlace : amp::impl::ConcatInPlaceBase<ConcatInPlace> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    amp::populateConcatInPlacePatterns(patterns);
    GreedyRewriteConfig config;
    config.enableFolding(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace

void amp::populateConcatInPlacePatterns(RewritePatternSet &patterns) {
  patterns.add<ConcatInPlacePattern, PaddedConcatInPlacePattern>(
      patterns.getContext());
}

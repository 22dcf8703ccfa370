//===- CastFolding.cpp - Exact cast folding patterns ----------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every pattern here keeps each value the program computes bit for bit; the
// exactness argument is given with each one and in docs/CastFolding.md.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/CastFolding.h"

#include "amp/Dialect/Amp/Amp.h"
#include "amp/Interfaces/AmpOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

/// Rounds every value of a float attribute to `type` the way a runtime cast
/// does (nearest-even; overflow gives infinity, as the cast would).
Attribute roundFloatAttr(Attribute attr, FloatType type) {
  auto round = [&](APFloat v) {
    bool losesInfo;
    v.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
              &losesInfo);
    return v;
  };
  if (auto f = dyn_cast<FloatAttr>(attr))
    return FloatAttr::get(type, round(f.getValue()));
  if (auto d = dyn_cast<DenseFPElementsAttr>(attr))
    return roundFloatData(d, type);
  return {};
}

/// Erases `value`'s defining op, and then its operands' defining ops, while
/// they have no users left and no side effects.
void eraseDeadChain(PatternRewriter &rewriter, Value value) {
  // Ops, not values: an op reached twice (x * x, or through two users) is
  // erased once, and no value of an erased op is looked at again.
  SmallVector<Operation *> worklist;
  if (Operation *def = value.getDefiningOp())
    worklist.push_back(def);
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val();
    if (!def->use_empty() || !isPure(def))
      continue;
    SmallVector<Operation *> producers;
    for (Value operand : def->getOperands())
      if (Operation *producer = operand.getDefiningOp();
          producer && !llvm::is_contained(producers, producer))
        producers.push_back(producer);
    llvm::erase(worklist, def);
    rewriter.eraseOp(def);
    llvm::append_range(worklist, producers);
  }
}

/// extf(extf(x)) -> extf(x): every value of the narrowest type is exact in
/// both wider types.
struct FoldExtOfExt : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp ext,
                                PatternRewriter &rewriter) const override {
    auto inner = ext.getIn().getDefiningOp<arith::ExtFOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(ext, "operand is not an extf");
    rewriter.replaceOpWithNewOp<arith::ExtFOp>(ext, ext.getType(),
                                               inner.getIn());
    eraseDeadChain(rewriter, inner);
    return success();
  }
};

/// cast(constant) -> constant: the constant is rounded exactly as the cast
/// would round it at run time.
template <typename CastOp>
struct FoldCastOfConstant : OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    Attribute value;
    if (!matchPattern(op.getIn(), m_Constant(&value)))
      return rewriter.notifyMatchFailure(op, "operand is not a constant");
    auto elt = dyn_cast<FloatType>(getElementTypeOrSelf(op.getType()));
    Attribute rounded = elt ? roundFloatAttr(value, elt) : Attribute();
    if (!rounded)
      return rewriter.notifyMatchFailure(op, "not a float constant");
    Value source = op.getIn();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, op.getType(),
                                                   cast<TypedAttr>(rounded));
    eraseDeadChain(rewriter, source);
    return success();
  }
};

/// Two identical casts of one value in one block: the later one reuses the
/// earlier.
template <typename CastOp>
struct MergeIdenticalCasts : OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    for (Operation *user : op.getIn().getUsers()) {
      if (user == op.getOperation() || user->getName() != op->getName() ||
          user->getResultTypes() != op->getResultTypes() ||
          user->getBlock() != op->getBlock() ||
          !user->isBeforeInBlock(op.getOperation()))
        continue;
      rewriter.replaceOp(op, user->getResults());
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no earlier identical cast");
  }
};

/// Ops that pick or reshape elements of their first operand without
/// arithmetic, whose result element type is the operand's.
bool isElementPreservingMove(Operation *op) {
  return isa<tensor::ExtractSliceOp, tensor::ExtractOp, tensor::CollapseShapeOp,
             tensor::ExpandShapeOp, tensor::CastOp, tosa::ReshapeOp,
             tosa::TransposeOp, tosa::SliceOp>(op);
}

/// linalg ops that only move the elements of their one input into an init
/// made by tensor.empty: linalg.transpose, linalg.copy and generics whose
/// body yields the input element at a permuted index.
bool isLinalgMove(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      linalgOp.getNumDpsInputs() != 1 || linalgOp.getNumDpsInits() != 1 ||
      !linalgOp.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>())
    return false;
  if (isa<linalg::TransposeOp, linalg::CopyOp>(op))
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumParallelLoops() != generic.getNumLoops())
    return false;
  Block *body = generic.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  return body->getOperations().size() == 1 && yield.getNumOperands() == 1 &&
         yield.getOperand(0) == body->getArgument(0) &&
         generic.getIndexingMapsArray()[0].isPermutation() &&
         generic.getIndexingMapsArray()[1].isIdentity();
}

/// A copy of `move` (an element-preserving move or a linalg move) reading
/// `source` and producing `resultType`, whose element type is `source`'s: a
/// linalg move gets a new tensor.empty of that type as its init.
Operation *cloneMoveOf(PatternRewriter &rewriter, Operation *move, Value source,
                       Type resultType) {
  IRMapping mapping;
  mapping.map(move->getOperand(0), source);
  if (isLinalgMove(move)) {
    auto init = cast<linalg::LinalgOp>(move).getDpsInitOperand(0)->get();
    auto empty = init.getDefiningOp<tensor::EmptyOp>();
    Value newInit = tensor::EmptyOp::create(
        rewriter, empty.getLoc(), resultType, empty.getDynamicSizes());
    mapping.map(init, newInit);
  }
  Operation *newMove = rewriter.clone(*move, mapping);
  newMove->getResult(0).setType(resultType);
  // A generic's body takes the new element type too.
  for (Region &region : newMove->getRegions())
    for (BlockArgument arg : region.getArguments())
      arg.setType(getElementTypeOrSelf(resultType));
  return newMove;
}

/// Moves whose result holds fewer elements than (or as many as) their first
/// operand, picked from it: slices, gathers, single elements.
bool isShrinkingMove(Operation *op) {
  return isa<tensor::ExtractSliceOp, tensor::ExtractOp, tensor::GatherOp,
             tosa::SliceOp, tosa::GatherOp>(op);
}

/// A move of a cast's only result becomes a cast of the move: a slice, a
/// gather or an element is cast instead of the whole tensor. Exact: casts
/// commute with moving elements.
template <typename CastOp> struct CastAfterSlice : OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    if (!op->hasOneUse())
      return rewriter.notifyMatchFailure(op, "cast has several users");
    Operation *move = *op->getUsers().begin();
    if (!isShrinkingMove(move) || move->getOperand(0) != op.getResult())
      return rewriter.notifyMatchFailure(op, "user does not shrink it");
    Type oldResult = move->getResult(0).getType();
    auto srcElt = cast<FloatType>(getElementTypeOrSelf(op.getIn().getType()));
    rewriter.setInsertionPoint(move);
    Operation *newMove = rewriter.clone(*move);
    newMove->setOperand(0, op.getIn());
    newMove->getResult(0).setType(withFloatElementType(oldResult, srcElt));
    Value cast =
        CastOp::create(rewriter, op.getLoc(), oldResult, newMove->getResult(0));
    rewriter.replaceOp(move, cast);
    rewriter.eraseOp(op);
    return success();
  }
};

/// A cast of a broadcast (or pad) becomes a broadcast (pad) of the cast: the
/// smaller tensor is cast.
template <typename CastOp>
struct CastBeforeBroadcast : OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto bcast = op.getIn().template getDefiningOp<linalg::BroadcastOp>();
    if (!bcast || !bcast->hasOneUse() ||
        !bcast.getInit().template getDefiningOp<tensor::EmptyOp>())
      return rewriter.notifyMatchFailure(op, "not a broadcast into empty");
    auto elt = cast<FloatType>(getElementTypeOrSelf(op.getType()));
    Value input =
        CastOp::create(rewriter, op.getLoc(),
                       withFloatElementType(bcast.getInput().getType(), elt),
                       bcast.getInput());
    auto empty = bcast.getInit().template getDefiningOp<tensor::EmptyOp>();
    Value init = tensor::EmptyOp::create(rewriter, op.getLoc(), op.getType(),
                                         empty.getDynamicSizes());
    auto newBcast = linalg::BroadcastOp::create(rewriter, bcast.getLoc(), input,
                                                init, bcast.getDimensions());
    rewriter.replaceOp(op, newBcast->getResults());
    // The old broadcast, its init and what fed only it (an extf).
    eraseDeadChain(rewriter, bcast->getResult(0));
    return success();
  }
};

template <typename CastOp> struct CastBeforePad : OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto pad = op.getIn().template getDefiningOp<tensor::PadOp>();
    if (!pad || !pad->hasOneUse())
      return rewriter.notifyMatchFailure(op, "not a pad with one user");
    Value padValue = pad.getConstantPaddingValue();
    Attribute padAttr;
    if (!padValue || !matchPattern(padValue, m_Constant(&padAttr)))
      return rewriter.notifyMatchFailure(op, "padding is not a constant");
    auto elt = cast<FloatType>(getElementTypeOrSelf(op.getType()));
    Attribute rounded = roundFloatAttr(padAttr, elt);
    if (!rounded)
      return rewriter.notifyMatchFailure(op, "padding is not a float");
    Value source = CastOp::create(
        rewriter, op.getLoc(),
        withFloatElementType(pad.getSource().getType(), elt), pad.getSource());
    Value newPadValue = arith::ConstantOp::create(rewriter, op.getLoc(), elt,
                                                  cast<TypedAttr>(rounded));
    auto newPad = tensor::PadOp::create(
        rewriter, pad.getLoc(), cast<RankedTensorType>(op.getType()), source,
        pad.getMixedLowPad(), pad.getMixedHighPad(), newPadValue,
        pad.getNofold());
    rewriter.replaceOp(op, newPad->getResults());
    eraseDeadChain(rewriter, pad->getResult(0));
    return success();
  }
};

/// truncf(move(extf(x))) -> move(x) when the round trip is exact (x has the
/// truncf's element type) and the move is an element-preserving reshape.
struct FoldCastPairAroundMove : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp trunc,
                                PatternRewriter &rewriter) const override {
    Operation *move = trunc.getIn().getDefiningOp();
    if (!move || !(isElementPreservingMove(move) || isLinalgMove(move)) ||
        !move->hasOneUse())
      return rewriter.notifyMatchFailure(trunc, "not a move with one user");
    auto ext = move->getOperand(0).getDefiningOp<arith::ExtFOp>();
    auto elt = cast<FloatType>(getElementTypeOrSelf(trunc.getType()));
    if (!ext || getElementTypeOrSelf(ext.getIn().getType()) != elt)
      return rewriter.notifyMatchFailure(trunc, "no exact extf round trip");
    rewriter.setInsertionPoint(trunc);
    Operation *newMove =
        cloneMoveOf(rewriter, move, ext.getIn(), trunc.getType());
    rewriter.replaceOp(trunc, newMove->getResults());
    eraseDeadChain(rewriter, move->getResult(0));
    return success();
  }
};

/// truncf(op(extf(a), extf(b))) -> op(a, b) for correctly rounded f32
/// arithmetic and f16/bf16 results: with p-bit targets and f32's 24 bits
/// (>= 2p + 2), rounding the f32 result once gives the correctly rounded
/// low-precision result, which is what op computes on a and b directly.
struct ComputeLowWhenExact : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp trunc,
                                PatternRewriter &rewriter) const override {
    Operation *op = trunc.getIn().getDefiningOp();
    if (!op || !op->hasOneUse() ||
        !isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             arith::NegFOp, arith::MaximumFOp, arith::MinimumFOp,
             arith::MaxNumFOp, arith::MinNumFOp, math::AbsFOp, math::SqrtOp>(
            op))
      return rewriter.notifyMatchFailure(trunc, "not exact arithmetic");
    auto low = cast<FloatType>(getElementTypeOrSelf(trunc.getType()));
    if (!getElementTypeOrSelf(op->getResult(0).getType()).isF32() ||
        !(low.isF16() || low.isBF16()))
      return rewriter.notifyMatchFailure(trunc, "not f32 to f16/bf16");
    // Each operand as a low value, or the constant it is in the low type:
    // matched first, so that a failure leaves the IR as it was.
    SmallVector<OpFoldResult> lowOperands;
    for (Value v : op->getOperands()) {
      if (auto ext = v.getDefiningOp<arith::ExtFOp>();
          ext && ext.getIn().getType() == trunc.getType()) {
        lowOperands.push_back(ext.getIn());
        continue;
      }
      // A constant the low type holds exactly.
      Attribute value;
      FailureOr<Attribute> converted;
      if (matchPattern(v, m_Constant(&value)) &&
          succeeded(converted = convertFloatAttr(value, low)) &&
          roundFloatAttr(*converted, cast<FloatType>(getElementTypeOrSelf(
                                         v.getType()))) == value) {
        lowOperands.push_back(*converted);
        continue;
      }
      return rewriter.notifyMatchFailure(trunc, "operand is not a widened "
                                                "low value");
    }
    SmallVector<Value> operands;
    for (auto [v, lowOperand] : llvm::zip_equal(op->getOperands(), lowOperands))
      operands.push_back(
          isa<Value>(lowOperand)
              ? cast<Value>(lowOperand)
              : arith::ConstantOp::create(
                    rewriter, v.getLoc(),
                    cast<TypedAttr>(cast<Attribute>(lowOperand))));
    OperationState state(op->getLoc(), op->getName(), operands,
                         {trunc.getType()}, op->getAttrs());
    rewriter.replaceOp(trunc, rewriter.create(state)->getResults());
    eraseDeadChain(rewriter, op->getResult(0));
    return success();
  }
};

} // namespace

void mlir::amp::populateAmpCastFoldingPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<
      FoldExtOfExt, FoldCastOfConstant<arith::ExtFOp>,
      FoldCastOfConstant<arith::TruncFOp>, MergeIdenticalCasts<arith::ExtFOp>,
      MergeIdenticalCasts<arith::TruncFOp>, CastAfterSlice<arith::ExtFOp>,
      CastAfterSlice<arith::TruncFOp>, CastBeforeBroadcast<arith::ExtFOp>,
      CastBeforeBroadcast<arith::TruncFOp>, CastBeforePad<arith::ExtFOp>,
      CastBeforePad<arith::TruncFOp>, FoldCastPairAroundMove,
      ComputeLowWhenExact>(ctx);
}

/// True if some pattern (or the upstream folder) can apply to `cast`: the
/// other casts are skipped so that folding stays cheap on large programs.
static bool mayFold(Operation *cast) {
  if (cast->use_empty())
    return true;
  Value source = cast->getOperand(0);
  if (Operation *def = source.getDefiningOp()) {
    if (isa<arith::ExtFOp, arith::TruncFOp, linalg::BroadcastOp, tensor::PadOp>(
            def) ||
        def->hasTrait<OpTrait::ConstantLike>() ||
        isElementPreservingMove(def) || isLinalgMove(def) ||
        (isa<arith::TruncFOp>(cast) &&
         isa<arith::ArithDialect, math::MathDialect>(def->getDialect())))
      return true;
  }
  if (cast->hasOneUse() && isShrinkingMove(*cast->user_begin()))
    return true;
  // Another identical cast of the same value.
  return llvm::count_if(source.getUsers(), [&](Operation *user) {
           return user->getName() == cast->getName();
         }) > 1;
}

bool mlir::amp::foldAmpCasts(Operation *root) {
  SmallVector<Operation *> casts, unused;
  root->walk([&](Operation *op) {
    if (!isa<arith::ExtFOp, arith::TruncFOp>(op))
      return;
    if (op->use_empty())
      unused.push_back(op);
    else if (mayFold(op))
      casts.push_back(op);
  });
  for (Operation *op : unused)
    op->erase();
  if (casts.empty())
    return !unused.empty();
  RewritePatternSet patterns(root->getContext());
  populateAmpCastFoldingPatterns(patterns);
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps)
      .enableConstantCSE(false);
  bool changed = false;
  (void)applyOpPatternsGreedily(casts, std::move(patterns), config, &changed);
  if (!changed)
    return !unused.empty();
  // Casts a fold left without users (the extf of a folded round trip).
  root->walk([](Operation *op) {
    if (isa<arith::ExtFOp, arith::TruncFOp>(op) && op->use_empty())
      op->erase();
  });
  return true;
}

namespace {
/// Loads the amp dialect with arith and gives it the cast folding patterns
/// as its canonicalization patterns.
struct CastFoldingCanonicalization
    : DialectExtension<CastFoldingCanonicalization, arith::ArithDialect> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CastFoldingCanonicalization)
  void apply(MLIRContext *context, arith::ArithDialect *) const override {
    // Loading amp here is what arith's own dependent dialects do when they
    // load: it happens where arith is loaded (parsing, pipeline setup).
    context->getOrLoadDialect<AmpDialect>()->addCanonicalizationPatterns(
        populateAmpCastFoldingPatterns);
  }
};
} // namespace

void mlir::amp::registerCastFoldingCanonicalization(DialectRegistry &registry) {
  registry.addExtensions<CastFoldingCanonicalization>();
}

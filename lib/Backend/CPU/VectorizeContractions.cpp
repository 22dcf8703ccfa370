//===- VectorizeContractions.cpp - Register-tiled contraction kernels -----===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/CPU/VectorizeContractions.h"
#include "amp/Backend/CPU/Passes.h"

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

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_VECTORIZECONTRACTIONS
#include "amp/Backend/CPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

/// Element types a kernel loads and stores as vectors (a vector of i1 is
/// packed bits, a memref of i1 one byte per element).
static bool isVectorMemoryType(Type type) {
  return isa<FloatType>(type) || (isa<IntegerType>(type) && !type.isInteger(1));
}

bool amp::isScalarElementwiseBody(Block &body) {
  auto scalar = [](Type type) { return isa<FloatType, IntegerType>(type); };
  for (Operation &op : body.without_terminator()) {
    if (!isa<arith::ConstantOp>(op) &&
        (!op.hasTrait<OpTrait::Elementwise>() || !isPure(&op) ||
         op.getNumRegions() != 0))
      return false;
    if (!llvm::all_of(op.getOperandTypes(), scalar) ||
        !llvm::all_of(op.getResultTypes(), scalar))
      return false;
  }
  return body.getTerminator()->getNumOperands() == 1;
}

bool amp::isWidenedProductSum(Block &body, Type low) {
  if (body.getNumArguments() != 3 || !body.getArgument(2).getType().isF32() ||
      body.getArgument(0).getType() != low ||
      body.getArgument(1).getType() != low)
    return false;
  auto yield = body.getTerminator();
  auto add = yield->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add->getBlock() != &body ||
      std::distance(body.begin(), body.end()) != 5)
    return false;
  Value acc = body.getArgument(2);
  Value product = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  if ((add.getLhs() == acc) == (add.getRhs() == acc))
    return false;
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  auto widened = [&](Value value, BlockArgument arg) {
    auto ext = value.getDefiningOp<arith::ExtFOp>();
    return ext && ext.getIn() == arg;
  };
  BlockArgument a = body.getArgument(0), b = body.getArgument(1);
  return (widened(mul.getLhs(), a) && widened(mul.getRhs(), b)) ||
         (widened(mul.getLhs(), b) && widened(mul.getRhs(), a));
}

namespace {
/// The loop dimensions of a widened bf16 product sum with two inputs: `n`,
/// its output's innermost index, and `k`, its last reduction dimension.
struct ProductSumDims {
  AffineExpr n, k;
  unsigned nDim, kDim;
};
} // namespace

static std::optional<ProductSumDims> getProductSumDims(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !amp::isWidenedProductSum(*op.getBlock(),
                                BFloat16Type::get(op.getContext())))
    return std::nullopt;
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outMap.getNumResults() == 0 || !outMap.isProjectedPermutation())
    return std::nullopt;
  unsigned n = cast<AffineDimExpr>(outMap.getResults().back()).getPosition();
  std::optional<unsigned> k;
  for (auto [dim, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::reduction)
      k = dim;
  if (!k)
    return std::nullopt;
  MLIRContext *ctx = op.getContext();
  return ProductSumDims{getAffineDimExpr(n, ctx), getAffineDimExpr(*k, ctx), n,
                        *k};
}

/// Whether `map` indexes `k` only as its innermost index and not `n`: the
/// input whose pair (k, k + 1) is broadcast.
static bool isContiguousPairMap(AffineMap map, const ProductSumDims &dims) {
  ArrayRef<AffineExpr> results = map.getResults();
  return !results.empty() && results.back() == dims.k &&
         !map.isFunctionOfDim(dims.nDim) &&
         llvm::none_of(results.drop_back(), [&](AffineExpr index) {
           return index.isFunctionOfDim(dims.kDim);
         });
}

std::optional<unsigned> amp::getBF16PairInput(linalg::LinalgOp op) {
  std::optional<ProductSumDims> dims = getProductSumDims(op);
  if (!dims)
    return std::nullopt;
  AffineExpr kExpr = dims->k, nExpr = dims->n;
  for (unsigned pairs = 0; pairs < 2; ++pairs) {
    AffineMap pairMap = op.getMatchingIndexingMap(op.getDpsInputOperand(pairs));
    AffineMap other =
        op.getMatchingIndexingMap(op.getDpsInputOperand(1 - pairs));
    ArrayRef<AffineExpr> results = pairMap.getResults();
    if (results.size() < 3 ||
        results.take_back(3) !=
            ArrayRef<AffineExpr>{kExpr.floorDiv(2), nExpr, kExpr % 2})
      continue;
    if (llvm::any_of(results.drop_back(3), [&](AffineExpr index) {
          return !isa<AffineDimExpr>(index) ||
                 index.isFunctionOfDim(dims->kDim) || index == nExpr;
        }))
      continue;
    if (!isContiguousPairMap(other, *dims))
      continue;
    return pairs;
  }
  return std::nullopt;
}

std::optional<unsigned> amp::getBF16InterleavedInput(linalg::LinalgOp op) {
  std::optional<ProductSumDims> dims = getProductSumDims(op);
  if (!dims)
    return std::nullopt;
  for (unsigned rows = 0; rows < 2; ++rows) {
    AffineMap rowMap = op.getMatchingIndexingMap(op.getDpsInputOperand(rows));
    AffineMap other =
        op.getMatchingIndexingMap(op.getDpsInputOperand(1 - rows));
    ArrayRef<AffineExpr> results = rowMap.getResults();
    if (results.size() < 2 || results.back() != dims->n ||
        llvm::count(results, dims->k) != 1)
      continue;
    if (llvm::any_of(results.drop_back(), [&](AffineExpr index) {
          return index.isFunctionOfDim(dims->nDim) ||
                 (index != dims->k && index.isFunctionOfDim(dims->kDim));
        }))
      continue;
    if (!isContiguousPairMap(other, *dims))
      continue;
    return rows;
  }
  return std::nullopt;
}

Operation *amp::getAdjacentEffectfulOp(Operation *op, bool forward) {
  // (An allocation writes no buffer that existed before it.)
  do
    op = forward ? op->getNextNode() : op->getPrevNode();
  while (op && (isMemoryEffectFree(op) ||
                hasSingleEffect<MemoryEffects::Allocate>(op)));
  return op;
}

Value amp::getRootBuffer(Value value) {
  auto buffer = dyn_cast<MemrefValue>(value);
  return buffer ? memref::skipViewLikeOps(buffer) : value;
}

linalg::LinalgOp amp::getInitFill(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1)
    return nullptr;
  Value init = op.getDpsInitOperand(0)->get();
  auto fill = dyn_cast_or_null<linalg::LinalgOp>(
      getAdjacentEffectfulOp(op, /*forward=*/false));
  if (!fill || !fill.hasPureBufferSemantics() || fill.getNumDpsInits() != 1 ||
      fill.getDpsInitOperand(0)->get() != init ||
      !fill.getMatchingIndexingMap(fill.getDpsInitOperand(0)).isIdentity())
    return nullptr;
  if (!isa<linalg::FillOp>(fill)) {
    if (!isa<linalg::GenericOp>(fill) || fill.getNumDpsInputs() != 0)
      return nullptr;
    Block &body = *fill.getBlock();
    Value value = body.getTerminator()->getOperand(0);
    if (value.getParentBlock() == &body &&
        (!value.getDefiningOp<arith::ConstantOp>() ||
         std::distance(body.begin(), body.end()) != 2))
      return nullptr;
  }
  // `op` writes every element of its output once, and reads it only as
  // its accumulator.
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (!outMap.isProjectedPermutation() ||
      outMap.getNumResults() != op.getNumParallelLoops() ||
      llvm::any_of(outMap.getResults(), [&](AffineExpr index) {
        return iterators[cast<AffineDimExpr>(index).getPosition()] !=
               utils::IteratorType::parallel;
      }))
    return nullptr;
  // (Buffers are compared through the views of them.)
  for (OpOperand *input : op.getDpsInputOperands())
    if (getRootBuffer(input->get()) == getRootBuffer(init))
      return nullptr;
  return fill;
}

/// Whether `other` is a linalg op on buffers allocated in the function
/// (through views) none of which is one of `roots`, with a body that
/// touches no memory: it cannot access what an op on buffers with those
/// roots accesses, so the two can run in either order.
static bool accessesOnlyOtherAllocations(Operation *other,
                                         const DenseSet<Value> &roots) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(other);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
      llvm::any_of(linalgOp.getBlock()->without_terminator(),
                   [](Operation &op) { return !isMemoryEffectFree(&op); }))
    return false;
  return llvm::all_of(other->getOperands(), [&](Value operand) {
    if (!isa<MemRefType>(operand.getType()))
      return true;
    Value root = amp::getRootBuffer(operand);
    return isa_and_present<memref::AllocOp, memref::AllocaOp>(
               root.getDefiningOp()) &&
           !roots.contains(root);
  });
}

linalg::GenericOp amp::getContractionEpilogue(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1)
    return nullptr;
  Value c = op.getDpsInitOperand(0)->get();
  auto cType = dyn_cast<MemRefType>(c.getType());
  // Past the ops that `op` can move after (a padded buffer's border
  // fills between a convolution and the op that writes the interior).
  DenseSet<Value> roots;
  for (Value operand : op->getOperands())
    roots.insert(getRootBuffer(operand));
  Operation *next = op;
  do
    next = getAdjacentEffectfulOp(next, /*forward=*/true);
  while (next && accessesOnlyOtherAllocations(next, roots));
  auto epilogue = dyn_cast_or_null<linalg::GenericOp>(next);
  if (!cType || cType.getRank() == 0 || !epilogue ||
      !epilogue.hasPureBufferSemantics() || epilogue.getNumDpsInits() != 1 ||
      epilogue.getNumLoops() != static_cast<unsigned>(cType.getRank()) ||
      epilogue.getNumParallelLoops() != epilogue.getNumLoops() ||
      !isScalarElementwiseBody(*epilogue.getBody()))
    return nullptr;
  for (Value operand : epilogue->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type || !isVectorMemoryType(type.getElementType()))
      return nullptr;
  }
  OpOperand *d = epilogue.getDpsInitOperand(0);
  if (!epilogue.getMatchingIndexingMap(d).isIdentity() ||
      !epilogue.getMatchingBlockArgument(d).use_empty())
    return nullptr;
  Value cRoot = getRootBuffer(c), dRoot = getRootBuffer(d->get());
  for (OpOperand *input : op.getDpsInputOperands())
    if (getRootBuffer(input->get()) == dRoot)
      return nullptr;
  unsigned innermost = epilogue.getNumLoops() - 1;
  int64_t readsOfC = 0;
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    AffineMap map = epilogue.getMatchingIndexingMap(input);
    if (input->get() == c && map.isIdentity()) {
      ++readsOfC;
      continue;
    }
    // (Its output read where it is written, element by element: a
    // residual added in place.)
    if (input->get() == d->get() && map.isIdentity())
      continue;
    Value root = getRootBuffer(input->get());
    if (root == cRoot || root == dRoot)
      return nullptr;
    for (auto [position, index] : llvm::enumerate(map.getResults()))
      if (index.isFunctionOfDim(innermost) &&
          (position + 1 != map.getNumResults() || !isa<AffineDimExpr>(index)))
        return nullptr;
  }
  // (A view of `C` other than `C` itself would be written where the kernel
  // has not computed `C` yet.)
  if (readsOfC != 1 || (dRoot == cRoot && d->get() != c))
    return nullptr;
  return epilogue;
}

/// Whether the buffer `op` writes is one allocated here that nothing but
/// `op`, its init fill and `epilogue` accesses (through views or not):
/// once the epilogue has read it, it is dead, and the kernel need not
/// store it.
static bool isOnlyReadByEpilogue(linalg::LinalgOp op, linalg::LinalgOp fill,
                                 linalg::GenericOp epilogue) {
  Value root = amp::getRootBuffer(op.getDpsInitOperand(0)->get());
  if (!isa_and_present<memref::AllocOp, memref::AllocaOp>(
          root.getDefiningOp()))
    return false;
  SmallVector<Value> worklist{root};
  while (!worklist.empty()) {
    Value buffer = worklist.pop_back_val();
    for (Operation *user : buffer.getUsers()) {
      if (user == op.getOperation() || user == epilogue.getOperation() ||
          (fill && user == fill.getOperation()) ||
          isa<memref::DeallocOp>(user))
        continue;
      auto view = dyn_cast<ViewLikeOpInterface>(user);
      if (!view || view.getViewSource() != buffer)
        return false;
      llvm::append_range(worklist, user->getResults());
    }
  }
  return true;
}

/// The value `op` fills its output with, when it is a fill: a
/// `linalg.fill`, or a generic without inputs that yields one value from
/// outside its body.
static Value getFilledValue(Operation *op) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.getInputs().front();
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 0 ||
      generic.getNumDpsInits() != 1)
    return Value();
  Value yielded = generic.getBlock()->getTerminator()->getOperand(0);
  return yielded.getParentBlock() == generic.getBlock() ? Value() : yielded;
}

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
  return lower && upper && step && *lower == 0 && *step == size &&
         size > 0 && !ShapedType::isDynamic(extent) && *upper == extent &&
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
           SmallVectorImpl<Value> *dynamicOffsets = nullptr) {
  auto type = cast<MemRefType>(view.getType());
  if (ShapedType::isDynamic(type.getDimSize(dim)))
    return std::nullopt;
  RowSpan span{0, type.getDimSize(dim)};
  bool whole = true;
  SmallPtrSet<Value, 4> used;
  while (auto subview = view.getDefiningOp<memref::SubViewOp>()) {
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
static std::optional<amp::ZeroRowClip>
findZeroRowClip(linalg::LinalgOp op, const amp::ContractionTile &tile) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    for (auto [dim, index] : llvm::enumerate(map.getResults())) {
      // The index `stride * outer + reduction`.
      auto sum = dyn_cast<AffineBinaryOpExpr>(index);
      if (!sum || sum.getKind() != AffineExprKind::Add)
        continue;
      std::optional<amp::ZeroRowClip> clip;
      for (auto [term, other] : {std::pair(sum.getLHS(), sum.getRHS()),
                                 std::pair(sum.getRHS(), sum.getLHS())}) {
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
        clip = amp::ZeroRowClip{
            reduction.getPosition(), position, stride, 0, 0, 0, {}, {}};
      }
      if (!clip)
        continue;
      std::optional<std::pair<RowSpan, bool>> read =
          getRowSpan(input->get(), dim, op, &clip->offsetValues);
      if (!read)
        continue;
      clip->offset = read->first.begin;
      Value root = amp::getRootBuffer(input->get());
      int64_t rows = cast<MemRefType>(root.getType()).getDimSize(dim);
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
          std::optional<std::pair<RowSpan, bool>> span =
              getRowSpan(buffer, dim, user);
          if (!span || !isa<linalg::LinalgOp, memref::CopyOp>(user)) {
            known = false;
            break;
          }
          Value filled = getFilledValue(user);
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

Value amp::materializeFillValue(OpBuilder &builder, linalg::LinalgOp fill) {
  if (auto named = dyn_cast<linalg::FillOp>(fill.getOperation()))
    return named.getInputs().front();
  Value value = fill.getBlock()->getTerminator()->getOperand(0);
  if (value.getParentBlock() != fill.getBlock())
    return value;
  return builder.clone(*value.getDefiningOp())->getResult(0);
}

std::optional<amp::ContractionTile>
amp::chooseContractionTile(linalg::LinalgOp op, int64_t lanes, int64_t maxRows,
                           int64_t maxCols, bool bf16Dot) {
  if (lanes < 1 || maxRows < 1 || maxCols < 1 || !op.hasPureBufferSemantics() ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, [](int64_t range) {
        return ShapedType::isDynamic(range) || range == 0;
      }))
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !isVectorMemoryType(type.getElementType()))
      return std::nullopt;
  }
  if (!isScalarElementwiseBody(*op.getBlock()))
    return std::nullopt;

  // The output: every index a parallel dimension, the innermost one the
  // vector dimension.
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outMap.getNumResults() == 0 || !outMap.isProjectedPermutation())
    return std::nullopt;
  for (AffineExpr index : outMap.getResults())
    if (iterators[cast<AffineDimExpr>(index).getPosition()] !=
        utils::IteratorType::parallel)
      return std::nullopt;
  unsigned vectorDim =
      cast<AffineDimExpr>(outMap.getResults().back()).getPosition();

  ContractionTile tile{vectorDim, std::min(lanes, ranges[vectorDim]),
                       std::nullopt, 1, std::nullopt};
  // vdpbf16ps on 512, 256 or 128 bits: the widest that fits, what remains
  // (a multiple of 4) in narrower ones.
  int64_t dotLanes = 0;
  if (ranges[vectorDim] % 4 == 0)
    for (int64_t candidate : {16, 8, 4})
      if (!dotLanes && ranges[vectorDim] >= candidate)
        dotLanes = candidate;
  std::optional<unsigned> lastReduction;
  for (auto [dim, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::reduction)
      lastReduction = dim;
  std::optional<unsigned> pairInput =
      bf16Dot ? getBF16PairInput(op) : std::nullopt;
  if (pairInput && !dotLanes)
    return std::nullopt;
  // A plain input's pairs are made in the kernel when they fill vectors.
  if (bf16Dot && !pairInput && dotLanes && ranges[*lastReduction] % 2 == 0) {
    pairInput = getBF16InterleavedInput(op);
    tile.interleaved = pairInput.has_value();
  }
  SmallVector<AffineMap> inputMaps;
  if (pairInput) {
    tile.lanes = dotLanes;
    tile.pairDim = lastReduction;
    for (OpOperand *input : op.getDpsInputOperands())
      inputMaps.push_back(op.getMatchingIndexingMap(input));
  } else {
    // Inputs read vectors only along their innermost index.
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      for (auto [position, index] : llvm::enumerate(map.getResults()))
        if (index.isFunctionOfDim(vectorDim) &&
            (position + 1 != map.getNumResults() || !isa<AffineDimExpr>(index)))
          return std::nullopt;
      inputMaps.push_back(map);
    }
  }

  // The row dimension: the rows of a tile share the reads of the inputs that
  // do not index it, best the vector ones; then the most rows per tile on
  // average, ties to the inner dimension. Its tiles are the fewest of at
  // most `maxRows` rows, all but the last of the same rows, as even as that
  // makes them.
  bool sharesVectors = false;
  auto tiles = [&](unsigned dim) {
    return llvm::divideCeil(ranges[dim], maxRows);
  };
  for (AffineExpr index : outMap.getResults().drop_back()) {
    unsigned dim = cast<AffineDimExpr>(index).getPosition();
    // (A tile reads one vector of pairs for all its rows.)
    if (maxRows < 2 || ranges[dim] < 2 ||
        (pairInput && inputMaps[*pairInput].isFunctionOfDim(dim)))
      continue;
    bool shares = llvm::any_of(inputMaps, [&](AffineMap map) {
      return map.isFunctionOfDim(vectorDim) && !map.isFunctionOfDim(dim);
    });
    if (tile.rowDim && (sharesVectors && !shares))
      continue;
    if (tile.rowDim && shares == sharesVectors &&
        ranges[dim] * tiles(*tile.rowDim) < ranges[*tile.rowDim] * tiles(dim))
      continue;
    tile.rowDim = dim;
    tile.rows = llvm::divideCeil(ranges[dim], tiles(dim));
    sharesVectors = shares;
  }
  // Vectors side by side: each read of an input that does not index the
  // vector dimension then serves them all. Only for reductions of more
  // steps than the tile has accumulators: a shorter one spends its time
  // loading and storing them (measured slower).
  int64_t steps = 1;
  for (auto [dim, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::reduction)
      steps *= dim == tile.pairDim ? ranges[dim] / 2 : ranges[dim];
  int64_t cols = std::min(maxCols, ranges[vectorDim] / tile.lanes);
  if (cols > 1 && steps > tile.rows * cols)
    tile.cols = cols;
  return tile;
}

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
    emitLoops(outer, [&] {
      // Tiles of `tile.cols` full vectors a row, then one of the full
      // vectors that remain, then one shorter vector for what remains (dot
      // products: one of 8 lanes and one of 4 at most).
      int64_t range = ranges[tile.vectorDim];
      int64_t step = tile.lanes * tile.cols;
      int64_t full = range - range % step;
      if (full > 0) {
        cols = tile.cols;
        emitLoop(tile.vectorDim, 0, full, step, [&] { emitTile(tile.lanes); });
      }
      if (int64_t vectors = (range - full) / tile.lanes) {
        cols = vectors;
        dims[tile.vectorDim] = constant(full);
        emitTile(tile.lanes);
        full += vectors * tile.lanes;
      }
      cols = 1;
      for (int64_t at = full; at < range;) {
        int64_t width = range - at;
        if (tile.pairDim)
          width = width >= 8 ? 8 : 4;
        dims[tile.vectorDim] = constant(at);
        emitTile(width);
        at += width;
      }
    });
  }

private:
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
    SmallVector<Value> accumulators;
    for (int64_t row = 0; row < rows; ++row)
      for (int64_t col = 0; col < cols; ++col)
        accumulators.push_back(
            initValue
                ? vector::BroadcastOp::create(
                      b, loc, VectorType::get({width}, initValue.getType()),
                      initValue)
                : readVector(init->get(), indices(outMap, row, col, width),
                             width));
    SmallVector<Value> results =
        emitReductions(reductionDims, accumulators, width);
    Value output = epilogue ? epilogue.getDpsInitOperand(0)->get() : Value();
    for (int64_t row = 0; row < rows; ++row)
      for (int64_t col = 0; col < cols; ++col) {
        Value result = results[row * cols + col];
        SmallVector<Value> at = indices(outMap, row, col, width);
        if (storesResult && output != init->get())
          vector::TransferWriteOp::create(b, loc, result, init->get(), at,
                                          ArrayRef<bool>{true});
        if (epilogue)
          vector::TransferWriteOp::create(b, loc,
                                          applyEpilogue(result, at, width),
                                          output, at, ArrayRef<bool>{true});
      }
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
    if (clip && dim == clip->reductionDim) {
      // Window rows `k` with `firstRow <= offset + stride * outer + k <
      // endRow`.
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
                                       clip->firstRow - start}
                : ArrayRef<AffineExpr>{getAffineConstantExpr(steps, context),
                                       clip->endRow - start},
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
    auto loop = scf::ForOp::create(b, loc, lower, upper, constant(1),
                                   accumulators);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      dims[dim] = loop.getInductionVar();
      if (dim == tile.pairDim)
        dims[dim] = twice(dims[dim]);
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
        mapping.map(body.getArguments().back(),
                    accumulators[row * cols + col]);
        results.push_back(amp::applyBodyToVectors(
            b, loc, body, mapping, width,
            body.getTerminator()->getOperand(0)));
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
        pairs.push_back(
            vector::ShuffleOp::create(b, loc, first, second, mask));
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
  bool storesResult =
      !epilogue || !isOnlyReadByEpilogue(op, fill, epilogue);
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

namespace {
struct VectorizeContractions
    : amp::impl::VectorizeContractionsBase<VectorizeContractions> {
  using Base::Base;
  void runOnOperation() override {
    if (lanes < 1 || lanes > 1024 || rows < 1 || rows > 64 || cols < 1 ||
        cols > 16) {
      getOperation()->emitError("amp-vectorize-contractions: lanes must be "
                                "in [1, 1024], rows in [1, 64] and cols in "
                                "[1, 16], got ")
          << static_cast<int64_t>(lanes) << ", "
          << static_cast<int64_t>(rows) << " and "
          << static_cast<int64_t>(cols);
      return signalPassFailure();
    }
    // (Only ops with reductions: the fills and epilogues a kernel takes in
    // and erases have none.)
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.getNumReductionLoops() != 0)
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    // Last op first: an op that skips padding rows sees the linalg op
    // that writes its input's interior (say, an earlier convolution's
    // epilogue), not the loops of a kernel that took it in.
    for (linalg::LinalgOp op : llvm::reverse(ops))
      (void)amp::vectorizeContraction(rewriter, op, lanes, rows, cols,
                                      bf16Dot);
  }
};
} // namespace

//===- LinalgModels.cpp - AmpOpInterface models for linalg ----------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One model for every structured op (linalg.generic and all named ops),
// classified by what its body computes: a multiply-add reduction is a
// contraction, an add reduction is a sum wherever it appears, a max/min
// reduction is exact, and a parallel body is as safe as its least safe op.
//
//===----------------------------------------------------------------------===//

#include "ModelSupport.h"
#include "amp/Interfaces/BufferCopies.h"
#include "amp/Interfaces/ExternalModels.h"
#include "amp/Target/TargetCapabilities.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

/// Looks through the casts a body inserts between its arguments and its
/// arithmetic (named ops cast inputs to the output type).
Value stripCasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::ExtFOp, arith::TruncFOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// What a structured op's body computes.
struct BodySummary {
  /// Accumulation over reduction loops, if any output is combined with its
  /// previous value.
  std::optional<AccumulationInfo> accumulation;
  /// A multiply-add reduction over two different inputs.
  bool isContraction = false;
  /// The least safe category among the body's ops (parallel bodies).
  CategoryInfo bodyCategory{Policy::Follow, getDataMovementReason()};
};

int categoryRank(Policy p) {
  switch (p) {
  case Policy::Follow:
    return 0;
  case Policy::Allow:
    return 1;
  case Policy::Never:
    return 2;
  }
  llvm_unreachable("unknown policy");
}

/// The accumulation of a structured op's reduction loops, if an output is
/// combined with its previous value; `isContraction` is set for a
/// multiply-add over two different inputs. The reduction size is computed
/// only with `computeSize`.
std::optional<AccumulationInfo>
bodyAccumulation(linalg::LinalgOp op, bool computeSize,
                 bool *isContraction = nullptr) {
  Block *body = op.getBlock();
  if (!body)
    return std::nullopt;

  // Reduction part: which outputs are combined with their previous value.
  AccumulationInfo acc;
  acc.separateAccumulator = true;
  bool found = false, contraction = false;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  // (Operand indices rather than getDpsInitsMutable, which builds an
  // attribute on every call.)
  unsigned numInputs = amp::detail::numDpsInputs(op);
  for (OpOperand &init : op->getOpOperands().drop_front(numInputs)) {
    if (!amp::detail::isFloatData(init.get().getType()))
      continue;
    unsigned outIdx = init.getOperandNumber() - numInputs;
    if (outIdx >= yield.getNumOperands() ||
        init.getOperandNumber() >= body->getNumArguments())
      continue;
    // Structured ops' block arguments follow their operands in order.
    BlockArgument outArg = body->getArgument(init.getOperandNumber());
    Operation *combiner = stripCasts(yield.getOperand(outIdx)).getDefiningOp();
    if (!combiner || combiner->getBlock() != body ||
        !llvm::any_of(combiner->getOperands(),
                      [&](Value v) { return stripCasts(v) == outArg; }))
      continue;
    AccumulationKind kind = classifyCombiner(combiner);
    if (!found || lossRank(kind) > lossRank(acc.kind))
      acc.kind = kind;
    found = true;
    acc.accumulatorOperands.push_back(init.getOperandNumber());
    acc.accumulatorResults.push_back(outIdx);

    // A contraction: out + a * b with a and b read from two inputs.
    if (kind == AccumulationKind::Sum && isa<arith::AddFOp>(combiner)) {
      for (Value v : combiner->getOperands()) {
        auto mul = stripCasts(v).getDefiningOp<arith::MulFOp>();
        if (!mul)
          continue;
        auto lhs = dyn_cast<BlockArgument>(stripCasts(mul.getLhs()));
        auto rhs = dyn_cast<BlockArgument>(stripCasts(mul.getRhs()));
        if (lhs && rhs && lhs != rhs && lhs.getOwner() == body &&
            rhs.getOwner() == body && lhs.getArgNumber() < numInputs &&
            rhs.getArgNumber() < numInputs)
          contraction = true;
      }
    }
  }
  // An output combined with its previous value outside reduction loops is
  // an elementwise update, not an accumulation. (Asked last: named ops
  // derive their iterator types from indexing maps they build anew.)
  if (!found || op.getNumReductionLoops() == 0)
    return std::nullopt;
  if (isContraction)
    *isContraction = contraction;

  if (!computeSize)
    return acc;
  // Each reduction loop's extent, read from an operand dimension it indexes
  // directly (cheaper than inverting the indexing maps); the full loop
  // ranges only when no operand does.
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> extents(iterators.size(), ShapedType::kDynamic);
  SmallVector<bool> known(iterators.size(), false);
  for (OpOperand &operand : op->getOpOperands()) {
    auto shaped = dyn_cast<ShapedType>(operand.get().getType());
    if (!shaped || !shaped.hasRank())
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [pos, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr);
          dim && !known[dim.getPosition()] && pos < size_t(shaped.getRank())) {
        known[dim.getPosition()] = true;
        extents[dim.getPosition()] = shaped.getDimSize(pos);
      }
  }
  if (llvm::any_of(llvm::zip(known, iterators), [](auto pair) {
        return !std::get<0>(pair) &&
               std::get<1>(pair) == utils::IteratorType::reduction;
      }))
    extents = op.getStaticLoopRanges();
  int64_t size = 1;
  for (auto [range, iter] : llvm::zip(extents, iterators)) {
    if (iter != utils::IteratorType::reduction)
      continue;
    if (ShapedType::isDynamic(range)) {
      size = ShapedType::kDynamic;
      break;
    }
    size *= range;
  }
  acc.reductionSize = size;
  return acc;
}

BodySummary summarizeBody(linalg::LinalgOp op, FloatType lowType) {
  BodySummary summary;
  Block *body = op.getBlock();
  if (!body)
    return summary;

  // Parallel part: the least safe op in the body.
  bool hasArithmetic = false;
  for (Operation &nested : body->without_terminator()) {
    if (!llvm::any_of(nested.getResultTypes(), amp::detail::isFloatData) &&
        !llvm::any_of(nested.getOperandTypes(), amp::detail::isFloatData))
      continue;
    if (isa<arith::ExtFOp, arith::TruncFOp, arith::ConstantOp>(nested))
      continue;
    hasArithmetic = true;
    CategoryInfo c = getCategory(&nested, lowType);
    if (categoryRank(c.category) > categoryRank(summary.bodyCategory.category))
      summary.bodyCategory = c;
  }
  if (hasArithmetic && summary.bodyCategory.category == Policy::Follow)
    summary.bodyCategory = followsElementwise();

  summary.accumulation =
      bodyAccumulation(op, /*computeSize=*/false, &summary.isContraction);
  return summary;
}

CategoryInfo linalgCategory(linalg::LinalgOp op, FloatType lowType) {
  BodySummary s = summarizeBody(op, lowType);
  if (s.isContraction)
    return category(Policy::Allow,
                    "contraction: low-precision inputs, accumulator kept "
                    "in the accumulate type");
  if (s.accumulation) {
    if (!s.accumulation->isLossy())
      return category(Policy::Follow,
                      "max/min reduction is exact in low precision");
    return category(Policy::Never,
                    "sum reduction loses accuracy when accumulated in low "
                    "precision");
  }
  return s.bodyCategory;
}

/// True if the op's results accumulate lossily, so its outputs keep the
/// accumulate type.
bool accumulatesLossily(linalg::LinalgOp op, FloatType lowType) {
  std::optional<AccumulationInfo> acc =
      bodyAccumulation(op, /*computeSize=*/false);
  return acc && acc->isLossy();
}

/// An input whose value the body never reads (a pooling window) is shape
/// only, not data.
bool isUnreadInput(linalg::LinalgOp op, OpOperand &operand) {
  unsigned i = operand.getOperandNumber();
  Block *body = op.getBlock();
  if (!body || i >= amp::detail::numDpsInputs(op) ||
      i >= body->getNumArguments())
    return false;
  // Structured ops' block arguments follow their operands in order.
  return body->getArgument(i).use_empty();
}

/// True if every op of `body` is arithmetic amp converts without fail:
/// arith and math ops (not bitcasts), with constants the type can hold.
bool canConvertBodyInPlace(Block &body, FloatType type) {
  for (Operation &op : body.without_terminator()) {
    if (!isa<arith::ArithDialect, math::MathDialect>(op.getDialect()) &&
        !isa<linalg::IndexOp>(op))
      return false;
    if (isa<arith::BitcastOp, arith::ScalingExtFOp, arith::ScalingTruncFOp>(op))
      return false;
    Attribute value;
    if (matchPattern(&op, m_Constant(&value)) && isFloatDataAttr(value) &&
        !fitsFloatType(value, type))
      return false;
  }
  return true;
}

/// Gives the body's arguments the element types of `operands` and casts the
/// float ones to `computeType` where they are used.
void retypeBody(RewriterBase &rewriter, Block &body, ValueRange operands,
                FloatType computeType, Location loc) {
  SmallVector<Type> oldTypes(body.getArgumentTypes());
  for (auto [arg, operand] : llvm::zip(body.getArguments(), operands))
    if (amp::detail::isFloatData(arg.getType()))
      arg.setType(getElementTypeOrSelf(operand.getType()));
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&body);
  // An argument whose type did not change is used as the body already uses
  // it (a body that widens its f16 inputs keeps doing so).
  for (auto [arg, oldType] : llvm::zip(body.getArguments(), oldTypes)) {
    // complex<f32> computes as complex<low>.
    Type computeAs = withFloatElementType(oldType, computeType);
    if (!amp::detail::isFloatData(arg.getType()) || arg.getType() == oldType ||
        arg.getType() == computeAs || arg.use_empty())
      continue;
    Value cast = createFloatCast(rewriter, loc, arg, computeAs);
    rewriter.replaceAllUsesExcept(arg, cast, cast.getDefiningOp());
  }
}

/// Why convertLinalg would decline `op` (the same checks, made before
/// anything is rewritten).
std::optional<std::string> linalgRewriteBlocker(linalg::LinalgOp op,
                                                FloatType lowType,
                                                FloatType accType) {
  bool onBuffers = op.hasPureBufferSemantics();
  if (!onBuffers && !op.hasPureTensorSemantics())
    return std::string("mixes tensors and buffers");
  for (Value operand : op->getOperands())
    if (isFloatBuffer(operand.getType()) && !isa<MemRefType>(operand.getType()))
      return std::string("buffer operand cannot be copied");
  // A body of plain arithmetic whose constants fit the low type converts in
  // place whatever the compute type (f32 holds them too): the common case,
  // decided without summarising the body.
  Block *body = op.getBlock();
  if (!body || canConvertBodyInPlace(*body, lowType))
    return std::nullopt;
  FloatType computeType = accumulatesLossily(op, lowType) ? accType : lowType;
  if (canConvertBodyInPlace(*body, computeType))
    return std::nullopt;
  auto regionBuilder = op.getRegionBuilder();
  if (regionBuilder && !isa<linalg::GenericOp, linalg::MapOp, linalg::ReduceOp>(
                           op.getOperation()))
    return std::nullopt;
  for (Operation &nested : body->without_terminator()) {
    if (isa<arith::ExtFOp, arith::TruncFOp>(nested) ||
        !(llvm::any_of(nested.getOperandTypes(), amp::detail::isFloatData) ||
          llvm::any_of(nested.getResultTypes(), amp::detail::isFloatData)))
      continue;
    if (std::optional<std::string> blocker =
            getRewriteBlocker(&nested, computeType, computeType))
      return ("body cannot be converted: " + nested.getName().getStringRef() +
              ": " + *blocker)
          .str();
  }
  return std::nullopt;
}

FailureOr<Operation *> convertLinalg(linalg::LinalgOp op,
                                     RewriterBase &rewriter, FloatType lowType,
                                     FloatType accType) {
  bool onBuffers = op.hasPureBufferSemantics();
  if (!onBuffers && !op.hasPureTensorSemantics())
    return rewriter.notifyMatchFailure(op, "mixes tensors and buffers");
  FloatType outType = accumulatesLossily(op, lowType) ? accType : lowType;
  FloatType computeType = outType;

  SmallVector<Type> newTypes;
  unsigned numInputs = amp::detail::numDpsInputs(op);
  for (OpOperand &operand : op->getOpOperands()) {
    Type type = operand.get().getType();
    bool isInit = operand.getOperandNumber() >= numInputs;
    Type newType = amp::detail::isFloatData(type) && !isUnreadInput(op, operand)
                       ? withFloatElementType(type, isInit ? outType : lowType)
                       : type;
    if (!onBuffers && !canCreateFloatCast(type, newType))
      return rewriter.notifyMatchFailure(op, "operand cannot be cast");
    newTypes.push_back(newType);
  }

  Location loc = op.getLoc();
  // Buffers cannot be cast: the op runs on converted copies of them, and
  // copies back what it writes.
  std::optional<BufferCopies> copies;
  if (onBuffers) {
    FailureOr<BufferCopies> made =
        convertBufferOperands(rewriter, op, newTypes);
    if (failed(made))
      return failure();
    copies = std::move(*made);
  }
  rewriter.setInsertionPoint(op);
  SmallVector<Value> newOperands =
      createOperandCasts(rewriter, loc, op->getOperands(), newTypes);
  // Ops on buffers have no results.
  SmallVector<Type> resultTypes;
  if (!onBuffers)
    for (unsigned i = numInputs, e = op->getNumOperands(); i < e; ++i)
      resultTypes.push_back(newOperands[i].getType());

  // Bodies of plain arithmetic are converted in place: the cheapest path,
  // and the one every named op takes.
  if (canConvertBodyInPlace(*op.getBlock(), computeType)) {
    rewriter.modifyOpInPlace(op, [&] {
      op->setOperands(newOperands);
      for (auto [result, type] : llvm::zip(op->getResults(), resultTypes))
        result.setType(type);
    });
    Block &body = *op.getBlock();
    retypeBody(rewriter, body, newOperands, computeType, loc);
    SmallVector<Type> yieldTypes;
    for (Type t : resultTypes)
      yieldTypes.push_back(getElementTypeOrSelf(t));
    LogicalResult converted =
        convertBlockBody(rewriter, body, computeType, yieldTypes);
    assert(succeeded(converted) && "body was checked to be convertible");
    (void)converted;
    return op.getOperation();
  }

  // Named ops whose body holds more than arithmetic rebuild it from the new
  // types with their own region builder, as if the user had written them in
  // low precision.
  auto regionBuilder = op.getRegionBuilder();
  if (regionBuilder && !isa<linalg::GenericOp, linalg::MapOp, linalg::ReduceOp>(
                           op.getOperation())) {
    OperationState state(loc, op->getName());
    state.addOperands(newOperands);
    state.addTypes(resultTypes);
    state.addAttributes(op->getAttrs());
    state.addRegion();
    Operation *newOp = rewriter.create(state);
    Region &region = newOp->getRegion(0);
    SmallVector<Type> argTypes;
    SmallVector<Location> argLocs;
    for (Value v : newOperands) {
      argTypes.push_back(getElementTypeOrSelf(v.getType()));
      argLocs.push_back(v.getLoc());
    }
    OpBuilder::InsertionGuard guard(rewriter);
    Block *block =
        rewriter.createBlock(&region, region.end(), argTypes, argLocs);
    ImplicitLocOpBuilder b(loc, rewriter);
    b.setInsertionPointToEnd(block);
    regionBuilder(b, *block, newOp->getAttrs(),
                  [&]() { return newOp->emitError(); });
    return newOp;
  }

  // Ops with an explicit body: clone, retype the block arguments, compute
  // the body in `computeType`, and yield the outputs' element types.
  IRMapping mapping;
  mapping.map(op->getOperands(), newOperands);
  Operation *newOp = rewriter.clone(*op, mapping);
  for (auto [result, type] : llvm::zip(newOp->getResults(), resultTypes))
    result.setType(type);
  Block &body = newOp->getRegion(0).front();
  retypeBody(rewriter, body, newOperands, computeType, loc);
  SmallVector<Type> yieldTypes;
  for (Type t : resultTypes)
    yieldTypes.push_back(getElementTypeOrSelf(t));
  if (failed(convertBlockBody(rewriter, body, computeType, yieldTypes))) {
    rewriter.eraseOp(newOp);
    eraseUnusedCasts(rewriter, newOperands);
    if (copies)
      copies->undo(rewriter, op);
    return rewriter.notifyMatchFailure(op, "body cannot be converted");
  }
  return newOp;
}

template <typename OpT>
struct StructuredOpModel
    : AmpOpInterface::ExternalModel<StructuredOpModel<OpT>, OpT> {
  bool isDataOperand(Operation *op, unsigned index) const {
    OpOperand &operand = op->getOpOperand(index);
    return amp::detail::isFloatData(operand.get().getType()) &&
           !isUnreadInput(cast<linalg::LinalgOp>(op), operand);
  }
  CategoryInfo getDefaultCategory(Operation *op, FloatType lowType) const {
    return linalgCategory(cast<linalg::LinalgOp>(op), lowType);
  }
  std::optional<AccumulationInfo> getAccumulation(Operation *op) const {
    // The body's float types do not change what it accumulates.
    return bodyAccumulation(cast<linalg::LinalgOp>(op), /*computeSize=*/true);
  }
  bool canComputeIn(Operation *op, FloatType type, Attribute target) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    BodySummary s = summarizeBody(linalgOp, type);
    // A body that only yields its arguments moves data (transpose,
    // broadcast, copy).
    bool movesOnly =
        llvm::hasSingleElement(linalgOp.getBlock()->getOperations());
    TargetOpKind kind =
        movesOnly         ? TargetOpKind::Storage
        : s.isContraction ? TargetOpKind::Contraction
        : s.bodyCategory.category == Policy::Follow && !s.accumulation
            ? TargetOpKind::Arithmetic
            : TargetOpKind::Transcendental;
    return targetSupports(target, kind, type);
  }
  std::optional<std::string> getRewriteBlocker(Operation *op, FloatType lowType,
                                               FloatType accType) const {
    return linalgRewriteBlocker(cast<linalg::LinalgOp>(op), lowType, accType);
  }
  FailureOr<Operation *> convertToPrecision(Operation *op,
                                            RewriterBase &rewriter,
                                            FloatType lowType,
                                            FloatType accType) const {
    return convertLinalg(cast<linalg::LinalgOp>(op), rewriter, lowType,
                         accType);
  }
};

/// linalg.softmax: exponentiates and sums along `dimension`.
struct SoftmaxModel : RetypingModel<SoftmaxModel, linalg::SoftmaxOp> {
  CategoryInfo getDefaultCategory(Operation *, FloatType) const {
    return category(Policy::Never,
                    "softmax exponentiates and sums: overflow and long sums");
  }
  std::optional<AccumulationInfo> getAccumulation(Operation *op) const {
    auto softmax = cast<linalg::SoftmaxOp>(op);
    AccumulationInfo acc;
    acc.kind = AccumulationKind::Sum;
    auto type = cast<ShapedType>(softmax.getInput().getType());
    acc.reductionSize = type.getDimSize(softmax.getDimension());
    acc.accumulatorResults = {0};
    acc.separateAccumulator = false;
    return acc;
  }
};

template <typename... OpTs> void attachStructuredModels(MLIRContext *ctx) {
  attachModels<StructuredOpModel, OpTs...>(ctx);
}

} // namespace

void mlir::amp::registerLinalgExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    attachStructuredModels<
#define GET_OP_LIST
#include "mlir/Dialect/Linalg/IR/LinalgStructuredOps.cpp.inc"
        >(ctx);
    linalg::SoftmaxOp::attachInterface<SoftmaxModel>(*ctx);
  });
}

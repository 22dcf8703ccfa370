//===- ApplyPrecision.cpp - Rewrite a program to its assigned precision ---===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/ApplyPrecision.h"

#include "amp/Interfaces/BufferCopies.h"
#include "amp/Transforms/CastFolding.h"
#include "mlir/IR/Iterators.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

/// Casts between ops (not the element casts inside bodies that linalg ops
/// compute with).
class PrecisionRewriter {
public:
  PrecisionRewriter(Operation *root, PrecisionAssignment &assignment,
                    PrecisionRewriteStats &stats)
      : root(root), assignment(assignment), stats(stats),
        rewriter(root->getContext()) {
    rewriter.setListener(&declines);
  }

  void run();

private:
  /// `v` as type `type`: itself, a cached cast placed right after its
  /// definition, or a constant converted at compile time.
  Value getAs(Value v, Type type);
  /// `type` with an f32 element type (what an f32 consumer needs).
  static Type asF32(Type type) {
    return withFloatElementType(type, Float32Type::get(type.getContext()));
  }
  void setOperand(Operation *op, unsigned i, Type type);
  /// The assigned type of each operand as planned before the rewrite began
  /// (null for operands the analysis does not track). Producers replaced by
  /// the rewrite leave new values behind; positions stay.
  ArrayRef<Type> planned(Operation *op) { return plannedOperands[op]; }
  void retypeCarriedValues();
  void rewriteCarrier(Operation *op);
  void rewriteLow(Operation *op, OpDecision &d);
  void keepF32(Operation *op);
  void updateSignatures();
  bool isFixedSink(Operation *op);

  Operation *root;
  PrecisionAssignment &assignment;
  PrecisionRewriteStats &stats;
  /// Keeps the reason a model gives when it declines a rewrite
  /// (notifyMatchFailure), for the op's decision and so its remark and
  /// report entry.
  struct DeclineReasons : RewriterBase::Listener {
    void notifyMatchFailure(
        Location loc,
        function_ref<void(Diagnostic &)> reasonCallback) override {
      Diagnostic diag(loc, DiagnosticSeverity::Remark);
      reasonCallback(diag);
      last = diag.str();
    }
    std::string last;
  } declines;
  IRRewriter rewriter;
  DenseMap<std::pair<Value, Type>, Value> casts;
  DenseMap<Operation *, SmallVector<Type>> plannedOperands;
  SymbolTableCollection symbolTables;
  SmallVector<Operation *> toErase;
};

} // namespace

Value PrecisionRewriter::getAs(Value v, Type type) {
  if (v.getType() == type)
    return v;
  Value &cached = casts[{v, type}];
  if (cached)
    return cached;
  OpBuilder::InsertionGuard guard(rewriter);
  if (Operation *def = v.getDefiningOp())
    rewriter.setInsertionPointAfter(def);
  else
    rewriter.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
  Attribute value;
  FloatType elt = getFloatElementType(type);
  if (elt && matchPattern(v, m_Constant(&value)) && isFloatDataAttr(value)) {
    FailureOr<Attribute> converted = convertFloatAttr(value, elt);
    if (succeeded(converted)) {
      cached = arith::ConstantOp::create(rewriter, v.getLoc(),
                                         cast<TypedAttr>(*converted));
      FloatType from = getFloatElementType(v.getType());
      // Complex values have two parts.
      int64_t count = isa<ComplexType>(getElementTypeOrSelf(type)) ? 2 : 1;
      if (auto shaped = dyn_cast<ShapedType>(type))
        count *= shaped.getNumElements();
      stats.constantBytesSaved +=
          (int64_t(from.getWidth()) - int64_t(elt.getWidth())) / 8 * count;
      return cached;
    }
  }
  // A fill of a constant is made again in the type needed.
  if (auto fill = v.getDefiningOp<linalg::FillOp>()) {
    auto empty = fill.output().getDefiningOp<tensor::EmptyOp>();
    Attribute scalar;
    if (elt && empty && matchPattern(fill.value(), m_Constant(&scalar)))
      if (FailureOr<Attribute> converted = convertFloatAttr(scalar, elt);
          succeeded(converted)) {
        Value init = tensor::EmptyOp::create(rewriter, v.getLoc(), type,
                                             empty.getDynamicSizes());
        Value value = arith::ConstantOp::create(rewriter, v.getLoc(),
                                                cast<TypedAttr>(*converted));
        cached = linalg::FillOp::create(rewriter, v.getLoc(), value, init)
                     ->getResult(0);
        return cached;
      }
  }
  // A complex constant is converted part by part.
  if (auto constant = v.getDefiningOp<complex::ConstantOp>())
    if (auto complexType = dyn_cast<ComplexType>(type)) {
      auto part = cast<FloatType>(complexType.getElementType());
      SmallVector<Attribute> parts;
      for (Attribute p : constant.getValue())
        if (FailureOr<Attribute> converted = convertFloatAttr(p, part);
            succeeded(converted))
          parts.push_back(*converted);
      if (parts.size() == 2) {
        cached = complex::ConstantOp::create(rewriter, v.getLoc(), type,
                                             rewriter.getArrayAttr(parts));
        return cached;
      }
    }
  // An empty tensor has no values to cast: make one of the type needed.
  if (auto empty = v.getDefiningOp<tensor::EmptyOp>()) {
    cached = tensor::EmptyOp::create(rewriter, v.getLoc(), type,
                                     empty.getDynamicSizes());
    return cached;
  }
  cached = createFloatCast(rewriter, v.getLoc(), v, type);
  assert(cached && "tracked values are castable");
  return cached;
}

void PrecisionRewriter::setOperand(Operation *op, unsigned i, Type type) {
  Value v = op->getOperand(i);
  Value replacement = getAs(v, type);
  if (replacement != v)
    rewriter.modifyOpInPlace(op, [&] { op->setOperand(i, replacement); });
}

/// Block arguments of control flow and results of carriers take their
/// assigned types before any op is rewritten, so that every op sees its
/// operands in their final types.
void PrecisionRewriter::retypeCarriedValues() {
  for (Operation *op : assignment.getOps()) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (assignment.isTracked(arg))
            arg.setType(assignment.getAssignedType(arg));
    const OpDecision *d = assignment.lookup(op);
    if (d && d->mode == ComputeMode::Carrier)
      for (OpResult r : op->getResults())
        if (assignment.isTracked(r))
          r.setType(assignment.getAssignedType(r));
  }
  // Entry blocks of functions whose signatures change (and the blocks that
  // branch targets reach, which are not nested in any visited op).
  for (FunctionOpInterface func : getFunctions(root)) {
    if (func.isExternal())
      continue;
    bool changes = assignment.signatureChanges(func);
    for (Block &block : func.getFunctionBody())
      if (changes || !block.isEntryBlock())
        for (BlockArgument arg : block.getArguments())
          if (assignment.isTracked(arg))
            arg.setType(assignment.getAssignedType(arg));
  }
}

bool PrecisionRewriter::isFixedSink(Operation *op) {
  if (op->hasTrait<OpTrait::ReturnLike>())
    if (auto func = dyn_cast_if_present<FunctionOpInterface>(op->getParentOp()))
      return !assignment.signatureChanges(func);
  if (auto call = dyn_cast<CallOpInterface>(op)) {
    Operation *callee = call.resolveCallableInTable(&symbolTables);
    return !callee || !assignment.signatureChanges(callee);
  }
  return false;
}

void PrecisionRewriter::rewriteCarrier(Operation *op) {
  bool fixed = isFixedSink(op);
  for (auto [i, type] : llvm::enumerate(planned(op)))
    if (type)
      // A fixed signature wants f32; a tied value shares its group's type.
      setOperand(op, i, fixed ? asF32(type) : type);
}

void PrecisionRewriter::keepF32(Operation *op) {
  SmallVector<Type> bufferTypes(op->getOperandTypes());
  bool copiesBuffers = false;
  for (auto [i, type] : llvm::enumerate(planned(op))) {
    if (!type)
      continue;
    if (isa<BaseMemRefType>(type)) {
      bufferTypes[i] = asF32(type);
      copiesBuffers |= bufferTypes[i] != op->getOperand(i).getType();
      continue;
    }
    setOperand(op, i, asF32(type));
  }
  // A low buffer is read (and written back) through an f32 copy.
  if (copiesBuffers) {
    if (failed(convertBufferOperands(rewriter, op, bufferTypes))) {
      op->emitError() << "amp: cannot copy a low-precision buffer operand to "
                         "f32 for this op";
      stats.failed = true;
    }
  }
}

void PrecisionRewriter::rewriteLow(Operation *op, OpDecision &d) {
  const std::optional<AccumulationInfo> &acc = d.accumulation;
  SmallVector<Value> originals(op->getOperands());
  for (auto [i, type] : llvm::enumerate(planned(op))) {
    // Buffers are copied, if at all, by the op's model (around the op).
    if (!type || isa<BaseMemRefType>(type))
      continue;
    if (!d.dataOperands[i]) {
      setOperand(op, i, asF32(type));
      continue;
    }
    bool isAcc = acc && llvm::is_contained(acc->accumulatorOperands, i);
    setOperand(op, i,
               withFloatElementType(type, isAcc ? d.accType : d.lowType));
  }
  SmallVector<Type> oldTypes(op->getResultTypes());
  declines.last.clear();
  FailureOr<Operation *> converted =
      convertToPrecision(rewriter, op, d.lowType, d.accType);
  if (failed(converted)) {
    SmallVector<Value> tried(op->getOperands());
    rewriter.modifyOpInPlace(op, [&] { op->setOperands(originals); });
    // Casts made only for this op go, and leave the cache with them.
    for (auto [orig, cast] : llvm::zip(originals, tried)) {
      Operation *def = cast.getDefiningOp();
      // Casts are arith casts and constants, or (tensors of complex) an
      // elementwise linalg.generic into a tensor.empty.
      auto generic = dyn_cast_if_present<linalg::GenericOp>(def);
      if (cast == orig || !def || !def->use_empty() ||
          !(isa<arith::ExtFOp, arith::TruncFOp, arith::ConstantOp>(def) ||
            (generic && generic.getNumDpsInits() == 1 &&
             generic.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>())))
        continue;
      casts.erase({orig, cast.getType()});
      Operation *init =
          generic ? generic.getDpsInits()[0].getDefiningOp() : nullptr;
      rewriter.eraseOp(def);
      if (init && init->use_empty())
        rewriter.eraseOp(init);
    }
    keepF32(op);
    d.mode = ComputeMode::F32;
    // The analysis asked getRewriteBlocker before placement; a model that
    // declines anyway is inconsistent, and the op stays f32 all the same.
    d.reason = "its model declined the rewrite to ";
    llvm::raw_string_ostream(d.reason) << d.lowType;
    if (!declines.last.empty())
      d.reason += ": " + declines.last;
    d.reason += " (not foreseen by its getRewriteBlocker)";
    stats.f32Ops++;
    return;
  }
  Operation *newOp = *converted;
  (d.mode == ComputeMode::Low ? stats.lowOps : stats.wideAccumulatorOps)++;
  for (auto [oldResult, newResult] :
       llvm::zip(op->getResults(), newOp->getResults())) {
    Type want = assignment.isTracked(oldResult)
                    ? assignment.getAssignedType(oldResult)
                    : Type(oldResult.getType());
    Value final = newResult;
    if (newResult.getType() != want) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfter(newOp);
      final = createFloatCast(rewriter, newOp->getLoc(), newResult, want);
      assert(final && "results of converted ops are castable");
      // A wide accumulator result is the better value for wide users: they
      // read it directly instead of a widened copy of its rounding (the
      // naive placement, a baseline, casts at every boundary instead).
      if (assignment.getPlacement() != Placement::Naive)
        casts[{final, newResult.getType()}] = newResult;
      casts[{newResult, want}] = final;
    }
    if (newOp == op)
      rewriter.replaceAllUsesExcept(oldResult, final, final.getDefiningOp());
    else
      rewriter.replaceAllUsesWith(oldResult, final);
  }
  if (newOp != op)
    toErase.push_back(op);
}

void PrecisionRewriter::updateSignatures() {
  for (FunctionOpInterface func : getFunctions(root)) {
    if (func.isExternal() || !assignment.signatureChanges(func))
      continue;
    SmallVector<Type> inputs(func.getArgumentTypes().begin(),
                             func.getArgumentTypes().end());
    for (auto [i, arg] : llvm::enumerate(func.getArguments()))
      inputs[i] = arg.getType();
    SmallVector<Type> results(func.getResultTypes().begin(),
                              func.getResultTypes().end());
    for (Block &block : func.getFunctionBody())
      if (!block.empty() && block.back().hasTrait<OpTrait::ReturnLike>()) {
        for (auto [i, v] : llvm::enumerate(block.back().getOperands()))
          results[i] = v.getType();
        break;
      }
    auto type = FunctionType::get(func->getContext(), inputs, results);
    rewriter.modifyOpInPlace(
        func, [&] { func.setFunctionTypeAttr(TypeAttr::get(type)); });
  }
}

void PrecisionRewriter::run() {
  for (Operation *op : assignment.getOps()) {
    SmallVector<Type> &types = plannedOperands[op];
    for (OpOperand &use : op->getOpOperands())
      types.push_back(
          assignment.isTracked(use) ? assignment.getAssignedType(use) : Type());
  }
  retypeCarriedValues();
  for (Operation *op : assignment.getOps()) {
    OpDecision *d = assignment.lookup(op);
    switch (d->mode) {
    case ComputeMode::Carrier:
      rewriteCarrier(op);
      break;
    case ComputeMode::Constant:
      // Never retyped in place (a body that captures a constant uses it as
      // it is): each user that needs another type gets a converted copy
      // from getAs, and constants left without users are erased below.
      break;
    case ComputeMode::Low:
    case ComputeMode::WideAccumulator:
      rewriteLow(op, *d);
      break;
    case ComputeMode::F32:
      stats.f32Ops++;
      keepF32(op);
      break;
    case ComputeMode::Untouched:
      keepF32(op);
      break;
    }
  }
  for (Operation *op : toErase)
    rewriter.eraseOp(op);
  updateSignatures();
}

LogicalResult
mlir::amp::applyPrecisionAssignment(Operation *root,
                                    PrecisionAssignment &assignment,
                                    PrecisionRewriteStats &stats) {
  PrecisionRewriter(root, assignment, stats).run();
  return failure(stats.failed);
}

/// The bytes a value of type `t` occupies: statically shaped tensors and
/// buffers count their elements, others (scalars, dynamic shapes) one.
static int64_t bytesMoved(Type t) {
  // Saturated: absurd shapes must not overflow the report's sums.
  constexpr int64_t kMaxElements = int64_t(1) << 40;
  int64_t n = 1;
  if (auto shaped = dyn_cast<ShapedType>(t); shaped && shaped.hasStaticShape())
    for (int64_t d : shaped.getShape())
      n = d && n > kMaxElements / d ? kMaxElements : n * d;
  return n * int64_t(getElementTypeOrSelf(t).getIntOrFloatBitWidth() / 8);
}

CastCount mlir::amp::countCasts(Operation *root) {
  CastCount count;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    // The scalar casts of a linalg body are its computation, not casts
    // between ops: bodies are not entered.
    if (isa<linalg::LinalgOp>(op))
      return WalkResult::skip();
    if (!isa<arith::ExtFOp, arith::TruncFOp>(op) ||
        !isa<FunctionOpInterface, RegionBranchOpInterface>(op->getParentOp()))
      return WalkResult::advance();
    ++count.casts;
    count.bytes += bytesMoved(op->getOperand(0).getType()) +
                   bytesMoved(op->getResult(0).getType());
    return WalkResult::advance();
  });
  return count;
}

void mlir::amp::eraseDeadOps(Operation *root) {
  // Post-order: users are visited before the ops defining their operands,
  // so a chain (tensor.empty -> linalg.fill -> nothing) goes in one walk.
  IRRewriter rewriter(root->getContext());
  root->walk<WalkOrder::PostOrder, ReverseIterator>([&](Operation *op) {
    if (op != root && isOpTriviallyDead(op))
      rewriter.eraseOp(op);
  });
}

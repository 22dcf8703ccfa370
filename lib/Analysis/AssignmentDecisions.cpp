//===- AssignmentDecisions.cpp - Each op's category and mode --------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Step 2 of the precision assignment (see PrecisionAssignment.cpp): what
// each op runs in before placement, and why.
//
//===----------------------------------------------------------------------===//

#include "AssignmentImpl.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::assignment;

static std::string stringifyFloat(FloatType type) {
  std::string text;
  llvm::raw_string_ostream(text) << type;
  return text;
}

/// True for the casts amp places: arith.extf/truncf, and the elementwise
/// generics that cast tensors of complex values part by part (what
/// createFloatCast makes of them). Such an op's result is already in the type
/// it is for; converting it again would only move its cast.
static bool isFloatCast(Operation *op) {
  if (isa<arith::ExtFOp, arith::TruncFOp>(op))
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return false;
  Block *body = generic.getBlock();
  if (!body->getArgument(1).use_empty())
    return false;
  bool casts = false;
  for (Operation &nested : body->without_terminator()) {
    if (isa<arith::ExtFOp, arith::TruncFOp>(nested))
      casts = true;
    else if (!isa<complex::ReOp, complex::ImOp, complex::CreateOp>(nested))
      return false;
  }
  return casts;
}

//===----------------------------------------------------------------------===//
// Step 2: categories
//===----------------------------------------------------------------------===//

/// The nearest enclosing amp.scope that states a policy.
/// Why an op that would run low cannot: an operand or result amp cannot
/// cast, a constant or attribute the low type cannot hold.
static std::optional<std::string> lowBlocker(Operation *op, FloatType low,
                                             const OpDecision &d) {
  for (OpOperand &operand : op->getOpOperands()) {
    unsigned i = operand.getOperandNumber();
    Type type = operand.get().getType();
    if (!d.dataOperands[i])
      continue;
    FloatType elt = getFloatElementType(type);
    if (!isTrackableType(type) && elt && !elt.isF16() && !elt.isBF16())
      return "operand " + std::to_string(i) +
             " is not of f32 or complex<f32> (nor a ranked container of "
             "them); f64 and unranked values stay as they are";
    if (isFloatBuffer(type) && getBufferRole(op) != BufferRole::Compute)
      return "operand " + std::to_string(i) +
             " is a buffer that only linalg ops can run on converted copies "
             "of";
    Attribute value;
    if (matchPattern(operand.get(), m_Constant(&value)) &&
        isFloatDataAttr(value) && !fitsFloatType(value, low)) {
      std::string msg;
      llvm::raw_string_ostream os(msg);
      os << "constant operand " << i << " does not fit " << low
         << " (overflow, or most values underflow to zero)";
      return msg;
    }
  }
  for (OpResult result : op->getResults()) {
    FloatType elt = getFloatElementType(result.getType());
    if (d.dataResults[result.getResultNumber()] &&
        !isTrackableType(result.getType()) && elt && !elt.isF16() &&
        !elt.isBF16())
      return std::string("a result is not an f32 scalar, vector or ranked "
                         "tensor");
  }
  // Attribute by attribute: op->getAttrs() would build a dictionary of the
  // op's properties for every op. Operand segment sizes are never float
  // data (and are built anew on each query).
  auto unfit = [&](StringRef name,
                   Attribute value) -> std::optional<std::string> {
    if (!value || !isF32DataAttr(value) || fitsFloatType(value, low))
      return std::nullopt;
    std::string msg;
    llvm::raw_string_ostream os(msg);
    os << "attribute '" << name << "' does not fit " << low
       << " (overflow, or most values underflow to zero)";
    return msg;
  };
  bool hasProperties = op->getPropertiesStorageSize() != 0;
  for (NamedAttribute attr : hasProperties
                                 ? op->getDiscardableAttrDictionary().getValue()
                                 : op->getAttrs())
    if (std::optional<std::string> msg =
            unfit(attr.getName().getValue(), attr.getValue()))
      return msg;
  if (hasProperties)
    for (StringAttr name : op->getName().getAttributeNames())
      if (!name.getValue().ends_with("SegmentSizes"))
        if (std::optional<std::string> msg = unfit(
                name.getValue(), op->getInherentAttr(name).value_or(nullptr)))
          return msg;
  return std::nullopt;
}

/// The policy a user states on `op` itself (its attribute, the options or
/// the policy file; not a scope, which covers the op's owner too).
std::optional<std::pair<Policy, std::string>>
PrecisionAssignment::Impl::userPolicyOf(Operation *op) {
  ResolvedPolicy policy = resolvePolicy(op, *options, ShapedType::kDynamic);
  if (!policy.category || policy.source == PolicySource::Scope)
    return std::nullopt;
  return std::make_pair(*policy.category, policy.sourceText);
}

void PrecisionAssignment::Impl::applyBodyPolicy(Operation *op, OpDecision &d,
                                                bool &fromModel) {
  bool anyUserPolicy = false;
  bool tableIsEmpty = !options->policy || options->policy->empty();
  op->walk([&](Operation *nested) {
    if (nested == op || anyUserPolicy)
      return;
    anyUserPolicy = nested->hasAttr(AmpDialect::getPrecisionAttrName()) ||
                    (!tableIsEmpty && userPolicyOf(nested));
  });
  if (!anyUserPolicy)
    return;
  std::string neverBody;
  op->walk([&](Operation *nested) {
    if (nested == op || !hasFloatTypes(nested))
      return;
    std::optional<std::pair<Policy, std::string>> user = userPolicyOf(nested);
    Policy category =
        user ? user->first : getCategory(nested, d.lowType).category;
    if (category == Policy::Never && neverBody.empty())
      neverBody = (nested->getName().getStringRef() +
                   (user ? " (" + user->second + ")" : std::string()))
                      .str();
  });
  if (!neverBody.empty()) {
    d.category = Policy::Never;
    d.source = "body policy";
    d.reason = "its body computes " + neverBody + ", which stays f32";
    fromModel = false;
    return;
  }
  const std::optional<AccumulationInfo> &acc = d.accumulation;
  if (d.category == Policy::Never && !(acc && acc->isLossy())) {
    d.category = Policy::Follow;
    d.source = "body policy";
    d.reason = "user policy lets every op of its body run low";
    fromModel = false;
  }
}

/// Which operands and results are data (float values the op computes on or
/// moves), as its model or traits say.
void PrecisionAssignment::Impl::markDataValues(Operation *op, OpDecision &d) {
  d.dataOperands.resize(op->getNumOperands());
  d.dataResults.resize(op->getNumResults());
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i)
    d.dataOperands[i] = isDataOperand(op, i);
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i)
    d.dataResults[i] = isDataResult(op, i);
}

/// Ops whose mode needs no category: carriers (loops, branches, yields:
/// they take the type of the values tied to them), constants (converted at
/// compile time), and ops with no tracked data or that are casts (left
/// alone). Returns true when `op` was one of them.
bool PrecisionAssignment::Impl::decideWithoutCategory(
    Operation *op, OpDecision &d, const ResolvedPolicy &policy) {
  const std::optional<AccumulationInfo> &acc = d.accumulation;
  if (isCarrier(op)) {
    d.mode = ComputeMode::Carrier;
    d.source = hasAmpModel(op) ? "model" : "traits";
    d.reason = "carries values: takes the type of the values it is tied to";
    // A loop-carried sum keeps its accumulator wide, like any reduction.
    d.accType = policy.accType;
    bool lowAcc = !policy.wideAccumulator();
    if (acc && acc->isLossy() && !lowAcc) {
      for (unsigned i : acc->accumulatorResults)
        f32Sources.push_back(op->getResult(i));
      d.reason = "carries a sum: its accumulator stays f32";
    }
    return true;
  }
  bool hasData = false;
  for (OpOperand &operand : op->getOpOperands())
    hasData |= d.dataOperands[operand.getOperandNumber()] &&
               valueIds.count(operand.get());
  for (OpResult result : op->getResults())
    hasData |=
        d.dataResults[result.getResultNumber()] && valueIds.count(result);
  if (op->hasTrait<OpTrait::ConstantLike>() && hasData) {
    d.mode = ComputeMode::Constant;
    d.source = "model";
    d.reason = "converted at compile time to the type its users need";
    return true;
  }
  // Casts are amp's own business: the rewrite places and folds them.
  if (!hasData || isFloatCast(op)) {
    d.mode = ComputeMode::Untouched;
    d.source = hasAmpModel(op) ? "model" : "traits";
    d.reason = getCategory(op, d.lowType).reason.str();
    for (Value r : op->getResults())
      f32Sources.push_back(r);
    // A cast on buffers writes its result into a buffer: that buffer keeps
    // the type the cast writes (as a cast's result on tensors does).
    if (isFloatCast(op))
      for (Value operand : op->getOperands())
        if (isFloatBuffer(operand.getType()))
          f32Sources.push_back(operand);
    return true;
  }
  return false;
}

/// The category, by precedence: the user's policy (attributes, scopes,
/// options, policy file), else the op's model, else the missing-op mode for
/// an op that traits cannot vouch for; then a policy on the ops of its body.
/// Returns whether the category is the model's own.
bool PrecisionAssignment::Impl::chooseCategory(Operation *op, OpDecision &d,
                                               const ResolvedPolicy &policy) {
  CategoryInfo modelInfo = getCategory(op, d.lowType);
  bool fromModel = true;
  d.category = modelInfo.category;
  d.reason = modelInfo.reason.str();
  d.source = hasAmpModel(op) ? "model" : "traits";
  if (policy.category) {
    d.category = *policy.category;
    d.source = policy.sourceText;
    d.reason = policy.detail;
    fromModel = false;
  } else if (!hasAmpModel(op) && modelInfo.category == Policy::Never) {
    missingOps[op->getName().getStringRef()]++;
    d.source = "missing-op";
    if (options->missingOp == MissingOpMode::Follow) {
      d.category = Policy::Follow;
      d.reason = "no amp model; missing-op=follow";
    }
  }
  // An op that owns its body (linalg, tensor.pad) runs its body ops in its
  // own precision: a user's policy on a body op applies to the owner.
  if (fromModel && op->getNumRegions() && !isa<RegionBranchOpInterface>(op))
    applyBodyPolicy(op, d, fromModel);
  return fromModel;
}

/// What the target (the enclosing one, else the default; none: the CPU,
/// which computes everything) cannot compute in the low type stays f32.
/// Returns whether the category is still the model's own.
bool PrecisionAssignment::Impl::applyTargetLimits(Operation *op, OpDecision &d,
                                                  bool fromModel) {
  Attribute target = getEnclosingTarget(op);
  if (!target)
    target = options->defaultTarget;
  if (d.category == Policy::Never || !target ||
      canComputeIn(op, d.lowType, target))
    return fromModel;
  d.category = Policy::Never;
  d.source = "target";
  llvm::raw_string_ostream os(d.reason);
  d.reason.clear();
  // Storage-only: values may still be stored low around the op (data
  // movement follows them), and the op computes on widened values.
  if (targetSupports(target, TargetOpKind::Storage, d.lowType))
    os << "storage-only: the target stores " << d.lowType
       << " but cannot compute this op in it";
  else
    os << "the target can neither store nor compute " << d.lowType;
  return false;
}

/// The mode from the category: a sum that can keep a wide accumulator reads
/// low inputs (with a low accumulator, asked for or a short reduction, it
/// simply follows); allow and follow ops run low, never ops f32.
void PrecisionAssignment::Impl::chooseMode(OpDecision &d, bool fromModel) {
  const std::optional<AccumulationInfo> &acc = d.accumulation;
  bool wideAcc = d.accType.getWidth() > d.lowType.getWidth();
  bool lossySum = acc && acc->isLossy();
  if (d.category == Policy::Never && fromModel && lossySum) {
    if (wideAcc && acc->separateAccumulator) {
      d.mode = ComputeMode::WideAccumulator;
      return;
    }
    if (!wideAcc) {
      d.category = Policy::Follow;
      d.reason += "; accumulating in ";
      llvm::raw_string_ostream(d.reason)
          << d.accType << " as asked, so it follows";
    }
  }
  switch (d.category) {
  case Policy::Allow:
    d.mode = ComputeMode::Low;
    break;
  case Policy::Follow:
    d.mode = ComputeMode::Low;
    d.follows = true;
    break;
  case Policy::Never:
    d.mode = ComputeMode::F32;
    break;
  }
}

/// An op that would compute low stays f32 where its values cannot be low
/// (unsupported types, constants that do not fit) or where its model would
/// decline the rewrite: known now, before placement, so that the rewrite
/// never changes a decision the placement relied on.
void PrecisionAssignment::Impl::applyBlockers(Operation *op, OpDecision &d) {
  if (d.mode == ComputeMode::F32)
    return;
  if (std::optional<std::string> blocker = lowBlocker(op, d.lowType, d)) {
    d.mode = ComputeMode::F32;
    d.follows = false;
    d.reason = *blocker;
    return;
  }
  if (std::optional<std::string> blocker =
          getRewriteBlocker(op, d.lowType, d.accType)) {
    d.mode = ComputeMode::F32;
    d.follows = false;
    d.reason = "its model declines the rewrite to ";
    llvm::raw_string_ostream(d.reason) << d.lowType << ": " << *blocker;
  }
}

void PrecisionAssignment::Impl::decide(Operation *op, OpDecision &d) {
  markDataValues(op, d);
  // One resolver gives every op its stated category, low type and
  // accumulator type (attributes > scopes > options and policy file).
  d.accumulation = getAccumulation(op);
  const std::optional<AccumulationInfo> &acc = d.accumulation;
  ResolvedPolicy policy = resolvePolicy(
      op, *options, acc ? acc->reductionSize : ShapedType::kDynamic);
  d.lowType = policy.lowType;
  if (decideWithoutCategory(op, d, policy))
    return;
  bool fromModel = chooseCategory(op, d, policy);
  d.accType = policy.accType;
  fromModel = applyTargetLimits(op, d, fromModel);
  chooseMode(d, fromModel);
  applyBlockers(op, d);
}

/// A value amp rounds to the low type must fit it. The range analysis says
/// which values may not: an exp's result, a long sum accumulated in f32 (a
/// global pool's sum over 1280 pixels of ~100 is 1.3e5 > 65504), anything
/// computed from them before a bounded op brings them back (sqrt, a mean's
/// division, tanh), and values whose nonzero elements would all be
/// subnormal. Such a value keeps f32 (its group is an f32 source), the ops
/// that produce it compute in f32 (or keep their wide accumulator), and the
/// ops that read it compute in f32; their own results are rounded as usual
/// when they fit. A bounded value (a softmax's output, in [0, 1]) is read
/// low like any other. An op whose policy the user states keeps it.
void PrecisionAssignment::Impl::respectRanges() {
  // A policy the user states on the op itself wins: they may know better.
  auto userAllowed = [](const OpDecision &d) {
    return d.category != Policy::Never && d.source != "model" &&
           d.source != "traits" && d.source != "missing-op" &&
           d.source != "body policy";
  };
  auto lowTypeOf = [&](Value v) {
    if (Operation *def = v.getDefiningOp())
      if (auto it = opIndex.find(def); it != opIndex.end())
        if (FloatType low = decisions[it->second].lowType)
          return low;
    return options->lowType;
  };
  for (Value v : values) {
    Operation *def = v.getDefiningOp();
    if (def && opIndex.count(def) && userAllowed(decisions[opIndex[def]]))
      continue;
    if (ranges->fits(v, lowTypeOf(v), /*explain=*/false).kind != RangeFit::Fits)
      f32Sources.push_back(v);
  }
  if (options->describeRanges)
    for (auto [op, d] : llvm::zip(ops, decisions))
      for (OpResult result : op->getResults())
        if (d.dataResults.size() > result.getResultNumber() &&
            d.dataResults[result.getResultNumber()] &&
            ranges->lookup(result).isInitialized())
          d.resultRanges.push_back("result " +
                                   std::to_string(result.getResultNumber()) +
                                   " " + ranges->describe(result));
  for (auto [op, d] : llvm::zip(ops, decisions)) {
    if ((d.mode != ComputeMode::Low &&
         d.mode != ComputeMode::WideAccumulator) ||
        userAllowed(d))
      continue;
    auto demote = [&, &d = d](const Twine &what, const RangeFit &fit) {
      d.mode = ComputeMode::F32;
      d.follows = false;
      d.source = "range";
      d.reason = (what + ": " + fit.reason).str();
    };
    for (OpOperand &use : op->getOpOperands()) {
      if (!d.dataOperands[use.getOperandNumber()])
        continue;
      RangeFit fit = ranges->fits(use.get(), d.lowType);
      if (fit.kind == RangeFit::Fits)
        continue;
      demote("reads operand " + Twine(use.getOperandNumber()) +
                 (fit.kind == RangeFit::MayOverflow ? ", which may exceed "
                                                    : ", which underflows ") +
                 stringifyFloat(d.lowType),
             fit);
      break;
    }
    if (d.mode == ComputeMode::F32)
      continue;
    for (OpResult result : op->getResults()) {
      if (!d.dataResults[result.getResultNumber()])
        continue;
      // A wide accumulator returns its sum in f32 anyway.
      if (d.mode == ComputeMode::WideAccumulator && d.accumulation &&
          llvm::is_contained(d.accumulation->accumulatorResults,
                             result.getResultNumber()))
        continue;
      RangeFit fit = ranges->fits(result, d.lowType);
      if (fit.kind == RangeFit::Fits)
        continue;
      demote("result " + Twine(result.getResultNumber()) +
                 (fit.kind == RangeFit::MayOverflow ? " may exceed "
                                                    : " underflows ") +
                 stringifyFloat(d.lowType),
             fit);
      break;
    }
  }
}

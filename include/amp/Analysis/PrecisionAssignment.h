//===- PrecisionAssignment.h - Who runs in which precision ------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The whole-program analysis of the mixed-precision pass: before anything is
// rewritten, it decides for every op whether it computes in the low type, in
// f32, or reads low inputs into an f32 accumulator, and for every f32 value
// which type it will have. Values tied through control flow share one type.
// Every decision keeps its reason: this is the one place that answers "why
// did this op stay f32?".
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_PRECISIONASSIGNMENT_H
#define AMP_ANALYSIS_PRECISIONASSIGNMENT_H

#include "amp/Analysis/AssignmentOptions.h"
#include "amp/Analysis/Policy.h"
#include "amp/Interfaces/AmpOpInterface.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallBitVector.h"

#include <memory>
#include <string>

namespace mlir {
namespace amp {

/// How an op runs after conversion.
enum class ComputeMode {
  /// Computes in its low type; accumulators in its accumulate type.
  Low,
  /// Reads low inputs and accumulates (and returns) in f32: sums, means and
  /// pools that can keep a wide accumulator.
  WideAccumulator,
  /// Stays f32; low operands are extended for it.
  F32,
  /// Carries values (control flow, calls, returns): takes the types of the
  /// values it is tied to.
  Carrier,
  /// A float constant: materialised in the type each group of users needs.
  Constant,
  /// Has no float data amp changes.
  Untouched,
};

StringRef stringifyComputeMode(ComputeMode mode);

/// The decision for one op, with where it came from and why.
struct OpDecision {
  Policy category = Policy::Follow;
  /// "amp.precision", "amp.scope", "option", a policy-file location,
  /// "model", "traits" or "missing-op".
  std::string source;
  std::string reason;
  ComputeMode mode = ComputeMode::Untouched;
  FloatType lowType;
  /// The accumulator type for ops that accumulate.
  FloatType accType;
  /// What the op's model reports about its accumulation (computed once).
  std::optional<AccumulationInfo> accumulation;
  /// A follow op: its mode is decided by the types of its inputs.
  bool follows = false;
  /// Which operands and results are data (AmpOpInterface, asked once).
  llvm::SmallBitVector dataOperands, dataResults;
  /// With AssignmentOptions::describeRanges: what the range analysis says
  /// of each float data result ("result 0 in [0, 1]: output of
  /// linalg.softmax at m.mlir:4:8").
  SmallVector<std::string, 0> resultRanges;
};

/// The result of the analysis.
class PrecisionAssignment {
public:
  PrecisionAssignment();
  ~PrecisionAssignment();
  PrecisionAssignment(PrecisionAssignment &&);
  PrecisionAssignment &operator=(PrecisionAssignment &&);

  /// Analyses every function in `root` (or `root` itself if it is a
  /// function). `changeSignatures` says whether function signatures and the
  /// calls to them may change (the pass runs on a symbol table). Fails, with
  /// diagnostics emitted, on missing-op=error.
  static FailureOr<PrecisionAssignment>
  analyze(Operation *root, const AssignmentOptions &options,
          bool changeSignatures);

  /// The decision for `op`, or null for ops the analysis did not visit
  /// (those inside a body its owner converts).
  const OpDecision *lookup(Operation *op) const;
  OpDecision *lookup(Operation *op);
  /// True if `value` is an f32 value the analysis assigned a type to.
  bool isTracked(Value value) const;
  /// The type `value` gets: its low variant or its f32 type. Unchanged for
  /// untracked values.
  Type getAssignedType(Value value) const;
  /// The type the value passed by `use` must have: the type of the value it
  /// is tied to through control flow or a call (constants and fixed
  /// arguments passed there are cast), else the value's assigned type.
  Type getAssignedType(OpOperand &use) const;
  bool isTracked(OpOperand &use) const;
  /// Functions whose signatures change (their arguments and results take
  /// their assigned types).
  bool signatureChanges(Operation *function) const;
  /// Visited ops in program order.
  ArrayRef<Operation *> getOps() const;
  /// Their decisions, parallel to getOps() (valid after the rewrite, which
  /// may erase the ops).
  ArrayRef<OpDecision> getDecisions() const;
  /// The placement the assignment was made with.
  Placement getPlacement() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_PRECISIONASSIGNMENT_H

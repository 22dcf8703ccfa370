//===- Policy.h - User precision policy -------------------------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What a user states outside the IR about which ops run in low precision:
// op-name lists given as pass options, and rules read from a policy file
// (JSON or YAML) with conditions on reduction size, shapes and attributes.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_POLICY_H
#define AMP_ANALYSIS_POLICY_H

#include "amp/Analysis/AssignmentOptions.h"
#include "amp/Dialect/Amp/Amp.h"
#include "amp/Interfaces/AmpOpInterface.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/GlobPattern.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace amp {

/// One rule of a policy file.
struct PolicyRule {
  /// Op name, `dialect.*`, or `*`.
  std::string opPattern = "*";
  /// Selectors of individual ops that survive re-import: a glob over the
  /// names in the op's location (`loc`: an ONNX node's name such as
  /// `p2o.MatMul.12`, or `file:line:col`), and a glob over an enclosing op's
  /// location names or, written `@name`, an enclosing symbol (`in`: a region
  /// of the program).
  std::string locText, inText;
  /// The compiled globs. A GlobPattern refers to its text, so each owns a
  /// copy that does not move with the rule.
  struct Glob {
    std::string text;
    llvm::GlobPattern pattern;
    bool match(StringRef s) const { return pattern.match(s); }
  };
  std::shared_ptr<const Glob> locPattern, inPattern;
  /// What the rule sets; either may be absent.
  std::optional<Policy> policy;
  std::optional<AccumulateMode> accumulate;
  /// The range [lo, hi] the values of the op's float results (of a
  /// function's float arguments, for a function) lie in, as the user
  /// states it.
  std::optional<std::pair<double, double>> range;
  /// Conditions; all must hold.
  std::optional<int64_t> minReductionSize, maxReductionSize;
  std::optional<int64_t> minElements, maxElements;
  std::string hasAttribute;
  /// Where the rule was written (file:line:col), for reports.
  std::string description;

  /// True if the op's name and selectors match (`selected`), and then its
  /// conditions hold.
  bool matches(Operation *op, bool *selected = nullptr) const;
  bool hasSelector() const { return locPattern || inPattern; }
  /// Compiles `text` as a glob; the error when it is not one.
  static llvm::Expected<std::shared_ptr<const Glob>>
  compileGlob(StringRef text);
};

/// The names a location gives an op, as `loc` selectors see them: each
/// NameLoc's name and each file location as `file:line:col`, through
/// fused, call-site and nested locations.
SmallVector<std::string> getLocationNames(Location loc);

/// The user's policy: option lists first, then policy-file rules in order.
class PolicyTable {
public:
  /// Adds names from the allow/follow/never options.
  void addOpList(ArrayRef<std::string> names, Policy policy);
  /// Reads rules from `path` (JSON or YAML). On failure returns a message
  /// that starts with `path:line:col:`.
  LogicalResult loadFile(StringRef path, std::string &errorMessage);
  /// Reads rules from the text of a policy file named `name`.
  LogicalResult loadBuffer(StringRef text, StringRef name,
                           std::string &errorMessage);

  /// The policy the options or the file state for `op`, with a description
  /// of where it came from ("option never=math.exp", "file.json:3:5").
  std::optional<std::pair<Policy, std::string>>
  lookupPolicy(Operation *op) const;
  /// The accumulation mode the file states for `op`.
  std::optional<AccumulateMode> lookupAccumulate(Operation *op) const;

  /// The range the file states for `op`'s results (a function's
  /// arguments), with the rule's location.
  std::optional<std::pair<std::pair<double, double>, std::string>>
  lookupRange(Operation *op) const;

  /// Op names in the option lists, to warn about names no registered op has.
  std::vector<std::string> listedOpNames() const;

  bool empty() const { return optionPolicies.empty() && rules.empty(); }

  /// Forgets which rules' selectors matched an op (before a run over a
  /// whole program).
  void resetSelectorMatches();
  /// One line per rule with a `loc` or `in` selector that matched no op
  /// since the last reset ("policy.yaml:4:5: loc 'p2o.Foo' matches no op").
  std::vector<std::string> describeUnmatchedSelectors() const;

private:
  /// Rule `i` matches `op`; records that its selector matched.
  bool ruleMatches(size_t i, Operation *op) const;

  llvm::StringMap<Policy> optionPolicies;
  std::vector<PolicyRule> rules;
  /// Parallel to rules: whether the rule's selector matched an op (set from
  /// the lookups, which may run on several functions at once).
  std::vector<std::unique_ptr<std::atomic<bool>>> selectorMatched;
};

/// Fails, with an error at `root` per rule, when a rule of `table` has a
/// `loc` or `in` selector that matched no op since its last reset: a
/// selector naming nothing is a stale or misspelt policy.
LogicalResult checkSelectorsMatched(Operation *root, const PolicyTable &table);

/// Where a stated category came from, in order of precedence.
enum class PolicySource {
  /// `amp.precision` on the op itself.
  OpAttribute,
  /// `amp.scope` on an enclosing op.
  Scope,
  /// The allow/follow/never options or a policy-file rule.
  UserPolicy,
  /// Nothing stated: the op's model (or traits) decides.
  None,
};

/// Everything the user states about one op, resolved once by precedence:
/// the op's `amp.precision` over the nearest `amp.scope` over the options and
/// policy file, for the category, the low type and the accumulator type.
struct ResolvedPolicy {
  /// The stated category; nullopt when the model decides.
  std::optional<Policy> category;
  PolicySource source = PolicySource::None;
  /// For reports: where the category came from ("amp.precision", "amp.scope
  /// on 'func.func'", "option never=math.exp", "file.json:3:5") and why.
  std::string sourceText, detail;
  /// The low type (the effective `low =` or the pass's precision).
  FloatType lowType;
  /// The accumulator type: the effective `accumulate =`, else the policy
  /// file's, else the short-reduction rule (accumulate-min-size), else the
  /// pass's accumulate option.
  FloatType accType;
  /// True when accType is wider than lowType.
  bool wideAccumulator() const {
    return FloatType(accType).getWidth() > FloatType(lowType).getWidth();
  }
};

/// Resolves the policy of `op`. `reductionSize` is the number of elements
/// folded into each accumulator when the op accumulates (dynamic or none:
/// ShapedType::kDynamic).
ResolvedPolicy resolvePolicy(Operation *op, const AssignmentOptions &options,
                             int64_t reductionSize);

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_POLICY_H

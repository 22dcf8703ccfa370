//===- Policy.cpp - User precision policy: options and policy files -------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/Policy.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

#include "llvm/Support/raw_ostream.h"
#include <cmath>

using namespace mlir;
using namespace mlir::amp;

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

static bool matchesPattern(StringRef pattern, StringRef opName) {
  if (pattern == "*")
    return true;
  if (pattern.ends_with(".*"))
    return opName.starts_with(pattern.drop_back(1));
  return pattern == opName;
}

/// The largest element count among the op's shaped operands and results.
static int64_t largestElementCount(Operation *op) {
  int64_t largest = 0;
  auto visit = [&](Type t) {
    if (auto shaped = dyn_cast<ShapedType>(t))
      if (shaped.hasStaticShape())
        largest = std::max(largest, shaped.getNumElements());
  };
  llvm::for_each(op->getOperandTypes(), visit);
  llvm::for_each(op->getResultTypes(), visit);
  return largest;
}

SmallVector<std::string> mlir::amp::getLocationNames(Location loc) {
  SmallVector<std::string> names;
  SmallVector<Location> worklist = {loc};
  while (!worklist.empty()) {
    Location l = worklist.pop_back_val();
    if (auto name = dyn_cast<NameLoc>(l)) {
      names.push_back(name.getName().str());
      worklist.push_back(name.getChildLoc());
    } else if (auto file = dyn_cast<FileLineColLoc>(l)) {
      names.push_back((file.getFilename().getValue() + ":" +
                       Twine(file.getLine()) + ":" + Twine(file.getColumn()))
                          .str());
    } else if (auto fused = dyn_cast<FusedLoc>(l)) {
      llvm::append_range(worklist, llvm::reverse(fused.getLocations()));
    } else if (auto site = dyn_cast<CallSiteLoc>(l)) {
      worklist.push_back(site.getCaller());
      worklist.push_back(site.getCallee());
    } else if (auto opaque = dyn_cast<OpaqueLoc>(l)) {
      worklist.push_back(opaque.getFallbackLocation());
    }
  }
  return names;
}

llvm::Expected<std::shared_ptr<const PolicyRule::Glob>>
PolicyRule::compileGlob(StringRef text) {
  auto glob = std::make_shared<Glob>(Glob{text.str(), llvm::GlobPattern()});
  llvm::Expected<llvm::GlobPattern> pattern =
      llvm::GlobPattern::create(glob->text);
  if (!pattern)
    return pattern.takeError();
  glob->pattern = std::move(*pattern);
  return glob;
}

static bool anyLocationNameMatches(Location loc,
                                   const PolicyRule::Glob &pattern) {
  return llvm::any_of(getLocationNames(loc), [&](const std::string &name) {
    return pattern.match(name);
  });
}

/// `in` selects ops nested in an op whose location matches, or, for `@glob`,
/// in an op whose symbol name matches.
static bool enclosedBy(Operation *op, const PolicyRule &rule) {
  bool symbol = StringRef(rule.inText).starts_with("@");
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    if (symbol) {
      if (auto name =
              p->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
        if (rule.inPattern->match(name.getValue()))
          return true;
    } else if (anyLocationNameMatches(p->getLoc(), *rule.inPattern)) {
      return true;
    }
  }
  return false;
}

bool PolicyRule::matches(Operation *op, bool *selected) const {
  if (!matchesPattern(opPattern, op->getName().getStringRef()))
    return false;
  if (locPattern && !anyLocationNameMatches(op->getLoc(), *locPattern))
    return false;
  if (inPattern && !enclosedBy(op, *this))
    return false;
  if (selected)
    *selected = true;
  if (minReductionSize || maxReductionSize) {
    std::optional<AccumulationInfo> acc = getAccumulation(op);
    // An unknown size satisfies a lower bound (it may be long) and fails an
    // upper bound.
    if (!acc)
      return false;
    bool dynamic = ShapedType::isDynamic(acc->reductionSize);
    if (minReductionSize && !dynamic && acc->reductionSize < *minReductionSize)
      return false;
    if (maxReductionSize && (dynamic || acc->reductionSize > *maxReductionSize))
      return false;
  }
  if (minElements || maxElements) {
    int64_t n = largestElementCount(op);
    if (minElements && n < *minElements)
      return false;
    if (maxElements && n > *maxElements)
      return false;
  }
  if (!hasAttribute.empty() && !op->hasAttr(hasAttribute))
    return false;
  return true;
}

//===----------------------------------------------------------------------===//
// PolicyTable
//===----------------------------------------------------------------------===//

void PolicyTable::addOpList(ArrayRef<std::string> names, Policy policy) {
  for (const std::string &name : names)
    optionPolicies[name] = policy;
}

std::vector<std::string> PolicyTable::listedOpNames() const {
  std::vector<std::string> names;
  for (const auto &entry : optionPolicies)
    names.push_back(entry.getKey().str());
  llvm::sort(names);
  return names;
}

std::optional<std::pair<Policy, std::string>>
PolicyTable::lookupPolicy(Operation *op) const {
  StringRef name = op->getName().getStringRef();
  auto it = optionPolicies.find(name);
  if (it != optionPolicies.end())
    return std::make_pair(
        it->second,
        ("option " + stringifyPolicy(it->second) + "=" + name).str());
  for (auto [i, rule] : llvm::enumerate(rules))
    if (rule.policy && ruleMatches(i, op))
      return std::make_pair(*rule.policy, rule.description);
  return std::nullopt;
}

std::optional<AccumulateMode>
PolicyTable::lookupAccumulate(Operation *op) const {
  for (auto [i, rule] : llvm::enumerate(rules))
    if (rule.accumulate && ruleMatches(i, op))
      return rule.accumulate;
  return std::nullopt;
}

std::optional<std::pair<std::pair<double, double>, std::string>>
PolicyTable::lookupRange(Operation *op) const {
  for (auto [i, rule] : llvm::enumerate(rules))
    if (rule.range && ruleMatches(i, op))
      return std::make_pair(*rule.range, rule.description);
  return std::nullopt;
}

bool PolicyTable::ruleMatches(size_t i, Operation *op) const {
  const PolicyRule &rule = rules[i];
  if (!rule.hasSelector())
    return rule.matches(op);
  bool selected = false;
  bool matched = rule.matches(op, &selected);
  if (selected)
    selectorMatched[i]->store(true, std::memory_order_relaxed);
  return matched;
}

void PolicyTable::resetSelectorMatches() {
  for (auto &flag : selectorMatched)
    flag->store(false, std::memory_order_relaxed);
}

std::vector<std::string> PolicyTable::describeUnmatchedSelectors() const {
  std::vector<std::string> lines;
  for (auto [i, rule] : llvm::enumerate(rules)) {
    if (!rule.hasSelector() || selectorMatched[i]->load())
      continue;
    std::string line = rule.description + ": ";
    if (rule.locPattern)
      line += "loc '" + rule.locText + "'";
    if (rule.inPattern)
      line += (rule.locPattern ? " in '" : "in '") + rule.inText + "'";
    if (rule.opPattern != "*")
      line += " (op " + rule.opPattern + ")";
    lines.push_back(line + " matches no op");
  }
  return lines;
}

LogicalResult mlir::amp::checkSelectorsMatched(Operation *root,
                                               const PolicyTable &table) {
  std::vector<std::string> unmatched = table.describeUnmatchedSelectors();
  for (const std::string &line : unmatched)
    mlir::emitError(root->getLoc(), "policy file: ") << line;
  return success(unmatched.empty());
}

//===----------------------------------------------------------------------===//
// Policy files
//===----------------------------------------------------------------------===//

namespace {

/// Reads a policy file through LLVM's YAML parser, which also reads JSON,
/// and reports every error with its file:line:col.
class PolicyFileReader {
public:
  PolicyFileReader(StringRef path, llvm::SourceMgr &sm) : path(path), sm(sm) {}

  LogicalResult read(std::vector<PolicyRule> &rules);
  std::string error;

private:
  LogicalResult fail(llvm::yaml::Node *node, const Twine &msg) {
    return fail(node ? node->getSourceRange().Start : SMLoc(), msg);
  }
  LogicalResult fail(SMLoc loc, const Twine &msg) {
    if (!error.empty())
      return failure();
    auto [line, col] = lineAndColumn(loc);
    error = (path + ":" + Twine(line) + ":" + Twine(col) + ": " + msg).str();
    return failure();
  }
  /// Where `loc` is in the file, or 0:0 where it is not in it: the YAML
  /// parser can leave the nodes of malformed input pointing elsewhere.
  std::pair<unsigned, unsigned> lineAndColumn(SMLoc loc) const {
    if (!loc.isValid() || !sm.FindBufferContainingLoc(loc))
      return {0, 0};
    return sm.getLineAndColumn(loc);
  }
  FailureOr<std::string> scalar(llvm::yaml::Node *node, StringRef what);
  FailureOr<int64_t> integer(llvm::yaml::Node *node, StringRef what);
  LogicalResult readRule(llvm::yaml::Node *node, PolicyRule &rule);
  LogicalResult readConditions(llvm::yaml::Node *node, PolicyRule &rule);

  StringRef path;
  llvm::SourceMgr &sm;
};

} // namespace

FailureOr<std::string> PolicyFileReader::scalar(llvm::yaml::Node *node,
                                                StringRef what) {
  auto *s = dyn_cast_if_present<llvm::yaml::ScalarNode>(node);
  if (!s)
    return fail(node, "expected a string for " + what);
  SmallString<32> storage;
  return s->getValue(storage).str();
}

FailureOr<int64_t> PolicyFileReader::integer(llvm::yaml::Node *node,
                                             StringRef what) {
  FailureOr<std::string> text = scalar(node, what);
  if (failed(text))
    return failure();
  int64_t value;
  if (StringRef(*text).getAsInteger(10, value) || value < 0)
    return fail(node, "expected a non-negative integer for " + what +
                          ", got '" + *text + "'");
  return value;
}

LogicalResult PolicyFileReader::readConditions(llvm::yaml::Node *node,
                                               PolicyRule &rule) {
  auto *map = dyn_cast_if_present<llvm::yaml::MappingNode>(node);
  if (!map)
    return fail(node, "'when' must be a mapping of conditions");
  for (llvm::yaml::KeyValueNode &kv : *map) {
    FailureOr<std::string> key = scalar(kv.getKey(), "a condition name");
    if (failed(key))
      return failure();
    llvm::yaml::Node *value = kv.getValue();
    std::optional<int64_t> *bound =
        llvm::StringSwitch<std::optional<int64_t> *>(*key)
            .Case("min-reduction-size", &rule.minReductionSize)
            .Case("max-reduction-size", &rule.maxReductionSize)
            .Case("min-elements", &rule.minElements)
            .Case("max-elements", &rule.maxElements)
            .Default(nullptr);
    if (bound) {
      FailureOr<int64_t> v = integer(value, "'" + *key + "'");
      if (failed(v))
        return failure();
      *bound = *v;
      continue;
    }
    if (*key == "has-attribute") {
      FailureOr<std::string> v = scalar(value, "'has-attribute'");
      if (failed(v))
        return failure();
      rule.hasAttribute = *v;
      continue;
    }
    return fail(kv.getKey(),
                "unknown condition '" + *key +
                    "'; expected min-reduction-size, max-reduction-size, "
                    "min-elements, max-elements or has-attribute");
  }
  return success();
}

LogicalResult PolicyFileReader::readRule(llvm::yaml::Node *node,
                                         PolicyRule &rule) {
  auto *map = dyn_cast_if_present<llvm::yaml::MappingNode>(node);
  if (!map)
    return fail(node, "a rule must be a mapping with 'op', 'loc' or 'in', "
                      "and 'policy', 'accumulate' or 'range'");
  auto [line, col] = lineAndColumn(node->getSourceRange().Start);
  rule.description = (path + ":" + Twine(line) + ":" + Twine(col)).str();
  bool hasOp = false;
  for (llvm::yaml::KeyValueNode &kv : *map) {
    FailureOr<std::string> key = scalar(kv.getKey(), "a rule key");
    if (failed(key))
      return failure();
    llvm::yaml::Node *value = kv.getValue();
    if (*key == "op") {
      FailureOr<std::string> v = scalar(value, "'op'");
      if (failed(v))
        return failure();
      rule.opPattern = *v;
      hasOp = true;
    } else if (*key == "loc" || *key == "in") {
      FailureOr<std::string> v = scalar(value, "'" + *key + "'");
      if (failed(v))
        return failure();
      StringRef glob = *v;
      if (*key == "in")
        glob.consume_front("@");
      if (glob.empty())
        return fail(value, "'" + *key + "' must not be empty");
      auto pattern = PolicyRule::compileGlob(glob);
      if (!pattern)
        return fail(value, "bad pattern in '" + *key +
                               "': " + llvm::toString(pattern.takeError()));
      (*key == "loc" ? rule.locText : rule.inText) = *v;
      (*key == "loc" ? rule.locPattern : rule.inPattern) = std::move(*pattern);
    } else if (*key == "policy") {
      FailureOr<std::string> v = scalar(value, "'policy'");
      if (failed(v))
        return failure();
      rule.policy = symbolizePolicy(*v);
      if (!rule.policy)
        return fail(value, "unknown policy '" + *v +
                               "'; expected allow, follow or never");
    } else if (*key == "accumulate") {
      FailureOr<std::string> v = scalar(value, "'accumulate'");
      if (failed(v))
        return failure();
      if (*v == "f32")
        rule.accumulate = AccumulateMode::F32;
      else if (*v == "low")
        rule.accumulate = AccumulateMode::Low;
      else
        return fail(value,
                    "unknown accumulate '" + *v + "'; expected f32 or low");
    } else if (*key == "when") {
      if (failed(readConditions(value, rule)))
        return failure();
    } else if (*key == "range") {
      auto *bounds = dyn_cast_if_present<llvm::yaml::SequenceNode>(value);
      SmallVector<double, 2> numbers;
      if (bounds)
        for (llvm::yaml::Node &bound : *bounds) {
          FailureOr<std::string> text = scalar(&bound, "a 'range' bound");
          double d;
          if (failed(text) || StringRef(*text).getAsDouble(d) || std::isnan(d))
            return fail(&bound, "a 'range' bound must be a number");
          numbers.push_back(d);
        }
      if (!bounds || numbers.size() != 2 || numbers[0] > numbers[1])
        return fail(value, "'range' must be [lo, hi] with lo <= hi");
      rule.range = std::make_pair(numbers[0], numbers[1]);
    } else {
      return fail(kv.getKey(), "unknown rule key '" + *key +
                                   "'; expected op, loc, in, policy, "
                                   "accumulate, range or when");
    }
  }
  if (!hasOp && !rule.hasSelector())
    return fail(node, "a rule needs an 'op' (an op name, 'dialect.*' or "
                      "'*'), a 'loc' or an 'in'");
  if (!rule.policy && !rule.accumulate && !rule.range)
    return fail(node, "a rule must set 'policy', 'accumulate' or 'range'");
  return success();
}

LogicalResult PolicyFileReader::read(std::vector<PolicyRule> &rules) {
  const llvm::MemoryBuffer *buffer = sm.getMemoryBuffer(sm.getMainFileID());
  llvm::yaml::Stream stream(buffer->getMemBufferRef(), sm,
                            /*ShowColors=*/false);
  llvm::yaml::document_iterator doc = stream.begin();
  if (doc == stream.end())
    return fail(SMLoc::getFromPointer(buffer->getBufferStart()),
                "empty policy file");
  llvm::yaml::Node *root = doc->getRoot();
  if (!error.empty() || stream.failed())
    return failure();
  auto *map = dyn_cast_if_present<llvm::yaml::MappingNode>(root);
  if (!map)
    return fail(root, "a policy file is a mapping with a 'rules' list");
  bool sawRules = false;
  for (llvm::yaml::KeyValueNode &kv : *map) {
    FailureOr<std::string> key = scalar(kv.getKey(), "a top-level key");
    if (failed(key))
      return failure();
    if (*key != "rules")
      return fail(kv.getKey(), "unknown key '" + *key + "'; expected 'rules'");
    auto *seq = dyn_cast_if_present<llvm::yaml::SequenceNode>(kv.getValue());
    if (!seq)
      return fail(kv.getValue(), "'rules' must be a list");
    sawRules = true;
    for (llvm::yaml::Node &ruleNode : *seq) {
      PolicyRule rule;
      if (failed(readRule(&ruleNode, rule)))
        return failure();
      rules.push_back(std::move(rule));
    }
  }
  if (!error.empty() || stream.failed())
    return failure();
  if (!sawRules)
    return fail(root, "a policy file needs a 'rules' list");
  return success();
}

LogicalResult PolicyTable::loadFile(StringRef path, std::string &errorMessage) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    errorMessage =
        (path + ": cannot read policy file: " + buffer.getError().message())
            .str();
    return failure();
  }
  return loadBuffer((*buffer)->getBuffer(), path, errorMessage);
}

LogicalResult PolicyTable::loadBuffer(StringRef text, StringRef name,
                                      std::string &errorMessage) {
  llvm::SourceMgr sm;
  // The YAML scanner reads up to a terminating NUL: give it a copy.
  sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name),
                        SMLoc());
  PolicyFileReader reader(name, sm);
  // Syntax errors come from the YAML scanner through the SourceMgr.
  sm.setDiagHandler(
      [](const llvm::SMDiagnostic &diag, void *context) {
        auto *r = static_cast<PolicyFileReader *>(context);
        if (r->error.empty())
          r->error = (diag.getFilename() + ":" + Twine(diag.getLineNo()) + ":" +
                      Twine(diag.getColumnNo() + 1) + ": " + diag.getMessage())
                         .str();
      },
      &reader);
  std::vector<PolicyRule> newRules;
  if (failed(reader.read(newRules))) {
    errorMessage = reader.error.empty()
                       ? (name + ": malformed policy file").str()
                       : reader.error;
    return failure();
  }
  for (PolicyRule &rule : newRules) {
    rules.push_back(std::move(rule));
    selectorMatched.push_back(std::make_unique<std::atomic<bool>>(false));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// resolvePolicy
//===----------------------------------------------------------------------===//

ResolvedPolicy mlir::amp::resolvePolicy(Operation *op,
                                        const AssignmentOptions &options,
                                        int64_t reductionSize) {
  ResolvedPolicy r;
  PrecisionAttr effective = getEffectivePrecision(op);
  r.lowType =
      effective && effective.getLow() ? effective.getLow() : options.lowType;

  // The category: the op's attribute, the nearest scope stating one, the
  // options and policy file.
  auto own =
      op->getAttrOfType<PrecisionAttr>(AmpDialect::getPrecisionAttrName());
  if (own && own.getPolicy()) {
    r.category = *own.getPolicyValue();
    r.source = PolicySource::OpAttribute;
    r.sourceText = "amp.precision";
    r.detail = "stated on the op";
  } else {
    for (Operation *p = op->getParentOp(); p && !r.category;
         p = p->getParentOp()) {
      auto scope =
          p->getAttrOfType<PrecisionAttr>(AmpDialect::getScopeAttrName());
      if (!scope || !scope.getPolicy())
        continue;
      r.category = *scope.getPolicyValue();
      r.source = PolicySource::Scope;
      r.sourceText =
          ("amp.scope on '" + p->getName().getStringRef() + "'").str();
      r.detail = "stated on an enclosing op";
    }
    if (!r.category && options.policy)
      if (auto user = options.policy->lookupPolicy(op)) {
        r.category = user->first;
        r.source = PolicySource::UserPolicy;
        r.sourceText = user->second;
        r.detail = "user policy";
      }
  }

  // The accumulator type, by the same precedence.
  auto f32 = Float32Type::get(op->getContext());
  if (effective && effective.getAccumulate()) {
    r.accType = effective.getAccumulate();
    return r;
  }
  AccumulateMode mode = options.accumulate;
  if (std::optional<AccumulateMode> fromFile =
          options.policy ? options.policy->lookupAccumulate(op) : std::nullopt)
    mode = *fromFile;
  else if (mode == AccumulateMode::F32 && options.accumulateMinSize > 0 &&
           !ShapedType::isDynamic(reductionSize) &&
           reductionSize < options.accumulateMinSize)
    mode = AccumulateMode::Low;
  r.accType = mode == AccumulateMode::F32 ? FloatType(f32) : r.lowType;
  return r;
}

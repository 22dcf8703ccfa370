//===- CalibratedRanges.cpp - Value ranges observed by running ------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/CalibratedRanges.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amp;

// Below these magnitudes a nonzero value is subnormal (or zero) in the type.
static constexpr double kF16SmallestNormal = 6.103515625e-05;   // 2^-14
static constexpr double kBF16SmallestNormal = 1.1754943508e-38; // 2^-126

void ObservedRange::observe(const float *data, uint64_t n) {
  count += n;
  for (uint64_t i = 0; i < n; ++i) {
    double v = data[i];
    if (!std::isfinite(v)) {
      ++nonfinite;
      continue;
    }
    min = std::min(min, v);
    max = std::max(max, v);
    double a = std::fabs(v);
    maxAbs = std::max(maxAbs, a);
    if (a == 0)
      continue;
    minNonzeroAbs = std::min(minNonzeroAbs, a);
    f16ZeroOrSubnormal += a < kF16SmallestNormal;
    bf16ZeroOrSubnormal += a < kBF16SmallestNormal;
  }
}

double ObservedRange::f16ZeroOrSubnormalFraction() const {
  return count ? double(f16ZeroOrSubnormal) / double(count) : 0;
}

double ObservedRange::bf16ZeroOrSubnormalFraction() const {
  return count ? double(bf16ZeroOrSubnormal) / double(count) : 0;
}

static bool isCalibratedType(Type type) {
  if (type.isF32())
    return true;
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getElementType().isF32();
}

void mlir::amp::forEachProgramResult(
    Operation *root, llvm::function_ref<void(uint64_t, OpResult)> fn) {
  uint64_t index = 0;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == root)
      return;
    uint64_t opIndex = index++;
    // Ops of a body their owner converts (a linalg op's scalar body) are not
    // values of the program: only functions and control flow hold those.
    for (Operation *parent = op->getParentOp(); parent && parent != root;
         parent = parent->getParentOp()) {
      if (isa<FunctionOpInterface>(parent))
        break;
      if (!isa<RegionBranchOpInterface>(parent))
        return;
    }
    for (OpResult result : op->getResults())
      fn(opIndex, result);
  });
}

void mlir::amp::forEachCalibratedValue(
    Operation *root, llvm::function_ref<void(uint64_t, OpResult)> fn) {
  forEachProgramResult(root, [&](uint64_t opIndex, OpResult result) {
    if (isCalibratedType(result.getType()))
      fn(opIndex, result);
  });
}

std::string mlir::amp::formatLocation(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("{0}:{1}:{2}",
                         llvm::sys::path::filename(file.getFilename()),
                         file.getLine(), file.getColumn())
        .str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (!fused.getLocations().empty())
      return formatLocation(fused.getLocations().front());
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return formatLocation(callSite.getCallee());
  if (isa<UnknownLoc>(loc))
    return "unknown";
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

ObservedRange mlir::amp::makeObservedRange(uint64_t opIndex, OpResult result) {
  ObservedRange range;
  range.opIndex = opIndex;
  range.resultNumber = result.getResultNumber();
  range.opName = result.getOwner()->getName().getStringRef().str();
  range.location = formatLocation(result.getOwner()->getLoc());
  return range;
}

/// JSON has no infinity: absent statistics are null.
static llvm::json::Value finiteOrNull(double v) {
  if (std::isfinite(v))
    return v;
  return nullptr;
}

llvm::Error mlir::amp::writeCalibratedRanges(llvm::StringRef path,
                                             const CalibratedRanges &ranges) {
  llvm::json::Array values;
  for (const ObservedRange &r : ranges.values) {
    bool seen = r.hasFiniteValues();
    values.push_back(llvm::json::Object{
        {"op", int64_t(r.opIndex)},
        {"result", int64_t(r.resultNumber)},
        {"name", r.opName},
        {"loc", r.location},
        {"count", int64_t(r.count)},
        {"min", seen ? finiteOrNull(r.min) : nullptr},
        {"max", seen ? finiteOrNull(r.max) : nullptr},
        {"max_abs", seen ? finiteOrNull(r.maxAbs) : nullptr},
        {"min_nonzero_abs", finiteOrNull(r.minNonzeroAbs)},
        {"f16_zero_or_subnormal", r.f16ZeroOrSubnormalFraction()},
        {"bf16_zero_or_subnormal", r.bf16ZeroOrSubnormalFraction()},
        {"nonfinite", int64_t(r.nonfinite)},
    });
  }
  llvm::json::Object file{{"amp_ranges_version", 1},
                          {"calls", int64_t(ranges.calls)},
                          {"values", std::move(values)}};
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return llvm::createStringError(ec, "cannot write '%s': %s",
                                   path.str().c_str(), ec.message().c_str());
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(file))) << "\n";
  return llvm::Error::success();
}

llvm::Expected<CalibratedRanges>
mlir::amp::readCalibratedRanges(llvm::StringRef path) {
  auto fail = [&](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   (path + ": " + message).str());
  };
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return fail("cannot read: " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse((*buffer)->getBuffer());
  if (!parsed)
    return fail("not JSON: " + llvm::toString(parsed.takeError()));
  const llvm::json::Object *file = parsed->getAsObject();
  if (!file)
    return fail("expected an object with \"amp_ranges_version\" and "
                "\"values\"");
  std::optional<int64_t> version = file->getInteger("amp_ranges_version");
  if (!version)
    return fail("no \"amp_ranges_version\" (not a file of amp-run "
                "--calibrate)");
  if (*version != 1)
    return fail("version " + llvm::Twine(*version) +
                " is not supported (this amp reads version 1)");
  CalibratedRanges ranges;
  ranges.calls = file->getInteger("calls").value_or(0);
  const llvm::json::Array *values = file->getArray("values");
  if (!values)
    return fail("no \"values\" array");
  for (auto [i, entry] : llvm::enumerate(*values)) {
    auto entryError = [&, i = i](const llvm::Twine &what) {
      return fail("value " + llvm::Twine(i) + ": " + what);
    };
    const llvm::json::Object *object = entry.getAsObject();
    if (!object)
      return entryError("expected an object");
    ObservedRange r;
    std::optional<int64_t> op = object->getInteger("op");
    std::optional<int64_t> result = object->getInteger("result");
    std::optional<llvm::StringRef> name = object->getString("name");
    std::optional<llvm::StringRef> loc = object->getString("loc");
    if (!op || *op < 0 || !result || *result < 0 || !name || !loc)
      return entryError("needs \"op\", \"result\" (non-negative integers), "
                        "\"name\" and \"loc\" (strings)");
    r.opIndex = *op;
    r.resultNumber = *result;
    r.opName = name->str();
    r.location = loc->str();
    std::optional<int64_t> count = object->getInteger("count");
    r.count = count && *count > 0 ? *count : 0;
    std::optional<int64_t> nonfinite = object->getInteger("nonfinite");
    r.nonfinite = nonfinite && *nonfinite > 0 ? *nonfinite : 0;
    // Statistics: a number, or null for "none observed".
    auto number = [&](llvm::StringRef key, double &into) -> llvm::Error {
      const llvm::json::Value *v = object->get(key);
      if (!v || v->getAsNull())
        return llvm::Error::success();
      std::optional<double> d = v->getAsNumber();
      if (!d || !std::isfinite(*d))
        return entryError("\"" + key + "\" must be a finite number or null");
      into = *d;
      return llvm::Error::success();
    };
    double f16Fraction = 0, bf16Fraction = 0;
    for (auto [key, into] :
         {std::pair<llvm::StringRef, double *>{"min", &r.min},
          {"max", &r.max},
          {"max_abs", &r.maxAbs},
          {"min_nonzero_abs", &r.minNonzeroAbs},
          {"f16_zero_or_subnormal", &f16Fraction},
          {"bf16_zero_or_subnormal", &bf16Fraction}})
      if (llvm::Error err = number(key, *into))
        return std::move(err);
    if (r.min > r.max && object->get("min") && !object->get("min")->getAsNull())
      return entryError("\"min\" is greater than \"max\"");
    if (f16Fraction < 0 || f16Fraction > 1 || bf16Fraction < 0 ||
        bf16Fraction > 1)
      return entryError("the zero-or-subnormal fractions must be in [0, 1]");
    r.maxAbs = std::max({r.maxAbs, r.hasFiniteValues() ? std::fabs(r.min) : 0,
                         r.hasFiniteValues() ? std::fabs(r.max) : 0});
    r.f16ZeroOrSubnormal = uint64_t(std::llround(f16Fraction * r.count));
    r.bf16ZeroOrSubnormal = uint64_t(std::llround(bf16Fraction * r.count));
    ranges.values.push_back(std::move(r));
  }
  return ranges;
}

llvm::Expected<llvm::DenseMap<Value, ObservedRange>>
mlir::amp::matchCalibratedRanges(Operation *root,
                                 const CalibratedRanges &ranges) {
  // The program's values by (op index, result number).
  llvm::DenseMap<std::pair<uint64_t, unsigned>, OpResult> program;
  forEachCalibratedValue(root, [&](uint64_t opIndex, OpResult result) {
    program[{opIndex, result.getResultNumber()}] = result;
  });
  llvm::DenseMap<Value, ObservedRange> matched;
  for (const ObservedRange &r : ranges.values) {
    auto describe = [&] {
      return llvm::formatv("entry for op {0} result {1} ('{2}' at {3})",
                           r.opIndex, r.resultNumber, r.opName, r.location)
          .str();
    };
    auto it = program.find({r.opIndex, r.resultNumber});
    if (it == program.end())
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "the ranges do not match this program: the " + describe() +
              " names no f32 result of the program");
    Operation *op = it->second.getOwner();
    std::string loc = formatLocation(op->getLoc());
    if (op->getName().getStringRef() != r.opName || loc != r.location)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "the ranges do not match this program: the " + describe() + " is '" +
              op->getName().getStringRef().str() + "' at " + loc +
              " in this program");
    matched[it->second] = r;
  }
  return matched;
}

//===- NonfiniteReport.cpp - Where a program first went inf or NaN --------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/NonfiniteReport.h"

#include "llvm/Support/Format.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

NonfiniteReport
mlir::amp::runtime::makeNonfiniteReport(const ProbedProgram &program,
                                        const ProbeRecorder &recorder,
                                        llvm::StringRef entry) {
  NonfiniteReport report;
  report.entry = entry.str();
  report.calls = recorder.getNumCalls();
  report.valuesObserved = llvm::count_if(
      recorder.getRanges(), [](const ObservedRange &r) { return r.count; });
  const auto &first = recorder.getFirstNonfinite();
  if (!first)
    return report;
  report.found = true;
  report.call = first->call;
  report.elements = first->elements;
  report.nonfinite = first->nonfinite;
  if (first->isArgument) {
    report.isArgument = true;
    report.argument = first->index;
    return report;
  }
  report.value = first->ranges[first->index];
  const ProbedOp &op = program.ops[program.siteOps[first->index]];
  llvm::ArrayRef<ObservedRange> arguments = recorder.getArgumentRanges();
  for (const auto &[number, source] : op.operands) {
    NonfiniteReport::Operand operand{number, source, "",          "",
                                     0,      0,      std::nullopt};
    if (source.kind == OperandSource::Probe) {
      const ObservedRange &range = first->ranges[source.index];
      operand.opName = range.opName;
      operand.location = range.location;
      operand.opIndex = range.opIndex;
      operand.resultNumber = range.resultNumber;
      if (range.count)
        operand.range = range;
    } else if (source.kind == OperandSource::EntryArgument &&
               source.index < arguments.size()) {
      operand.range = arguments[source.index];
    }
    report.operands.push_back(std::move(operand));
  }
  return report;
}

void mlir::amp::runtime::matchInF32Program(
    NonfiniteReport &report, const ProbedProgram &converted,
    const ProbedProgram &f32, llvm::ArrayRef<ObservedRange> f32Ranges,
    llvm::StringRef programName) {
  NonfiniteReport::F32 result;
  result.program = programName.str();
  report.f32 = result;
  if (!report.found || report.isArgument)
    return;
  // The f32 program has no roundings: for an arith.truncf (what amp inserts
  // to store a value low), look up the op whose result it rounds.
  struct Subject {
    std::string opName, location;
    uint64_t opIndex;
    unsigned resultNumber;
  } value{report.value.opName, report.value.location, report.value.opIndex,
          report.value.resultNumber};
  if (value.opName == "arith.truncf" && !report.operands.empty() &&
      report.operands.front().source.kind == OperandSource::Probe) {
    const NonfiniteReport::Operand &rounded = report.operands.front();
    value = {rounded.opName, rounded.location, rounded.opIndex,
             rounded.resultNumber};
    report.f32->roundedOp = rounded.opName + " at " + rounded.location;
  }

  // The op's rank among the converted program's ops of its name, and among
  // those of its name and location.
  unsigned byName = 0, byLocation = 0;
  for (const ProbedOp &op : converted.ops) {
    if (op.opIndex == value.opIndex)
      break;
    if (op.name == value.opName) {
      ++byName;
      byLocation += op.location == value.location;
    }
  }
  auto countNamed = [&](const ProbedProgram &program) {
    return llvm::count_if(program.ops, [&](const ProbedOp &op) {
      return op.name == value.opName;
    });
  };

  SmallVector<const ProbedOp *> atLocation, named;
  for (const ProbedOp &op : f32.ops) {
    if (op.name != value.opName)
      continue;
    named.push_back(&op);
    if (op.location == value.location)
      atLocation.push_back(&op);
  }
  const ProbedOp *match = nullptr;
  if (!atLocation.empty()) {
    match = atLocation[std::min<size_t>(byLocation, atLocation.size() - 1)];
    report.f32->match = NonfiniteReport::F32::Location;
  } else if (countNamed(converted) == countNamed(f32) &&
             byName < named.size()) {
    match = named[byName];
    report.f32->match = NonfiniteReport::F32::Position;
    report.f32->position = byName;
  }
  if (!match)
    return;
  for (uint64_t probe : match->results)
    if (f32.sites[probe].resultNumber == value.resultNumber) {
      report.f32->range = f32Ranges[probe];
      return;
    }
  report.f32->match = NonfiniteReport::F32::None;
}

/// "min A max B, K of N inf/nan".
static void printStatistics(llvm::raw_ostream &os, const ObservedRange &r) {
  if (r.hasFiniteValues())
    os << llvm::format("min %.6g max %.6g", r.min, r.max);
  else
    os << "no finite values";
  os << ", " << r.nonfinite << " of " << r.count << " inf/nan";
}

static const char *ordinalSuffix(unsigned n) {
  if (n % 100 >= 11 && n % 100 <= 13)
    return "th";
  switch (n % 10) {
  case 1:
    return "st";
  case 2:
    return "nd";
  case 3:
    return "rd";
  default:
    return "th";
  }
}

void mlir::amp::runtime::printNonfiniteReport(llvm::raw_ostream &os,
                                              const NonfiniteReport &report) {
  if (!report.found) {
    os << "no non-finite values (" << report.valuesObserved
       << " values observed over " << report.calls
       << (report.calls == 1 ? " call" : " calls") << ")\n";
    return;
  }
  std::string call =
      report.calls > 1 ? (", call " + llvm::Twine(report.call)).str() : "";
  if (report.isArgument) {
    os << "first non-finite: argument " << report.argument << " of @"
       << report.entry << " (" << report.nonfinite << " of " << report.elements
       << " elements inf/nan" << call << ")\n";
    return;
  }
  const ObservedRange &value = report.value;
  os << "first non-finite: " << value.opName << " at " << value.location
     << " (op " << value.opIndex << ", result " << value.resultNumber << ": "
     << report.nonfinite << " of " << report.elements << " elements inf/nan"
     << call << ")\n";
  for (const NonfiniteReport::Operand &operand : report.operands) {
    os << "  operand " << operand.number << ": ";
    switch (operand.source.kind) {
    case OperandSource::Probe:
      os << operand.opName << " at " << operand.location << " (op "
         << operand.opIndex << ", result " << operand.resultNumber << ")";
      break;
    case OperandSource::EntryArgument:
      os << "argument " << operand.source.index << " of @" << report.entry;
      break;
    case OperandSource::Unobserved:
      os << operand.source.description << "\n";
      continue;
    }
    if (operand.range) {
      os << ": ";
      printStatistics(os, *operand.range);
    } else {
      os << ": not computed yet";
    }
    os << "\n";
  }
  if (!report.f32)
    return;
  const NonfiniteReport::F32 &f32 = *report.f32;
  std::string subject = value.opName + " at " + value.location;
  if (!f32.roundedOp.empty()) {
    os << "  rounds the result of " << f32.roundedOp
       << " to a narrower type; the f32 program computes that op\n";
    subject = f32.roundedOp;
  }
  if (f32.match == NonfiniteReport::F32::None) {
    os << "  f32: no " << subject << " in '" << f32.program
       << "' (print converted programs with --mlir-print-debuginfo to keep "
          "the f32 program's locations)\n";
    return;
  }
  std::string how;
  if (f32.match == NonfiniteReport::F32::Position)
    how = (" (matched by position: the " + llvm::Twine(f32.position + 1) +
           ordinalSuffix(f32.position + 1) + " " +
           subject.substr(0, subject.find(" at ")) + "; the locations differ)")
              .str();
  const ObservedRange &r = f32.range;
  if (!r.count)
    os << "  f32: not computed there" << how << "\n";
  else if (r.nonfinite)
    os << "  f32: not finite there either (" << r.nonfinite << " of " << r.count
       << " elements inf/nan)" << how << "\n";
  else
    os << "  f32: finite there, max |x| = " << llvm::format("%.6g", r.maxAbs)
       << how << "\n";
}

static llvm::json::Value finiteOrNull(double v) {
  if (std::isfinite(v))
    return v;
  return nullptr;
}

static llvm::json::Object statistics(const ObservedRange &r) {
  bool seen = r.hasFiniteValues();
  return llvm::json::Object{
      {"count", int64_t(r.count)},
      {"nonfinite", int64_t(r.nonfinite)},
      {"min", seen ? finiteOrNull(r.min) : nullptr},
      {"max", seen ? finiteOrNull(r.max) : nullptr},
      {"max_abs", seen ? finiteOrNull(r.maxAbs) : nullptr}};
}

llvm::json::Value mlir::amp::runtime::toJSON(const NonfiniteReport &report) {
  llvm::json::Object object{
      {"found", report.found},
      {"entry", report.entry},
      {"calls", int64_t(report.calls)},
      {"values_observed", int64_t(report.valuesObserved)}};
  if (!report.found)
    return object;
  llvm::json::Object first{{"call", int64_t(report.call)},
                           {"elements", int64_t(report.elements)},
                           {"nonfinite", int64_t(report.nonfinite)}};
  if (report.isArgument) {
    first["kind"] = "argument";
    first["argument"] = int64_t(report.argument);
    object["first"] = std::move(first);
    return object;
  }
  first["kind"] = "op";
  first["op"] = int64_t(report.value.opIndex);
  first["name"] = report.value.opName;
  first["loc"] = report.value.location;
  first["result"] = int64_t(report.value.resultNumber);
  llvm::json::Array operands;
  for (const NonfiniteReport::Operand &operand : report.operands) {
    llvm::json::Object entry{{"operand", int64_t(operand.number)}};
    switch (operand.source.kind) {
    case OperandSource::Probe:
      entry["source"] = "op";
      entry["op"] = int64_t(operand.opIndex);
      entry["name"] = operand.opName;
      entry["loc"] = operand.location;
      entry["result"] = int64_t(operand.resultNumber);
      break;
    case OperandSource::EntryArgument:
      entry["source"] = "argument";
      entry["argument"] = int64_t(operand.source.index);
      break;
    case OperandSource::Unobserved:
      entry["source"] = "unobserved";
      entry["description"] = operand.source.description;
      break;
    }
    if (operand.range)
      for (auto &[key, value] : statistics(*operand.range))
        entry[key] = value;
    operands.push_back(std::move(entry));
  }
  first["operands"] = std::move(operands);
  object["first"] = std::move(first);
  if (report.f32) {
    const NonfiniteReport::F32 &f32 = *report.f32;
    llvm::json::Object match{{"program", f32.program}};
    match["match"] = f32.match == NonfiniteReport::F32::Location   ? "location"
                     : f32.match == NonfiniteReport::F32::Position ? "position"
                                                                   : "none";
    if (f32.match != NonfiniteReport::F32::None) {
      for (auto &[key, value] : statistics(f32.range))
        match[key] = value;
      match["finite"] = f32.range.count > 0 && f32.range.nonfinite == 0;
    }
    if (!f32.roundedOp.empty())
      match["rounded_op"] = f32.roundedOp;
    object["f32"] = std::move(match);
  }
  return object;
}

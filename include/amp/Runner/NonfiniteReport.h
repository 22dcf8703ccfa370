//===- NonfiniteReport.h - Where a program first went inf/NaN --*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What `amp-run --find-nonfinite` reports: the first value, in the order
// the program computed them, that held an infinity or a NaN -- an argument
// of the entry, or a result of an op -- with the ranges its float operands
// had until then, and, given the f32 program, what the same op computed
// there in f32. Printed as greppable lines:
//
//   first non-finite: math.exp at model.mlir:7:10 (op 4, result 0: 12 of 64
//   elements inf/nan)
//     operand 0: argument 0 of @main: min -14 max 14, 0 of 64 inf/nan
//     f32: finite there, max |x| = 1.2026e+06
//
// or `no non-finite values (...)`, and as JSON for scripts.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_NONFINITEREPORT_H
#define AMP_RUNTIME_NONFINITEREPORT_H

#include "amp/Runner/Probes.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace amp {
namespace runtime {

struct NonfiniteReport {
  std::string entry;
  uint64_t calls = 0;
  /// Values (probes) observed at least once.
  uint64_t valuesObserved = 0;

  /// Whether some value held inf or NaN; the rest is about the first one.
  bool found = false;
  /// An argument of the entry (`argument`), or a result of an op (`value`
  /// names it).
  bool isArgument = false;
  unsigned argument = 0;
  ObservedRange value;
  uint64_t call = 0;
  /// Elements of that observation, and how many were inf or NaN.
  uint64_t elements = 0, nonfinite = 0;

  struct Operand {
    unsigned number;
    OperandSource source;
    /// The op and result of a probe source.
    std::string opName, location;
    uint64_t opIndex = 0;
    unsigned resultNumber = 0;
    /// Statistics until the first non-finite observation; none when not
    /// observed.
    std::optional<ObservedRange> range;
  };
  std::vector<Operand> operands;

  /// The same op in the f32 program, if one was given.
  struct F32 {
    std::string program;
    enum Match { None, Location, Position } match = None;
    /// With Position: the op's rank among the ops of its name.
    unsigned position = 0;
    /// The f32 op's result over the whole f32 run.
    ObservedRange range;
    /// When the first non-finite value is a rounding (an arith.truncf amp
    /// inserted), the op whose result it rounds, which is what the f32
    /// program computes: "math.exp at model.mlir:7:10". Empty otherwise.
    std::string roundedOp;
  };
  std::optional<F32> f32;
};

/// The report of a run with probes (`program`) recorded by `recorder`.
NonfiniteReport makeNonfiniteReport(const ProbedProgram &program,
                                    const ProbeRecorder &recorder,
                                    llvm::StringRef entry);

/// Looks up the op the report names in the f32 program (named
/// `programName`) that was run with probes -- for a rounding (arith.truncf),
/// the op whose result it rounds -- : the op of the same name at the
/// same location (the k-th of them if the converted program has several),
/// or, when no op is at that location, the op of the same name at the same
/// rank among the ops of that name, provided both programs have the same
/// number of them.
void matchInF32Program(NonfiniteReport &report, const ProbedProgram &converted,
                       const ProbedProgram &f32,
                       llvm::ArrayRef<ObservedRange> f32Ranges,
                       llvm::StringRef programName);

void printNonfiniteReport(llvm::raw_ostream &os, const NonfiniteReport &report);
llvm::json::Value toJSON(const NonfiniteReport &report);

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNTIME_NONFINITEREPORT_H

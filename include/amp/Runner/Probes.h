//===- Probes.h - Observing a program's float values as it runs -*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `amp-run --calibrate` and `--find-nonfinite` watch every float value of
// the program on the CPU backend. Before lowering, insertProbes puts after
// each op a call that hands its float results to the host:
//
//   %0 = math.exp %x : tensor<4x8xf32>
//   %id = arith.constant 7 : i64
//   %u = tensor.cast %0 : tensor<4x8xf32> to tensor<*xf32>
//   func.call @ampProbeF32(%id, %u) : (i64, tensor<*xf32>) -> ()
//
// with the callees declared `llvm.emit_c_interface` (so that, bufferized,
// they become `_mlir_ciface_ampProbeF32(int64_t, UnrankedMemRefType *)`,
// as printMemrefF32 of MLIR's runner utils does) and their tensor argument
// `bufferization.access = "read"` (so that one-shot bufferization passes
// the value's own buffer, without a copy). Scalars go to
// `ampProbeScalar(i64, f32)`, f16 and bf16 ones widened exactly.
//
// The values probed are those forEachCalibratedValue visits (op results in
// functions and in the bodies of control flow such as scf.for, scf.if and
// scf.while, not in a linalg op's scalar body), numbered as the ranges file
// numbers them; results with undefined contents (tensor.empty) are left
// out. A ProbeRecorder, while installed, turns each call into statistics
// (ObservedRange::observe), walking strided buffers and widening f16 and
// bf16.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_PROBES_H
#define AMP_RUNTIME_PROBES_H

#include "amp/Analysis/CalibratedRanges.h"
#include "amp/Runner/ElementType.h"
#include "amp/Runner/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
namespace amp {
namespace runtime {

struct ProbeOptions {
  /// Also probe f16 and bf16 results (finding where a converted program
  /// overflows); otherwise only f32 ones (calibration).
  bool lowPrecision = false;
  /// The function that will be called: operands that are its arguments are
  /// described as such.
  std::string entry;
};

/// Where a float operand of a probed op comes from.
struct OperandSource {
  enum Kind {
    /// The result of a probed op: `index` is its probe.
    Probe,
    /// An argument of the entry function: `index` is its position.
    EntryArgument,
    /// Anything else (a loop's block argument, an argument of a callee, the
    /// result of an unprobed op): `description` says what.
    Unobserved,
  };
  Kind kind;
  uint64_t index = 0;
  std::string description;
};

/// An op with probed results, as known before lowering.
struct ProbedOp {
  uint64_t opIndex;
  std::string name;
  std::string location;
  /// The probes of its results, in result order.
  llvm::SmallVector<uint64_t, 1> results;
  /// Its float operands, in operand order (with their operand numbers).
  llvm::SmallVector<std::pair<unsigned, OperandSource>> operands;
};

/// What insertProbes put in: the probe with id `i` observes
/// `sites[i]` (statistics empty), of element type `kinds[i]`.
struct ProbedProgram {
  std::vector<ObservedRange> sites;
  std::vector<ElementKind> kinds;
  /// The probe's op, an index into `ops`.
  std::vector<size_t> siteOps;
  std::vector<ProbedOp> ops;
};

/// Inserts a probe after every op of `module` (as parsed: before
/// prepareEntry, which erases functions and would change the op numbering)
/// with float results calibration observes, and declares the probe
/// functions. Fails, with a diagnostic, if the module already defines a
/// symbol of one of their names.
FailureOr<ProbedProgram> insertProbes(ModuleOp module,
                                      const ProbeOptions &options);

/// After lowering: removes the `bufferization.access` hints from the probe
/// functions' declarations (translation to LLVM IR warns about them).
void removeProbeBufferizationHints(ModuleOp module);

/// The addresses of the probe functions the lowered program calls, for the
/// ExecutionEngine's symbol map.
llvm::SmallVector<std::pair<std::string, void *>> getProbeSymbols();

/// Statistics of every probe, accumulated over the calls made while it is
/// installed; and the moment the first non-finite element was seen.
class ProbeRecorder {
public:
  explicit ProbeRecorder(const ProbedProgram &program);
  ~ProbeRecorder();
  ProbeRecorder(const ProbeRecorder &) = delete;
  ProbeRecorder &operator=(const ProbeRecorder &) = delete;

  /// Makes this recorder the one the probe functions report to (one at a
  /// time in a process), until uninstall() or destruction.
  void install();
  void uninstall();

  /// Counts a call of the program (the ranges file's `calls`).
  void countCall() { ++calls; }
  /// Observes the entry's arguments of the call about to be made (until a
  /// first non-finite element has been seen: then they stay as they were).
  void observeArguments(llvm::ArrayRef<HostTensor> arguments);

  const std::vector<ObservedRange> &getRanges() const { return ranges; }
  const std::vector<ObservedRange> &getArgumentRanges() const {
    return argumentRanges;
  }
  uint64_t getNumCalls() const { return calls; }

  /// The first non-finite element seen at run time: in an argument of the
  /// entry, or in the value of a probe (`index` is the argument's position
  /// or the probe); the call it happened in (0-based); how many of the
  /// elements of that observation were inf or NaN; and every probe's
  /// statistics as they were right after it.
  struct FirstNonfinite {
    bool isArgument;
    uint64_t index;
    uint64_t call;
    uint64_t elements, nonfinite;
    std::vector<ObservedRange> ranges;
  };
  const std::optional<FirstNonfinite> &getFirstNonfinite() const {
    return firstNonfinite;
  }

  /// Called by the probe functions: `data` is the element at offset 0 of a
  /// buffer with `sizes` and `strides` (in elements) of element kind `kind`.
  void observe(uint64_t probe, ElementKind kind, const void *data,
               llvm::ArrayRef<int64_t> sizes, llvm::ArrayRef<int64_t> strides);
  void observeScalar(uint64_t probe, float value);

private:
  struct Totals {
    uint64_t count, nonfinite;
  };
  /// Notes the first non-finite observation, once `range` has taken it in
  /// whole (`before`: its totals until then).
  void noteObservation(bool isArgument, uint64_t index, Totals before,
                       const ObservedRange &range);

  std::vector<ObservedRange> ranges;
  std::vector<ObservedRange> argumentRanges;
  uint64_t calls = 0;
  std::optional<FirstNonfinite> firstNonfinite;
  /// Widened f16/bf16 or gathered strided elements, observed in chunks.
  std::vector<float> scratch;
};

/// The statistics of a host array (an entry argument) as a probe would
/// have them; integer arrays give empty statistics.
ObservedRange observeHostTensor(const HostTensor &tensor);

} // namespace runtime
} // namespace amp
} // namespace mlir

#endif // AMP_RUNTIME_PROBES_H

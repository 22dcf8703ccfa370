//===- Probes.cpp - Observing a program's float values as it runs ---------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Probes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

// The probe functions, as the program declares them and as the host
// defines them (the tensor ones through their C interface wrappers).
static constexpr llvm::StringLiteral kProbeF32 = "ampProbeF32";
static constexpr llvm::StringLiteral kProbeF16 = "ampProbeF16";
static constexpr llvm::StringLiteral kProbeBF16 = "ampProbeBF16";
static constexpr llvm::StringLiteral kProbeScalar = "ampProbeScalar";

//===----------------------------------------------------------------------===//
// Insertion
//===----------------------------------------------------------------------===//

static bool isLowPrecisionFloat(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    type = tensor.getElementType();
  return type.isF16() || type.isBF16();
}

/// f16 and bf16 results under the rule by which forEachCalibratedValue
/// visits f32 ones (the same op numbering).
static void
forEachLowPrecisionValue(Operation *root,
                         llvm::function_ref<void(uint64_t, OpResult)> fn) {
  forEachProgramResult(root, [&](uint64_t opIndex, OpResult result) {
    if (isLowPrecisionFloat(result.getType()))
      fn(opIndex, result);
  });
}

/// Results whose contents are undefined: observing them would read
/// uninitialised memory (and make a buffer exist that bufferization would
/// otherwise never allocate).
static bool hasUndefinedContents(Operation *op) {
  if (isa<tensor::EmptyOp>(op))
    return true;
  if (auto alloc = dyn_cast<bufferization::AllocTensorOp>(op))
    return !alloc.getCopy();
  return false;
}

static bool isFloatValue(Value value) {
  Type type = value.getType();
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  return isa<FloatType>(type);
}

/// What a float operand that no probe observes is.
static std::string describeUnobserved(Value value) {
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    Operation *owner = argument.getOwner()->getParentOp();
    if (auto function = dyn_cast_or_null<FunctionOpInterface>(owner))
      return llvm::formatv("argument {0} of @{1} (not observed)",
                           argument.getArgNumber(), function.getName())
          .str();
    return llvm::formatv("block argument {0} of {1} at {2} (not observed)",
                         argument.getArgNumber(),
                         owner ? owner->getName().getStringRef() : "?",
                         owner ? formatLocation(owner->getLoc()) : "?")
        .str();
  }
  Operation *op = value.getDefiningOp();
  return llvm::formatv("result {0} of {1} at {2} (not observed)",
                       cast<OpResult>(value).getResultNumber(),
                       op->getName().getStringRef(),
                       formatLocation(op->getLoc()))
      .str();
}

/// Declares `name(i64, tensor<*xT>)` with the C interface, its tensor only
/// read, or `name(i64, f32)` for scalars.
static func::FuncOp declareProbe(OpBuilder &builder, Location loc,
                                 StringRef name, Type elementType) {
  MLIRContext *context = builder.getContext();
  Type i64 = builder.getI64Type();
  Type value = elementType ? Type(UnrankedTensorType::get(elementType))
                           : builder.getF32Type();
  auto function = func::FuncOp::create(
      builder, loc, name, builder.getFunctionType({i64, value}, {}));
  function.setPrivate();
  if (elementType) {
    function->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                      UnitAttr::get(context));
    function.setArgAttr(
        1, bufferization::BufferizationDialect::kBufferAccessAttrName,
        builder.getStringAttr("read"));
  }
  return function;
}

FailureOr<ProbedProgram>
mlir::amp::runtime::insertProbes(ModuleOp module, const ProbeOptions &options) {
  for (StringRef name : {kProbeF32, kProbeF16, kProbeBF16, kProbeScalar})
    if (Operation *symbol = SymbolTable::lookupSymbolIn(module, name))
      return emitError(symbol->getLoc())
             << "the program defines '" << name
             << "', a name amp-run's probes need for themselves";

  // The probes' ops, in a program that may have used none of them.
  module.getContext()
      ->loadDialect<arith::ArithDialect, func::FuncDialect,
                    tensor::TensorDialect>();

  // Every value to observe, in op order, numbered before anything changes.
  SmallVector<std::pair<uint64_t, OpResult>> values;
  auto collect = [&](uint64_t opIndex, OpResult result) {
    if (!hasUndefinedContents(result.getOwner()))
      values.push_back({opIndex, result});
  };
  forEachCalibratedValue(module, collect);
  if (options.lowPrecision)
    forEachLowPrecisionValue(module, collect);
  llvm::stable_sort(values, [](const auto &a, const auto &b) {
    return std::make_pair(a.first, a.second.getResultNumber()) <
           std::make_pair(b.first, b.second.getResultNumber());
  });

  ProbedProgram program;
  llvm::DenseMap<Value, uint64_t> probeOf;
  llvm::DenseMap<Operation *, size_t> opOf;
  for (auto [opIndex, result] : values) {
    Operation *op = result.getOwner();
    auto [it, inserted] = opOf.try_emplace(op, program.ops.size());
    if (inserted)
      program.ops.push_back({opIndex,
                             op->getName().getStringRef().str(),
                             formatLocation(op->getLoc()),
                             {},
                             {}});
    uint64_t id = program.sites.size();
    probeOf[result] = id;
    program.sites.push_back(makeObservedRange(opIndex, result));
    Type element = getElementTypeOrSelf(result.getType());
    program.kinds.push_back(element.isF16()    ? ElementKind::F16
                            : element.isBF16() ? ElementKind::BF16
                                               : ElementKind::F32);
    program.siteOps.push_back(it->second);
    program.ops[it->second].results.push_back(id);
  }

  // Where each float operand comes from.
  auto entry = dyn_cast_or_null<func::FuncOp>(
      SymbolTable::lookupSymbolIn(module, options.entry));
  Block *entryBlock =
      entry && !entry.isDeclaration() ? &entry.getBody().front() : nullptr;
  for (auto [op, index] : opOf) {
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      if (!isFloatValue(value))
        continue;
      OperandSource source{OperandSource::Unobserved, 0, ""};
      auto argument = dyn_cast<BlockArgument>(value);
      if (auto probe = probeOf.find(value); probe != probeOf.end())
        source = {OperandSource::Probe, probe->second, ""};
      else if (argument && argument.getOwner() == entryBlock)
        source = {OperandSource::EntryArgument, argument.getArgNumber(), ""};
      else
        source.description = describeUnobserved(value);
      program.ops[index].operands.push_back(
          {operand.getOperandNumber(), std::move(source)});
    }
  }

  // The probe functions, declared where the program uses them.
  OpBuilder builder(module.getContext());
  builder.setInsertionPointToStart(module.getBody());
  llvm::StringMap<func::FuncOp> callees;
  auto callee = [&](StringRef name, Type elementType) {
    func::FuncOp &function = callees[name];
    if (!function) {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(module.getBody());
      function = declareProbe(builder, module.getLoc(), name, elementType);
    }
    return function;
  };

  // The calls, right after each op, one per observed result.
  Operation *previous = nullptr;
  for (auto [id, value] : llvm::enumerate(values)) {
    OpResult result = value.second;
    Operation *op = result.getOwner();
    if (op != previous)
      builder.setInsertionPointAfter(op);
    previous = op;
    Location loc = op->getLoc();
    Value probe =
        arith::ConstantOp::create(builder, loc, builder.getI64IntegerAttr(id));
    Type element = getElementTypeOrSelf(result.getType());
    if (auto tensor = dyn_cast<RankedTensorType>(result.getType())) {
      StringRef name = element.isF16()    ? kProbeF16
                       : element.isBF16() ? kProbeBF16
                                          : kProbeF32;
      Value unranked = tensor::CastOp::create(
          builder, loc, UnrankedTensorType::get(element), result);
      func::CallOp::create(builder, loc, callee(name, element),
                           ValueRange{probe, unranked});
      continue;
    }
    Value scalar = result;
    if (!element.isF32())
      scalar =
          arith::ExtFOp::create(builder, loc, builder.getF32Type(), result);
    func::CallOp::create(builder, loc, callee(kProbeScalar, Type()),
                         ValueRange{probe, scalar});
  }
  return program;
}

void mlir::amp::runtime::removeProbeBufferizationHints(ModuleOp module) {
  for (auto function : module.getOps<FunctionOpInterface>()) {
    StringRef name = function.getName();
    name.consume_front("_mlir_ciface_");
    if (!llvm::is_contained({kProbeF32, kProbeF16, kProbeBF16}, name))
      continue;
    for (unsigned i = 0, e = function.getNumArguments(); i < e; ++i)
      function.removeArgAttr(
          i, bufferization::BufferizationDialect::kBufferAccessAttrName);
  }
}

//===----------------------------------------------------------------------===//
// Recording
//===----------------------------------------------------------------------===//

/// The recorder the probe functions report to (amp-run calls the program
/// on one thread).
static ProbeRecorder *activeRecorder = nullptr;

ProbeRecorder::ProbeRecorder(const ProbedProgram &program)
    : ranges(program.sites) {}

ProbeRecorder::~ProbeRecorder() { uninstall(); }

void ProbeRecorder::install() { activeRecorder = this; }

void ProbeRecorder::uninstall() {
  if (activeRecorder == this)
    activeRecorder = nullptr;
}

void ProbeRecorder::noteObservation(bool isArgument, uint64_t index,
                                    Totals before, const ObservedRange &range) {
  if (firstNonfinite || range.nonfinite == before.nonfinite)
    return;
  firstNonfinite = FirstNonfinite{isArgument,
                                  index,
                                  calls,
                                  range.count - before.count,
                                  range.nonfinite - before.nonfinite,
                                  ranges};
}

void ProbeRecorder::observeScalar(uint64_t probe, float value) {
  if (probe >= ranges.size())
    return;
  Totals before{ranges[probe].count, ranges[probe].nonfinite};
  ranges[probe].observe(&value, 1);
  noteObservation(/*isArgument=*/false, probe, before, ranges[probe]);
}

void ProbeRecorder::observeArguments(llvm::ArrayRef<HostTensor> arguments) {
  if (firstNonfinite)
    return;
  argumentRanges.resize(std::max(argumentRanges.size(), arguments.size()));
  for (auto [i, argument] : llvm::enumerate(arguments)) {
    Totals before{argumentRanges[i].count, argumentRanges[i].nonfinite};
    ObservedRange observed = observeHostTensor(argument);
    ObservedRange &range = argumentRanges[i];
    range.count += observed.count;
    range.nonfinite += observed.nonfinite;
    range.min = std::min(range.min, observed.min);
    range.max = std::max(range.max, observed.max);
    range.maxAbs = std::max(range.maxAbs, observed.maxAbs);
    range.minNonzeroAbs = std::min(range.minNonzeroAbs, observed.minNonzeroAbs);
    range.f16ZeroOrSubnormal += observed.f16ZeroOrSubnormal;
    range.bf16ZeroOrSubnormal += observed.bf16ZeroOrSubnormal;
    noteObservation(/*isArgument=*/true, i, before, range);
  }
}

static float loadAsFloat(ElementKind kind, const uint8_t *address) {
  uint16_t bits;
  switch (kind) {
  case ElementKind::F16:
    std::memcpy(&bits, address, 2);
    return halfToFloat(bits);
  case ElementKind::BF16:
    std::memcpy(&bits, address, 2);
    return bfloat16ToFloat(bits);
  default: {
    float value;
    std::memcpy(&value, address, 4);
    return value;
  }
  }
}

void ProbeRecorder::observe(uint64_t probe, ElementKind kind, const void *data,
                            llvm::ArrayRef<int64_t> sizes,
                            llvm::ArrayRef<int64_t> strides) {
  if (probe >= ranges.size())
    return;
  int64_t count = 1;
  for (int64_t size : sizes)
    count *= size;
  if (count <= 0)
    return;
  size_t rank = sizes.size();
  bool dense = true;
  for (int64_t d = rank - 1, expected = 1; d >= 0; --d) {
    if (sizes[d] != 1 && strides[d] != expected)
      dense = false;
    expected *= sizes[d];
  }
  ObservedRange &range = ranges[probe];
  Totals before{range.count, range.nonfinite};
  if (dense && kind == ElementKind::F32) {
    range.observe(static_cast<const float *>(data), count);
    noteObservation(/*isArgument=*/false, probe, before, range);
    return;
  }

  // Widened and gathered into chunks: every element is visited once, in
  // row-major order of its indices, at the offset its strides give.
  unsigned width = getElementByteWidth(kind);
  auto *base = static_cast<const uint8_t *>(data);
  constexpr size_t kChunk = 4096;
  scratch.resize(kChunk);
  size_t filled = 0;
  llvm::SmallVector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d)
      offset += index[d] * strides[d];
    scratch[filled++] = loadAsFloat(kind, base + offset * width);
    if (filled == kChunk) {
      range.observe(scratch.data(), filled);
      filled = 0;
    }
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
  if (filled)
    range.observe(scratch.data(), filled);
  noteObservation(/*isArgument=*/false, probe, before, range);
}

ObservedRange mlir::amp::runtime::observeHostTensor(const HostTensor &tensor) {
  ObservedRange range;
  if (!isFloatKind(tensor.getElementKind()))
    return range;
  std::vector<float> values(tensor.getNumElements());
  for (int64_t i = 0, e = values.size(); i < e; ++i)
    values[i] = float(tensor.getAsDouble(i));
  range.observe(values.data(), values.size());
  return range;
}

//===----------------------------------------------------------------------===//
// The functions the lowered program calls
//===----------------------------------------------------------------------===//

namespace {
/// MLIR's unranked memref descriptor: the rank and a pointer to the ranked
/// descriptor (allocated and aligned pointers, offset, sizes, strides).
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};
} // namespace

static void observeMemRef(ElementKind kind, int64_t probe,
                          const UnrankedMemRef *memref) {
  if (!activeRecorder || !memref || probe < 0)
    return;
  const auto *fields = static_cast<const int64_t *>(memref->descriptor);
  const uint8_t *aligned;
  std::memcpy(&aligned, &fields[1], sizeof(aligned));
  int64_t offset = fields[2];
  llvm::ArrayRef<int64_t> sizes(fields + 3, memref->rank);
  llvm::ArrayRef<int64_t> strides(fields + 3 + memref->rank, memref->rank);
  activeRecorder->observe(uint64_t(probe), kind,
                          aligned + offset * getElementByteWidth(kind), sizes,
                          strides);
}

static void probeF32(int64_t probe, const UnrankedMemRef *memref) {
  observeMemRef(ElementKind::F32, probe, memref);
}
static void probeF16(int64_t probe, const UnrankedMemRef *memref) {
  observeMemRef(ElementKind::F16, probe, memref);
}
static void probeBF16(int64_t probe, const UnrankedMemRef *memref) {
  observeMemRef(ElementKind::BF16, probe, memref);
}
static void probeScalar(int64_t probe, float value) {
  if (activeRecorder && probe >= 0)
    activeRecorder->observeScalar(uint64_t(probe), value);
}

llvm::SmallVector<std::pair<std::string, void *>>
mlir::amp::runtime::getProbeSymbols() {
  return {
      {"_mlir_ciface_" + kProbeF32.str(), reinterpret_cast<void *>(probeF32)},
      {"_mlir_ciface_" + kProbeF16.str(), reinterpret_cast<void *>(probeF16)},
      {"_mlir_ciface_" + kProbeBF16.str(), reinterpret_cast<void *>(probeBF16)},
      {kProbeScalar.str(), reinterpret_cast<void *>(probeScalar)},
  };
}

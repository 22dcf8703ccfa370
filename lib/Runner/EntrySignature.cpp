//===- EntrySignature.cpp - What the entry function exchanges -------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/EntrySignature.h"
#include "amp/Runner/Npy.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"

#include <unistd.h>

using namespace mlir;
using namespace mlir::amp::runtime;

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

bool ValueSpec::hasStaticShape() const {
  return llvm::none_of(shape, ShapedType::isDynamic);
}

std::string ValueSpec::describe(llvm::StringRef role, unsigned index) const {
  return (role + " " + llvm::Twine(index) + " (" + typeString + ")").str();
}

/// The spec of `type`, or nothing when amp-run cannot exchange it.
static std::optional<ValueSpec> getValueSpec(Type type) {
  ValueSpec spec;
  spec.typeString = printType(type);
  Type elementType = type;
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (tensor.getEncoding())
      return std::nullopt;
    elementType = tensor.getElementType();
    spec.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  } else if (auto memref = dyn_cast<MemRefType>(type)) {
    if (!memref.getLayout().isIdentity() || memref.getMemorySpace())
      return std::nullopt;
    elementType = memref.getElementType();
    spec.shape.assign(memref.getShape().begin(), memref.getShape().end());
  } else {
    spec.isScalar = true;
  }
  std::optional<ElementKind> kind = getElementKind(elementType);
  if (!kind)
    return std::nullopt;
  spec.kind = *kind;
  return spec;
}

static constexpr llvm::StringLiteral kSupported =
    "amp-run exchanges ranked tensors, identity-layout memrefs and scalars "
    "of f16, bf16, f32, f64, i32, i64 and index";

/// The bytes a value of `spec` takes, or nullopt when the count overflows.
static std::optional<uint64_t> getByteSize(const ValueSpec &spec) {
  uint64_t bytes = getElementByteWidth(spec.kind);
  for (int64_t size : spec.shape) {
    if (ShapedType::isDynamic(size))
      continue;
    if (size != 0 && bytes > UINT64_MAX / static_cast<uint64_t>(size))
      return std::nullopt;
    bytes *= static_cast<uint64_t>(size);
  }
  return bytes;
}

/// This machine's memory in bytes (0 when unknown).
static uint64_t getPhysicalMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && pageSize > 0
             ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize)
             : 0;
}

/// An error when a value of `spec` cannot fit in this machine's memory (a
/// static shape of 1e15 elements would otherwise abort in the allocation).
static llvm::Error checkFitsInMemory(const ValueSpec &spec,
                                     llvm::StringRef role, unsigned index,
                                     llvm::StringRef function) {
  std::optional<uint64_t> bytes = getByteSize(spec);
  uint64_t memory = getPhysicalMemory();
  if (bytes && (!memory || *bytes <= memory))
    return llvm::Error::success();
  return fail("@" + function + " " + role + " " + llvm::Twine(index) + " (" +
              spec.typeString + ") needs " +
              (bytes ? llvm::Twine(*bytes) + " bytes"
                     : llvm::Twine("more than 2^64 bytes")) +
              ", more than this machine's memory (" + llvm::Twine(memory) +
              " bytes)");
}

llvm::Expected<EntrySignature>
mlir::amp::runtime::readEntrySignature(ModuleOp module, llvm::StringRef name) {
  auto function =
      dyn_cast_or_null<func::FuncOp>(SymbolTable::lookupSymbolIn(module, name));
  if (!function) {
    std::string available;
    for (auto candidate : module.getOps<func::FuncOp>())
      if (!candidate.isDeclaration())
        available +=
            (available.empty() ? " @" : ", @") + candidate.getSymName().str();
    return fail(
        "no function @" + name + " in the module" +
        (available.empty() ? std::string() : "; functions:" + available));
  }
  if (function.isDeclaration())
    return fail("@" + name + " is a declaration without a body");

  EntrySignature signature;
  signature.name = name.str();
  FunctionType type = function.getFunctionType();
  for (auto [i, input] : llvm::enumerate(type.getInputs())) {
    std::optional<ValueSpec> spec = getValueSpec(input);
    if (!spec)
      return fail("@" + name + " argument " + llvm::Twine(i) + " has type " +
                  printType(input) + ", which is not supported (" + kSupported +
                  ")");
    if (llvm::Error error = checkFitsInMemory(*spec, "argument", i, name))
      return std::move(error);
    signature.arguments.push_back(std::move(*spec));
  }
  for (auto [i, output] : llvm::enumerate(type.getResults())) {
    std::optional<ValueSpec> spec = getValueSpec(output);
    if (!spec)
      return fail("@" + name + " result " + llvm::Twine(i) + " has type " +
                  printType(output) + ", which is not supported (" +
                  kSupported + ")");
    if (llvm::Error error = checkFitsInMemory(*spec, "result", i, name))
      return std::move(error);
    signature.results.push_back(std::move(*spec));
  }
  return signature;
}

llvm::Error mlir::amp::runtime::checkArgument(const EntrySignature &signature,
                                              unsigned index,
                                              const HostTensor &tensor,
                                              llvm::StringRef source) {
  const ValueSpec &spec = signature.arguments[index];
  std::string what =
      "@" + signature.name + " " + spec.describe("argument", index);
  if (tensor.getElementKind() != spec.kind)
    return fail(what + ": '" + source + "' holds " +
                describeNpyDtype(tensor.getElementKind()) + " data, expected " +
                describeNpyDtype(spec.kind));
  if (tensor.getRank() != int64_t(spec.shape.size()))
    return fail(what + ": '" + source + "' has shape (" +
                formatShape(tensor.getShape()) + "), rank " +
                llvm::Twine(tensor.getRank()) + ", expected rank " +
                llvm::Twine(spec.shape.size()));
  for (auto [actual, expected] : llvm::zip(tensor.getShape(), spec.shape))
    if (!ShapedType::isDynamic(expected) && actual != expected)
      return fail(what + ": '" + source + "' has shape (" +
                  formatShape(tensor.getShape()) + "), expected (" +
                  formatShape(spec.shape) + ")");
  return llvm::Error::success();
}

llvm::Expected<HostTensor>
mlir::amp::runtime::matchArgument(const EntrySignature &signature,
                                  unsigned index, HostTensor tensor,
                                  bool castFloats, llvm::StringRef source) {
  ElementKind expected = signature.arguments[index].kind;
  bool convertible = tensor.getElementKind() != expected &&
                     isFloatKind(tensor.getElementKind()) &&
                     isFloatKind(expected);
  if (castFloats && convertible)
    tensor = tensor.convertTo(expected);
  if (llvm::Error err = checkArgument(signature, index, tensor, source)) {
    bool hint = convertible && !castFloats;
    return fail(toString(std::move(err)) +
                (hint ? " (--cast-inputs converts it)" : ""));
  }
  return std::move(tensor);
}

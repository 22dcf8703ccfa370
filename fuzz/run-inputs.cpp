//===- run-inputs.cpp - Fuzz target: amp-run's argument files -------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What amp-run does with an --input file: read it as .npy, convert its
// floats with --cast-inputs, and match it to an argument of the entry
// function (element type, rank, static sizes). The first byte picks the
// argument and whether floats are cast; the rest is the file. An input that
// matches has exactly the argument's type; any other gives an error.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "amp/Runner/EntrySignature.h"
#include "amp/Runner/Npy.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace mlir::amp::runtime;

static constexpr const char *kProgram = R"mlir(
func.func @entry(%a: tensor<2x3xf32>, %b: tensor<?x4xf16>, %c: tensor<bf16>,
                 %d: tensor<3xi32>, %e: memref<2x2xf64>, %f: i64,
                 %g: tensor<0x5xf32>, %h: f32)
    -> tensor<2x3xf32> {
  return %a : tensor<2x3xf32>
}
)mlir";

/// The entry function's signature, read once.
static const EntrySignature &getSignature() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    registry.insert<func::FuncDialect, memref::MemRefDialect>();
    return new MLIRContext(registry);
  }();
  static EntrySignature signature = [] {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(kProgram, context);
    AMP_FUZZ_CHECK(module);
    auto read = readEntrySignature(*module, "entry");
    AMP_FUZZ_CHECK(static_cast<bool>(read));
    return std::move(*read);
  }();
  return signature;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const EntrySignature &signature = getSignature();
  if (size == 0)
    return 0;
  unsigned index = (data[0] & 0x7f) % signature.arguments.size();
  bool cast = data[0] & 0x80;
  llvm::StringRef bytes(reinterpret_cast<const char *>(data + 1), size - 1);
  auto tensor = parseNpy(bytes, "input.npy");
  if (!tensor) {
    llvm::consumeError(tensor.takeError());
    return 0;
  }
  auto matched =
      matchArgument(signature, index, std::move(*tensor), cast, "input.npy");
  if (!matched) {
    llvm::consumeError(matched.takeError());
    return 0;
  }
  const ValueSpec &argument = signature.arguments[index];
  AMP_FUZZ_CHECK(matched->getElementKind() == argument.kind);
  AMP_FUZZ_CHECK(matched->getRank() == int64_t(argument.shape.size()));
  for (auto [size, expected] : llvm::zip(matched->getShape(), argument.shape))
    AMP_FUZZ_CHECK(ShapedType::isDynamic(expected) || size == expected);
  return 0;
}

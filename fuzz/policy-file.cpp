//===- policy-file.cpp - Fuzz target: the policy-file reader
//---------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Any text given as a policy file (`mixed-precision{policy-file=...}`, JSON
// or YAML) is read into rules or refused with a message that names the
// file, never a crash. The rules read are then matched against every op of
// a small program (names, patterns, location and region selectors,
// attribute and size conditions).
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "amp/Analysis/Policy.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;

static constexpr const char *kProgram = R"mlir(
func.func @f(%a: tensor<4x300xf32>, %b: tensor<300x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<4x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x300xf32>, tensor<300x8xf32>) outs(%fill : tensor<4x8xf32>) -> tensor<4x8xf32> loc("p2o.MatMul.1"("model.mlir":5:3))
  %e = math.exp %mm {fastmath = #arith.fastmath<fast>} : tensor<4x8xf32> loc(fused["p2o.Exp.2", "other"])
  %s = arith.addf %e, %mm : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
)mlir";

/// The program the rules are matched against, parsed once.
static Operation *getProgram() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    registry
        .insert<arith::ArithDialect, func::FuncDialect, linalg::LinalgDialect,
                math::MathDialect, tensor::TensorDialect>();
    return new MLIRContext(registry);
  }();
  static OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kProgram, context);
  AMP_FUZZ_CHECK(module);
  return module->getOperation();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Operation *program = getProgram();
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  amp::PolicyTable table;
  std::string error;
  if (failed(table.loadBuffer(text, "policy.yaml", error))) {
    AMP_FUZZ_CHECK(llvm::StringRef(error).starts_with("policy.yaml"));
    return 0;
  }
  program->walk([&](Operation *op) {
    (void)table.lookupPolicy(op);
    (void)table.lookupAccumulate(op);
    (void)table.lookupRange(op);
  });
  // Selectors that matched nothing are described, each naming its rule.
  for (const std::string &line : table.describeUnmatchedSelectors())
    AMP_FUZZ_CHECK(llvm::StringRef(line).starts_with("policy.yaml:"));
  return 0;
}

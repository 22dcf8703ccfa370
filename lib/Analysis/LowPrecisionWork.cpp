//===- LowPrecisionWork.cpp - f16/bf16 work a target has no units for ----===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/LowPrecisionWork.h"
#include "amp/Interfaces/AmpOpInterface.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::amp;

/// The 16-bit float type of `op`'s data operands and results, if it has
/// one (the first found).
static FloatType lowPrecisionTypeOf(Operation *op) {
  auto low = [](Type type) -> FloatType {
    auto element = dyn_cast<FloatType>(getElementTypeOrSelf(type));
    return element && (element.isF16() || element.isBF16()) ? element
                                                            : FloatType();
  };
  for (unsigned i = 0; i < op->getNumOperands(); ++i)
    if (isDataOperand(op, i))
      if (FloatType type = low(op->getOperand(i).getType()))
        return type;
  for (unsigned i = 0; i < op->getNumResults(); ++i)
    if (isDataResult(op, i))
      if (FloatType type = low(op->getResult(i).getType()))
        return type;
  return {};
}

SmallVector<Operation *>
amp::findLowPrecisionWorkWithoutUnits(Operation *root, Attribute target) {
  SmallVector<Operation *> found;
  for (FunctionOpInterface function : getFunctions(root)) {
    function->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == function.getOperation())
        return WalkResult::advance();
      if (!hasAmpModel(op))
        return WalkResult::advance();
      FloatType type = lowPrecisionTypeOf(op);
      if (type && !canComputeIn(op, type, target))
        found.push_back(op);
      // A structured op's body is the op's own work.
      return op->getNumRegions() && !isa<FunctionOpInterface>(op)
                 ? WalkResult::skip()
                 : WalkResult::advance();
    });
  }
  return found;
}

std::optional<std::string>
amp::describeLowPrecisionWorkWithoutUnits(Operation *root, Attribute target,
                                          StringRef targetName,
                                          StringRef convertOption) {
  SmallVector<Operation *> ops = findLowPrecisionWorkWithoutUnits(root, target);
  if (ops.empty())
    return std::nullopt;
  int64_t f16 = llvm::count_if(
      ops, [](Operation *op) { return lowPrecisionTypeOf(op).isF16(); });
  int64_t bf16 = static_cast<int64_t>(ops.size()) - f16;
  // "3 ops compute in f16 and 1 in bf16 where ... has no units for them".
  auto ops_ = [](int64_t n) {
    return std::to_string(n) + (n == 1 ? " op computes" : " ops compute");
  };
  std::string what = f16 ? ops_(f16) + " in f16" : ops_(bf16) + " in bf16";
  if (f16 && bf16)
    what += " and " + std::to_string(bf16) + " in bf16";
  return (llvm::Twine(what) + " where " + targetName + " has no units for " +
          (ops.size() == 1 ? "it" : "them") +
          ": each widens its operands and rounds its results, which is "
          "slower than f32; " +
          convertOption + " converts for " + targetName)
      .str();
}

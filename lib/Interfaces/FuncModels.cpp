//===- FuncModels.cpp - AmpOpInterface models for func --------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Functions, calls and returns carry values: a function converted to low
// precision changes its signature, and its callers' calls must be converted
// with it (the pass does that for private functions).
//
//===----------------------------------------------------------------------===//

#include "ModelSupport.h"
#include "amp/Interfaces/ExternalModels.h"
#include "amp/Target/TargetCapabilities.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

/// func.func: the signature and the entry block's arguments change together;
/// its body is converted op by op by the caller.
struct FuncOpModel : MovingModel<FuncOpModel, func::FuncOp> {
  CategoryInfo getDefaultCategory(Operation *, FloatType) const {
    return followsStructure();
  }
  FailureOr<Operation *> convertToPrecision(Operation *op,
                                            RewriterBase &rewriter,
                                            FloatType lowType,
                                            FloatType) const {
    auto func = cast<func::FuncOp>(op);
    auto retype = [&](TypeRange types) {
      SmallVector<Type> out;
      for (Type t : types)
        out.push_back(withFloatElementType(t, lowType));
      return out;
    };
    FunctionType type = func.getFunctionType();
    auto newType = FunctionType::get(op->getContext(), retype(type.getInputs()),
                                     retype(type.getResults()));
    rewriter.modifyOpInPlace(func, [&] {
      func.setFunctionType(newType);
      if (!func.isExternal())
        for (auto [arg, t] :
             llvm::zip(func.getArguments(), newType.getInputs()))
          arg.setType(t);
    });
    return op;
  }
};

} // namespace

void mlir::amp::registerFuncExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, func::FuncDialect *) {
    func::FuncOp::attachInterface<FuncOpModel>(*ctx);
    attachModels<StructureModel, func::CallOp, func::CallIndirectOp,
                 func::ReturnOp>(ctx);
  });
}

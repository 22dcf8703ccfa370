//===- RegisterAllExternalModels.cpp - Every amp model --------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Interfaces/ExternalModels.h"

void mlir::amp::registerAllExternalModels(DialectRegistry &registry) {
  registerArithExternalModels(registry);
  registerCFExternalModels(registry);
  registerComplexExternalModels(registry);
  registerFuncExternalModels(registry);
  registerLinalgExternalModels(registry);
  registerMathExternalModels(registry);
  registerSCFExternalModels(registry);
  registerTensorExternalModels(registry);
  registerTosaExternalModels(registry);
}

//===- RegisterAllExternalModels.cpp - Every amp model --------------------===//

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

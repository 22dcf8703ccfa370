//===- RegisterAllExternalModels.cpp - Every amp model --------------------===//

#include "amp/Interfaces/ExternalModels.h"
#include "amp/Target/TargetCapabilities.h"

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
  // What targets compute in low precision, which the op models ask.
  registerTargetModels(registry);
}

//===- InitAll.h - Register everything amp provides -------------*- C++ -*-===//

#ifndef AMP_INITALL_H
#define AMP_INITALL_H

#include "amp/Dialect/Amp/Amp.h"
#include "amp/Interfaces/ExternalModels.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Test/TestPasses.h"
#include "amp/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

namespace mlir {
namespace amp {

/// The amp dialect and every AmpOpInterface model.
inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<AmpDialect>();
  registerAllExternalModels(registry);
}

/// Every amp pass and pipeline, including the test passes that expose the
/// models.
inline void registerAllPasses() {
  registerAmpPasses();
  registerAmpTestPasses();
  registerAmpPipelines();
}

} // namespace amp
} // namespace mlir

#endif // AMP_INITALL_H

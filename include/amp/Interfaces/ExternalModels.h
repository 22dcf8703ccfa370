//===- ExternalModels.h - Models for upstream dialects ----------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One registration function per upstream dialect; each attaches the
// AmpOpInterface models of that dialect's ops when the dialect is loaded.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_EXTERNALMODELS_H
#define AMP_INTERFACES_EXTERNALMODELS_H

namespace mlir {
class DialectRegistry;
namespace amp {

void registerArithExternalModels(DialectRegistry &registry);
void registerCFExternalModels(DialectRegistry &registry);
void registerComplexExternalModels(DialectRegistry &registry);
void registerFuncExternalModels(DialectRegistry &registry);
void registerLinalgExternalModels(DialectRegistry &registry);
void registerMathExternalModels(DialectRegistry &registry);
void registerSCFExternalModels(DialectRegistry &registry);
void registerTensorExternalModels(DialectRegistry &registry);
void registerTosaExternalModels(DialectRegistry &registry);

/// Registers every model above.
void registerAllExternalModels(DialectRegistry &registry);

} // namespace amp
} // namespace mlir

#endif // AMP_INTERFACES_EXTERNALMODELS_H

//===- amp-plugin.cpp - amp as a plugin for mlir-opt ----------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//   mlir-opt --load-dialect-plugin=amp-plugin.so  (parses #amp attributes)
//   mlir-opt --load-pass-plugin=amp-plugin.so --pass-pipeline='...'
//
// Stock mlir-opt parses its flags before loading a pass plugin, so amp's
// passes are reached through --pass-pipeline or -p. The pass callback gets no
// registry: amp's passes add the models in getDependentDialects.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAll.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "amp", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::amp::registerAllDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "amp", LLVM_VERSION_STRING,
          []() { mlir::amp::registerAllPasses(); }};
}

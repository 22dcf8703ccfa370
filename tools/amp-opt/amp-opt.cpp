//===- amp-opt.cpp - mlir-opt with amp added --------------------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/InitAll.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::amp::test {
void registerTestPasses();
} // namespace mlir::amp::test

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::amp::registerEverything(registry);
  mlir::amp::test::registerTestPasses();

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "amp: automatic mixed precision for MLIR\n", registry));
}

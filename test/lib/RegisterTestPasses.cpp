//===- RegisterTestPasses.cpp - amp-opt's test passes ---------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

void mlir::amp::test::registerTestPasses() { registerAmpTestPasses(); }

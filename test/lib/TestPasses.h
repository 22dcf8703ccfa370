//===- TestPasses.h - Passes that expose amp's models to tests --*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TEST_TESTPASSES_H
#define AMP_TEST_TESTPASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace amp {

#define GEN_PASS_DECL
#include "TestPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "TestPasses.h.inc"

namespace test {
/// Registers the test passes; amp-opt calls it (they are not shipped in the
/// plugin or the C API).
void registerTestPasses();
} // namespace test

} // namespace amp
} // namespace mlir

#endif // AMP_TEST_TESTPASSES_H

//===- TestPasses.h - Passes that expose amp's models to tests --*- C++ -*-===//

#ifndef AMP_TEST_TESTPASSES_H
#define AMP_TEST_TESTPASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace amp {

#define GEN_PASS_DECL
#include "amp/Test/TestPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "amp/Test/TestPasses.h.inc"

} // namespace amp
} // namespace mlir

#endif // AMP_TEST_TESTPASSES_H

//===- FuzzCheck.h - Property checks in fuzz targets ------------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_FUZZ_FUZZCHECK_H
#define AMP_FUZZ_FUZZCHECK_H

#include <cstdio>
#include <cstdlib>

/// Stops the target when a property of amp's code fails, whether or not
/// assertions are on: libFuzzer keeps the input as a crash.
#define AMP_FUZZ_CHECK(condition)                                              \
  do {                                                                         \
    if (!(condition)) {                                                        \
      std::fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__,         \
                   __LINE__, #condition);                                      \
      std::abort();                                                            \
    }                                                                          \
  } while (false)

#endif // AMP_FUZZ_FUZZCHECK_H

//===- TextNesting.h - Nesting limit of textual IR --------------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MLIR's parser, verifier and printer recurse once per nested region,
// attribute and type, so a program nested a few thousand levels deep
// overflows the stack of whichever tool reads it. amp's entry points
// (amp-opt, amp-run, the C API and through it Python) check the nesting of
// textual input before they parse it and reject what is deeper than amp
// handles, with a diagnostic at the bracket that goes too deep.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_SUPPORT_TEXTNESTING_H
#define AMP_SUPPORT_TEXTNESTING_H

#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir {
class MLIRContext;

namespace amp {

/// The deepest nesting of brackets ((), [], {} and <>: regions, attributes
/// and types together) that amp accepts in textual IR. Real programs stay
/// below a hundred; amp's tools handle this depth within a default 8 MiB
/// stack.
inline constexpr unsigned kMaxTextNesting = 1000;

/// The byte offset in `text` of the first opening bracket that nests deeper
/// than `limit`, or none. Strings and `//` comments are skipped; `->`,
/// `<=` and `>=` are not brackets. Bytecode is not scanned.
std::optional<size_t>
findTextNestingPastLimit(StringRef text, unsigned limit = kMaxTextNesting);

/// Checks the nesting of `text` (named `sourceName` in diagnostics) and
/// emits an error through `context` located at the bracket past the limit.
LogicalResult checkTextNesting(StringRef text, StringRef sourceName,
                               MLIRContext *context,
                               unsigned limit = kMaxTextNesting);

} // namespace amp
} // namespace mlir

#endif // AMP_SUPPORT_TEXTNESTING_H

//===- TextNesting.cpp - Nesting limit of textual IR ----------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Support/TextNesting.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;

std::optional<size_t> amp::findTextNestingPastLimit(StringRef text,
                                                    unsigned limit) {
  // MLIR bytecode starts with "ML\xefR"; its reader does not recurse per
  // level of text brackets.
  if (text.starts_with("ML\xef"
                       "R"))
    return std::nullopt;
  unsigned depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    char next = i + 1 < e ? text[i + 1] : '\0';
    switch (c) {
    case '"':
      // A string literal, with backslash escapes, up to its closing quote
      // or the end of the line (where the parser reports it).
      for (++i; i < e && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '/':
      if (next == '/')
        i = std::min(text.find('\n', i), e);
      break;
    case '-':
      if (next == '>')
        ++i;
      break;
    case '<':
    case '>':
      if (next == '=') {
        ++i;
        break;
      }
      if (c == '>') {
        depth -= depth > 0;
        break;
      }
      [[fallthrough]];
    case '(':
    case '[':
    case '{':
      if (++depth > limit)
        return i;
      break;
    case ')':
    case ']':
    case '}':
      depth -= depth > 0;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

LogicalResult amp::checkTextNesting(StringRef text, StringRef sourceName,
                                    MLIRContext *context, unsigned limit) {
  std::optional<size_t> offset = findTextNestingPastLimit(text, limit);
  if (!offset)
    return success();
  StringRef before = text.take_front(*offset);
  unsigned line = 1 + before.count('\n');
  size_t lineStart = before.rfind('\n');
  unsigned column =
      1 + (lineStart == StringRef::npos ? *offset : *offset - lineStart - 1);
  return emitError(FileLineColLoc::get(context, sourceName, line, column))
         << "the input nests brackets (regions, attributes and types) more "
            "than "
         << limit << " levels deep here; amp does not read IR nested this deep";
}

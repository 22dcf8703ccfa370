//===- Npy.cpp - NumPy .npy files -----------------------------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Format: the magic "\x93NUMPY", a major and minor version byte, the header
// length (2 bytes little-endian in version 1, 4 in versions 2 and 3), then
// a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...)}
// padded with spaces and a newline, then the raw data.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace mlir::amp::runtime;
using llvm::StringRef;

static constexpr StringRef kMagic("\x93NUMPY", 6);

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static StringRef getDescr(ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
    return "<f2";
  case ElementKind::BF16:
    return "<u2";
  case ElementKind::F32:
    return "<f4";
  case ElementKind::F64:
    return "<f8";
  case ElementKind::I32:
    return "<i4";
  case ElementKind::I64:
    return "<i8";
  }
  llvm_unreachable("unknown element kind");
}

std::string mlir::amp::runtime::describeNpyDtype(ElementKind kind) {
  static const char *numpyNames[] = {"float16", "bf16 words", "float32",
                                     "float64", "int32",      "int64"};
  return ("'" + getDescr(kind) + "' (" + numpyNames[int(kind)] + ")").str();
}

/// The value of `key` in the header dict: the text after "'key':" up to the
/// next top-level comma or the closing brace.
static std::optional<StringRef> findHeaderValue(StringRef header,
                                                StringRef key) {
  std::string quoted = ("'" + key + "'").str();
  size_t at = header.find(quoted);
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef rest = header.drop_front(at + quoted.size()).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  rest = rest.ltrim();
  if (rest.starts_with("(")) {
    size_t close = rest.find(')');
    if (close == StringRef::npos)
      return std::nullopt;
    return rest.take_front(close + 1);
  }
  return rest.take_until([](char c) { return c == ',' || c == '}'; }).rtrim();
}

static std::optional<ElementKind> parseDescr(StringRef descr) {
  if (descr.size() != 3 || (descr[0] != '<' && descr[0] != '='))
    return std::nullopt;
  StringRef code = descr.drop_front();
  if (code == "f2")
    return ElementKind::F16;
  if (code == "u2" || code == "i2")
    return ElementKind::BF16;
  if (code == "f4")
    return ElementKind::F32;
  if (code == "f8")
    return ElementKind::F64;
  if (code == "i4")
    return ElementKind::I32;
  if (code == "i8")
    return ElementKind::I64;
  return std::nullopt;
}

llvm::Expected<HostTensor> mlir::amp::runtime::readNpy(StringRef path) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return fail("cannot read '" + path + "': " + file.getError().message());
  return parseNpy((*file)->getBuffer(), path);
}

llvm::Expected<HostTensor> mlir::amp::runtime::parseNpy(StringRef bytes,
                                                        StringRef path) {
  if (!bytes.starts_with(kMagic) || bytes.size() < 10)
    return fail("'" + path + "' is not a .npy file");
  unsigned major = uint8_t(bytes[6]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = uint8_t(bytes[8]) | (size_t(uint8_t(bytes[9])) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return fail("'" + path + "' is truncated");
    headerLength = 0;
    for (int i = 3; i >= 0; --i)
      headerLength = (headerLength << 8) | uint8_t(bytes[8 + i]);
    headerStart = 12;
  } else {
    return fail("'" + path + "': unsupported .npy version " +
                llvm::Twine(major));
  }
  if (bytes.size() < headerStart + headerLength)
    return fail("'" + path + "' is truncated");
  StringRef header = bytes.substr(headerStart, headerLength);

  std::optional<StringRef> descr = findHeaderValue(header, "descr");
  std::optional<StringRef> fortran = findHeaderValue(header, "fortran_order");
  std::optional<StringRef> shapeText = findHeaderValue(header, "shape");
  if (!descr || !fortran || !shapeText)
    return fail("'" + path + "': malformed .npy header: " + header.rtrim());
  StringRef dtype = descr->trim("'\"");
  std::optional<ElementKind> kind = parseDescr(dtype);
  if (!kind)
    return fail("'" + path + "': unsupported dtype '" + dtype +
                "' (amp-run reads little-endian '<f2', '<f4', '<f8', '<i4', "
                "'<i8', and '<u2'/'<i2' as bf16 words)");
  if (*fortran != "False")
    return fail("'" + path + "': Fortran-order arrays are not supported");

  llvm::SmallVector<int64_t> shape;
  StringRef dims = shapeText->trim("()");
  llvm::SmallVector<StringRef> parts;
  dims.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    part = part.trim();
    if (part.empty())
      continue;
    int64_t size;
    if (part.getAsInteger(10, size) || size < 0)
      return fail("'" + path + "': malformed shape " + *shapeText);
    shape.push_back(size);
  }

  // The data must be exactly the shape's bytes: checked before allocating,
  // so that a header claiming a huge shape is an error, not an abort.
  StringRef data = bytes.drop_front(headerStart + headerLength);
  uint64_t expected = getElementByteWidth(*kind);
  bool overflows = false;
  for (int64_t size : shape) {
    if (size != 0 && expected > UINT64_MAX / static_cast<uint64_t>(size))
      overflows = true;
    else
      expected *= static_cast<uint64_t>(size);
  }
  if (overflows || data.size() < expected)
    return fail(
        "'" + path + "' is truncated: " + llvm::Twine(data.size()) +
        " data bytes for shape (" + formatShape(shape) + ") of " +
        getElementKindName(*kind) + ", expected " +
        (overflows ? llvm::Twine("more than 2^64") : llvm::Twine(expected)));
  if (data.size() > expected)
    return fail("'" + path + "' has " + llvm::Twine(data.size()) +
                " data bytes for shape (" + formatShape(shape) + ") of " +
                getElementKindName(*kind) + ", expected " +
                llvm::Twine(expected) + ": trailing bytes");
  HostTensor tensor(*kind, shape);
  if (tensor.getByteSize())
    std::memcpy(tensor.getData(), data.data(), tensor.getByteSize());
  return std::move(tensor);
}

void mlir::amp::runtime::printNpy(llvm::raw_ostream &os,
                                  const HostTensor &tensor) {
  std::string header = "{'descr': '" + getDescr(tensor.getElementKind()).str() +
                       "', 'fortran_order': False, 'shape': (";
  for (int64_t size : tensor.getShape())
    header += std::to_string(size) + (tensor.getRank() == 1 ? "," : ", ");
  if (tensor.getRank() > 1)
    header.resize(header.size() - 2);
  header += "), }";
  // Magic, version and length take 10 bytes (version 1.0, a 16-bit length)
  // or 12 (2.0, 32-bit, for headers of 64 KiB and more); pad the header so
  // that the data starts at a multiple of 64, and end it with a newline.
  bool wide = 10 + header.size() + 64 > 0xffff;
  size_t prefix = wide ? 12 : 10;
  size_t total = prefix + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';

  os << kMagic;
  os << char(wide ? 2 : 1) << char(0);
  for (size_t i = 0; i < prefix - 8; ++i)
    os << char((header.size() >> (8 * i)) & 0xff);
  os << header;
  os.write(static_cast<const char *>(tensor.getData()), tensor.getByteSize());
}

llvm::Error mlir::amp::runtime::writeNpy(StringRef path,
                                         const HostTensor &tensor) {
  // Written to a temporary file renamed into place once complete: a failed
  // write leaves no partial file at `path`.
  llvm::Error written = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    printNpy(os, tensor);
    return llvm::Error::success();
  });
  if (written)
    return fail("cannot write '" + path +
                "': " + llvm::toString(std::move(written)));
  return llvm::Error::success();
}

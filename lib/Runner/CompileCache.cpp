//===- CompileCache.cpp - Compiled programs kept between runs -------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/CompileCache.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/EndianStream.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <dlfcn.h>

#ifndef AMP_VERSION
#define AMP_VERSION "0.1.0"
#endif

using namespace mlir::amp::runtime;
namespace fs = llvm::sys::fs;

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

void HashingStream::write_impl(const char *data, size_t size) {
  hasher.update(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(data), size));
  position += size;
}

std::string HashingStream::digest() {
  flush();
  llvm::BLAKE3Result<32> hash = hasher.final();
  return llvm::toHex(hash, /*LowerCase=*/true);
}

void mlir::amp::runtime::printLocationNames(Operation *op,
                                            llvm::raw_ostream &os) {
  op->walk([&](Operation *inner) {
    inner->getLoc()->walk([&](Location loc) {
      if (auto name = dyn_cast<NameLoc>(loc))
        os << name.getName().size() << ':' << name.getName().getValue();
      return WalkResult::advance();
    });
    os << ';';
  });
}

std::string mlir::amp::runtime::getProgramKey(
    llvm::StringRef maker, Operation *module, llvm::StringRef target,
    unsigned optLevel, llvm::StringRef pipeline, llvm::StringRef entry) {
  HashingStream hash;
  hash << maker << "\n"
       << getBuildIdentity() << "\n"
       << target << "\nO" << optLevel << "\n"
       << pipeline << "\n@" << entry << "\n";
  module->print(hash, OpPrintingFlags().enableDebugInfo(false));
  printLocationNames(module, hash);
  return hash.digest();
}

/// The file (program or shared library) that holds `address`.
static std::string getObjectFile(const void *address) {
  Dl_info info;
  if (dladdr(address, &info) && info.dli_fname)
    return info.dli_fname;
  return "";
}

std::vector<std::string> mlir::amp::runtime::getForeignOptionsGiven(
    int argc, const char *const *argv, const llvm::cl::OptionCategory &own) {
  // Options are told apart by the file their objects live in, not by
  // asking them: libLLVM's have no run-time type information, which
  // UndefinedBehaviorSanitizer's check of member calls needs.
  std::string ownFile = getObjectFile(&own);
  std::vector<std::string> given;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef name(argv[i]);
    if (!name.consume_front("-"))
      continue;
    name.consume_front("-");
    name = name.split('=').first;
    llvm::cl::Option *option = llvm::cl::getRegisteredOptions().lookup(name);
    if (option && getObjectFile(option) != ownFile)
      given.push_back(name.str());
  }
  return given;
}

std::string mlir::amp::runtime::getBuildIdentity() {
  std::string identity = "amp " AMP_VERSION " LLVM " LLVM_VERSION_STRING;
  // The file of this code: a shared library's path, or for a program,
  // which dladdr names as it was started (without a folder when found on
  // the PATH), the executable's.
  Dl_info info;
  void *self = reinterpret_cast<void *>(&getBuildIdentity);
  std::string file;
  if (dladdr(self, &info) && info.dli_fname)
    file = info.dli_fname;
  if (!llvm::StringRef(file).contains('/'))
    file = fs::getMainExecutable(nullptr, self);
  fs::file_status status;
  if (!file.empty() && !fs::status(file, status))
    identity +=
        " " + file + " " + std::to_string(status.getSize()) + " " +
        std::to_string(
            status.getLastModificationTime().time_since_epoch().count());
  return identity;
}

std::optional<uint64_t>
mlir::amp::runtime::parseByteSize(llvm::StringRef text) {
  text = text.trim();
  uint64_t scale = 1;
  if (!text.empty()) {
    switch (llvm::toUpper(text.back())) {
    case 'K':
      scale = uint64_t(1) << 10;
      break;
    case 'M':
      scale = uint64_t(1) << 20;
      break;
    case 'G':
      scale = uint64_t(1) << 30;
      break;
    default:
      break;
    }
    if (scale != 1)
      text = text.drop_back();
  }
  uint64_t value;
  if (text.empty() || text.getAsInteger(10, value) ||
      value > UINT64_MAX / scale)
    return std::nullopt;
  return value * scale;
}

static bool isSet(const char *name) {
  std::optional<std::string> value = llvm::sys::Process::GetEnv(name);
  return value && !value->empty() && *value != "0";
}

llvm::Expected<std::optional<CompileCache>> CompileCache::openDefault() {
  if (isSet("AMP_NO_CACHE"))
    return std::optional<CompileCache>();
  uint64_t maxBytes = kDefaultMaxBytes;
  if (std::optional<std::string> size =
          llvm::sys::Process::GetEnv("AMP_CACHE_MAX_SIZE")) {
    std::optional<uint64_t> parsed = parseByteSize(*size);
    if (!parsed)
      return fail("AMP_CACHE_MAX_SIZE must be a size in bytes with an "
                  "optional K, M or G suffix, got '" +
                  *size + "'");
    maxBytes = *parsed;
  }
  llvm::SmallString<256> directory;
  if (std::optional<std::string> path =
          llvm::sys::Process::GetEnv("AMP_CACHE_DIR");
      path && !path->empty()) {
    directory = *path;
  } else if (std::optional<std::string> xdg =
                 llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
             xdg && !xdg->empty()) {
    directory = *xdg;
    llvm::sys::path::append(directory, "amp");
  } else {
    std::optional<std::string> home = llvm::sys::Process::GetEnv("HOME");
    if (!home || home->empty())
      return std::optional<CompileCache>();
    directory = *home;
    llvm::sys::path::append(directory, ".cache", "amp");
  }
  return std::optional<CompileCache>(
      CompileCache(std::string(directory), maxBytes));
}

namespace {
/// The layout of an entry: magic, format, key, object count, object sizes,
/// checksum of the objects, then the objects one after the other.
constexpr llvm::StringLiteral kMagic = "AMPCACHE";
constexpr uint32_t kFormat = 1;
constexpr size_t kKeySize = 64;
} // namespace

std::string CompileCache::getPath(llvm::StringRef key) const {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, key + ".amp");
  return std::string(path);
}

void CompileCache::remove(llvm::StringRef key) const {
  (void)fs::remove(getPath(key));
}

std::optional<std::vector<std::string>>
CompileCache::lookup(llvm::StringRef key,
                     llvm::function_ref<void(const llvm::Twine &)> warn) const {
  std::string path = getPath(key);
  if (!fs::exists(path))
    return std::nullopt;
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return std::nullopt;
  llvm::StringRef data = (*buffer)->getBuffer();
  auto reject = [&](const llvm::Twine &why) {
    warn("the compile cache entry '" + path + "' " + why +
         "; it is removed and the program compiled again");
    (void)fs::remove(path);
    return std::nullopt;
  };
  using namespace llvm::support;
  size_t header = kMagic.size() + 4 + kKeySize + 4;
  if (data.size() < header || !data.starts_with(kMagic))
    return reject("is not an amp cache entry");
  const char *cursor = data.data() + kMagic.size();
  if (endian::read32le(cursor) != kFormat)
    return reject("has another format");
  cursor += 4;
  if (llvm::StringRef(cursor, kKeySize) != key)
    return reject("holds another program");
  cursor += kKeySize;
  uint32_t count = endian::read32le(cursor);
  cursor += 4;
  size_t tableEnd = header + 8 * uint64_t(count) + 8;
  if (count == 0 || count > 4096 || data.size() < tableEnd)
    return reject("is truncated");
  uint64_t total = 0;
  std::vector<uint64_t> sizes;
  for (uint32_t i = 0; i < count; ++i, cursor += 8) {
    sizes.push_back(endian::read64le(cursor));
    total += sizes.back();
  }
  uint64_t checksum = endian::read64le(cursor);
  cursor += 8;
  if (data.size() - tableEnd != total)
    return reject("is truncated");
  llvm::StringRef payload(cursor, total);
  if (llvm::xxh3_64bits(payload) != checksum)
    return reject("is corrupt");
  std::vector<std::string> objects;
  for (uint64_t size : sizes) {
    objects.push_back(payload.take_front(size).str());
    payload = payload.drop_front(size);
  }
  // Recently used entries are the last evicted.
  if (int fd;
      !fs::openFileForWrite(path, fd, fs::CD_OpenExisting, fs::OF_Append)) {
    (void)fs::setLastAccessAndModificationTime(
        fd, std::chrono::system_clock::now());
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
  return objects;
}

llvm::Error CompileCache::store(llvm::StringRef key,
                                llvm::ArrayRef<std::string> objects) const {
  if (key.size() != kKeySize)
    return fail("a compile cache key is a 64-digit hex digest");
  if (std::error_code ec = fs::create_directories(directory))
    return fail("cannot create the compile cache '" + directory +
                "': " + ec.message());
  // Written whole under a name no other process uses, then renamed into
  // place: readers see the old entry, the new one, or none.
  llvm::SmallString<256> model(directory);
  llvm::sys::path::append(model, key + ".%%%%%%%%.tmp");
  int fd;
  llvm::SmallString<256> temporary;
  if (std::error_code ec = fs::createUniqueFile(model, fd, temporary))
    return fail("cannot write to the compile cache '" + directory +
                "': " + ec.message());
  {
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
    using namespace llvm::support;
    std::string payload;
    for (const std::string &object : objects)
      payload += object;
    out << kMagic;
    llvm::support::endian::write<uint32_t>(out, kFormat,
                                           llvm::endianness::little);
    out << key;
    llvm::support::endian::write<uint32_t>(out, objects.size(),
                                           llvm::endianness::little);
    for (const std::string &object : objects)
      llvm::support::endian::write<uint64_t>(out, object.size(),
                                             llvm::endianness::little);
    llvm::support::endian::write<uint64_t>(out, llvm::xxh3_64bits(payload),
                                           llvm::endianness::little);
    out << payload;
    out.close();
    if (out.has_error()) {
      std::string message = out.error().message();
      out.clear_error();
      (void)fs::remove(temporary);
      return fail("cannot write '" + temporary + "': " + message);
    }
  }
  if (std::error_code ec = fs::rename(temporary, getPath(key))) {
    (void)fs::remove(temporary);
    return fail("cannot rename '" + temporary + "': " + ec.message());
  }
  evict();
  return llvm::Error::success();
}

void CompileCache::evict() const {
  struct Entry {
    std::string path;
    uint64_t size;
    llvm::sys::TimePoint<> time;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; it != end && !ec;
       it.increment(ec)) {
    if (llvm::sys::path::extension(it->path()) != ".amp")
      continue;
    fs::file_status status;
    if (fs::status(it->path(), status))
      continue;
    entries.push_back(
        {it->path(), status.getSize(), status.getLastModificationTime()});
    total += status.getSize();
  }
  if (total <= maxBytes)
    return;
  llvm::sort(entries,
             [](const Entry &a, const Entry &b) { return a.time < b.time; });
  // Another process may remove the same entry: either removal counts.
  for (const Entry &entry : entries) {
    if (total <= maxBytes)
      break;
    (void)fs::remove(entry.path);
    total -= entry.size;
  }
}

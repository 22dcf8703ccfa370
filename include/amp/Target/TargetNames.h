//===- TargetNames.h - The one vocabulary of target names -------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The entry points that name a target parse it here, so that one spelling
// means one thing: mixed-precision{target=} (DecisionOptions.cpp),
// amp-lower-to-nvvm{chip=} (Pipelines.cpp; amp-run --chip reaches it
// through that pipeline) and the C API's ampCheckTargetName (Python's
// `target=`). Backend names (amp-run --backend) are the runner's
// (Runner/Backend.h), not target names.
//
//   cpu               the host CPU through LLVM (what it computes in f16/bf16
//                     follows its features: #llvm.target)
//   vulkan            Vulkan 1.1 with Float16 and 16-bit storage buffers
//   vulkan-storage16  Vulkan with 16-bit storage buffers, no Float16
//   sm_<N>[a|f]       an NVIDIA GPU of compute capability N/10 (N >= 20)
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TARGET_TARGETNAMES_H
#define AMP_TARGET_TARGETNAMES_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir {
class DialectRegistry;
class MLIRContext;
namespace amp {

enum class TargetKind { CPU, Vulkan, VulkanStorage16, NVVM };

/// A parsed target name.
struct TargetName {
  TargetKind kind = TargetKind::CPU;
  /// The name as spelled ("vulkan", "sm_90a").
  std::string spelling;
  /// For NVVM, the chip as spelled (sm_90a); empty otherwise.
  std::string chip;
  /// For NVVM, the compute capability (90 for sm_90a).
  unsigned sm = 0;
};

/// Parses a target name; nullopt if it is none of the names above.
std::optional<TargetName> parseTargetName(StringRef name);

/// The names parseTargetName accepts, for diagnostics.
StringRef getTargetNamesHelp();

/// The one-line error for a name parseTargetName rejects, as the
/// mixed-precision pass, the C API and Python report it:
/// "mixed-precision: unsupported target 'x'; expected ...".
std::string describeUnsupportedTarget(StringRef name);

/// The SPIR-V capabilities and extensions amp assumes of a Vulkan target:
/// the mixed-precision pass's `target=vulkan` and the SPIR-V pipeline use
/// the same list. `float16` is false for vulkan-storage16.
SmallVector<StringRef> getVulkanCapabilities(bool float16);
SmallVector<StringRef> getVulkanExtensions();

/// What a backend provides for the targets it compiles for. amp's core
/// names targets but builds none of their attributes: the SPIR-V backend
/// registers `vulkan` and `vulkan-storage16` (registerSPIRVTargets), the GPU
/// backend `sm_<N>` (registerNVVMTargets), and amp::registerAllPasses both.
struct TargetBackend {
  /// Adds the dialect of the target's attribute, with its
  /// AmpTargetAttrInterface model, to `registry`.
  void (*insertDialects)(DialectRegistry &registry) = nullptr;
  /// The target's attribute; its dialect is loaded.
  Attribute (*buildAttr)(MLIRContext *context,
                         const TargetName &name) = nullptr;
};

/// Registers `backend` for the targets of `kind`, process-wide (like a
/// pass). Registering again replaces it.
void registerTargetBackend(TargetKind kind, const TargetBackend &backend);

/// The backend registered for `name`, or null.
const TargetBackend *lookupTargetBackend(const TargetName &name);

/// The backend that provides a target of `kind` ("the SPIR-V backend"), for
/// diagnostics when it is not registered.
StringRef getTargetBackendDescription(TargetKind kind);

/// The target attribute for `name` (`#spirv.target_env`, `#nvvm.target`,
/// `#llvm.target` of the host; null for the CPU when its backend is not
/// registered: any target), or failure (with a diagnostic at `loc`) when the
/// backend that builds it is not registered. The attribute's dialect must
/// be loaded: see insertTargetDialects.
FailureOr<Attribute> buildTargetAttr(MLIRContext *context,
                                     const TargetName &name, Location loc);

/// Adds the dialect buildTargetAttr needs for `name` to `registry`, if its
/// backend is registered.
void insertTargetDialects(DialectRegistry &registry, const TargetName &name);

} // namespace amp
} // namespace mlir

#endif // AMP_TARGET_TARGETNAMES_H

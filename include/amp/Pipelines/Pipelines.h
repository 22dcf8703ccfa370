//===- Pipelines.h - amp's lowering pipelines -------------------*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Named pipelines that take the output of mixed-precision (linalg, tosa,
// tensor, arith, math, scf, func) to a target. Each is built in its
// backend's folder (lib/Backend/{CPU,GPU,SPIRV}/Pipeline.cpp) from the parts
// in amp/Pipelines/Common.h, and registered by lib/Pipelines/Pipelines.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_PIPELINES_PIPELINES_H
#define AMP_PIPELINES_PIPELINES_H

#include "amp/Pipelines/Common.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace amp {

/// llvm::cl's parser of an integer or boolean pipeline option, except for
/// its message about a bad value: one line, collected by the innermost
/// OptionMessages alive on this thread (getBackendPipeline's error) rather
/// than printed on stderr, which it is only without one.
template <typename T>
class CheckedOptionParser : public llvm::cl::basic_parser<T> {
public:
  CheckedOptionParser(llvm::cl::Option &option)
      : llvm::cl::basic_parser<T>(option), printer(option) {}
  /// True on error, as llvm::cl's parsers.
  bool parse(llvm::cl::Option &option, StringRef name, StringRef arg, T &value);
  /// A boolean option takes no value to mean true, as llvm::cl's; an
  /// integer one without a value is reported here too.
  llvm::cl::ValueExpected getValueExpectedFlagDefault() const {
    return llvm::cl::ValueOptional;
  }
  StringRef getValueName() const override { return printer.getValueName(); }
  /// llvm::cl prints values (--print-options) with its own parser.
  operator const llvm::cl::parser<T> &() const { return printer; }

private:
  llvm::cl::parser<T> printer;
};
template <>
bool CheckedOptionParser<int64_t>::parse(llvm::cl::Option &, StringRef,
                                         StringRef, int64_t &);
template <>
bool CheckedOptionParser<bool>::parse(llvm::cl::Option &, StringRef, StringRef,
                                      bool &);

/// The pipelines' integer and boolean options.
using IntOption =
    mlir::detail::PassOptions::Option<int64_t, CheckedOptionParser<int64_t>>;
using BoolOption =
    mlir::detail::PassOptions::Option<bool, CheckedOptionParser<bool>>;

/// Reports that `arg` is none of `names`, as CheckedOptionParser reports.
void reportBadEnumValue(llvm::cl::Option &option, ArrayRef<StringRef> names,
                        StringRef arg);

/// llvm::cl's parser of an enumerated pipeline option, except for its
/// message about a bad value, as CheckedOptionParser's. The enum needs an
/// operator<< printing its name (PassOptions prints values so).
template <typename T> class CheckedEnumParser : public llvm::cl::parser<T> {
public:
  using llvm::cl::parser<T>::parser;
  bool parse(llvm::cl::Option &option, StringRef name, StringRef arg,
             T &value) {
    SmallVector<StringRef> names;
    for (const auto &entry : this->Values) {
      if (entry.Name == arg) {
        value = entry.V.getValue();
        return false;
      }
      names.push_back(entry.Name);
    }
    reportBadEnumValue(option, names, arg);
    return true;
  }
};

/// While alive, collects the messages of CheckedOptionParser on this
/// thread.
class OptionMessages {
public:
  OptionMessages();
  ~OptionMessages();
  OptionMessages(const OptionMessages &) = delete;
  OptionMessages &operator=(const OptionMessages &) = delete;

  /// The messages so far, one per line.
  llvm::ArrayRef<std::string> get() const { return messages; }
  /// Reports `message` about `option` to the innermost collector, or on
  /// stderr as llvm::cl does without one.
  static void report(llvm::cl::Option &option, const Twine &message);

private:
  std::vector<std::string> messages;
  OptionMessages *outer;
};

struct LowerToLLVMOptions : public PassPipelineOptions<LowerToLLVMOptions> {
  IntOption threads{
      *this, "threads",
      llvm::cl::desc("Threads the code runs on: with more than 1, large "
                     "linalg ops are split into one slice per thread, run "
                     "through OpenMP (the program then needs libomp)"),
      llvm::cl::init(1)};
  BoolOption bf16Dot{
      *this, "bf16-dot",
      llvm::cl::desc("Reduce bf16 products with the AVX512-BF16 dot product "
                     "(vdpbf16ps): the code then needs a CPU that has it "
                     "(amp-run sets this from the host's features)"),
      llvm::cl::init(false)};
  BoolOption excessPrecision{
      *this, "excess-precision",
      llvm::cl::desc("Compute bf16 arithmetic in f32, rounding a value to "
                     "bf16 once, where it leaves the computation, not after "
                     "every op (amp-excess-precision), and hand on a bf16 "
                     "convolution's f32 sums where its result is only "
                     "widened again (amp-wide-convolution-results)"),
      llvm::cl::init(true)};
  BoolOption widenReusedInputs{
      *this, "widen-reused-inputs",
      llvm::cl::desc("Widen the f16/bf16 inputs that a contraction reads "
                     "many times per element once, before it, instead of "
                     "at every read in its kernel "
                     "(amp-widen-reused-inputs)"),
      llvm::cl::init(true)};
  IntOption tileCols{
      *this, "tile-cols",
      llvm::cl::desc("Vectors side by side in each row of a contraction's "
                     "register tile (amp-vectorize-contractions{cols}); "
                     "default: 2, or what `cpu` chooses"),
      llvm::cl::init(2)};
  PassOptions::Option<std::string> cpu{
      *this, "cpu",
      llvm::cl::desc("The CPU the code is for (an LLVM CPU name such as "
                     "znver3, znver4, skylake-avx512 or neoverse-v1, or "
                     "host): the contraction kernels' register tile (lanes, "
                     "rows, columns) is chosen from its vector registers "
                     "(chooseCPURegisterTile) so that their inner loops do "
                     "not spill; empty: 16 lanes, 8 rows, tile-cols "
                     "columns. amp-run sets the host's")};
  PassOptions::Option<std::string> triple{
      *this, "triple",
      llvm::cl::desc("The target triple `cpu` belongs to (default: the "
                     "host's), e.g. aarch64-linux-gnu for neoverse-v1")};
  BoolOption outlineKernels{
      *this, "outline-kernels",
      llvm::cl::desc("Make each kernel a function of its own "
                     "(amp-outline-kernels), which LLVM compiles in "
                     "parallel and profiles name"),
      llvm::cl::init(true)};
  BoolOption boundLLVMUnrolling{
      *this, "bound-llvm-unrolling",
      llvm::cl::desc("Keep LLVM from unrolling the loops around inner loops "
                     "(amp-bound-llvm-unrolling), most of its compile time"),
      llvm::cl::init(true)};
};

/// Checks `options`: a `cpu` (and `triple`) that LLVM knows.
LogicalResult
verifyLowerToLLVMOptions(const LowerToLLVMOptions &options,
                         function_ref<LogicalResult(const Twine &)> emitError);

/// CPU code through LLVM: the kernels above, one-shot bufferization, loops,
/// and the LLVM dialect (runnable with mlir-runner / the ExecutionEngine).
void buildAmpLowerToLLVMPipeline(OpPassManager &pm,
                                 const LowerToLLVMOptions &options = {});

/// What both GPU pipelines share: the kernel strategies of
/// lib/Backend/Common for contractions and row reductions.
#define AMP_GPU_KERNEL_STRATEGIES_OPTION                                       \
  BoolOption kernelStrategies{                                                 \
      *this, "kernel-strategies",                                              \
      llvm::cl::desc(                                                          \
          "Contractions as workgroup tiles staged in workgroup memory with "   \
          "register accumulators (amp-tile-contractions-for-gpu), long row "   \
          "reductions across a workgroup (amp-reduce-rows-in-workgroups); "    \
          "false maps every op to one thread per output element"),             \
      llvm::cl::init(true)};

struct LowerToSPIRVOptions : public PassPipelineOptions<LowerToSPIRVOptions> {
  AMP_GPU_KERNEL_STRATEGIES_OPTION
  IntOption subgroupSize{
      *this, "subgroup-size",
      llvm::cl::desc(
          "The device's subgroup size, for reductions that combine within "
          "subgroups with shuffles (GroupNonUniformShuffle); 0 (the "
          "default: a Vulkan target fixes no subgroup size) combines through "
          "workgroup memory only"),
      llvm::cl::init(0)};
  BoolOption cooperativeMatrix{
      *this, "cooperative-matrix",
      llvm::cl::desc(
          "f16/bf16 contractions with f32 accumulators on the device's "
          "cooperative matrices (CooperativeMatrixKHR, "
          "amp-tile-contractions-for-cooperative-matrices); needs "
          "subgroup-size. Not run or validated here: Mesa 22's lavapipe and "
          "spirv-val 2023.1 do not take them"),
      llvm::cl::init(false)};
  BoolOption tensorCoreEmulation{
      *this, "tensor-core-emulation",
      llvm::cl::desc(
          "For testing: build f16/bf16 contractions as the NVVM backend's "
          "tensor-core kernels and run their warp-level ops through "
          "workgroup memory (amp-emulate-tensor-cores), so that any Vulkan "
          "device checks their results; slow"),
      llvm::cl::init(false)};
  BoolOption tf32{
      *this, "tf32",
      llvm::cl::desc("With tensor-core-emulation: f32 contractions too, as "
                     "the NVVM backend's TF32 kernels"),
      llvm::cl::init(false)};
};

/// What amp-lower-to-nvvm embeds in gpu.binary ops (gpu-module-to-binary's
/// compilation targets).
enum class NVVMFormat { Bin, Isa, Fatbin };

/// The name gpu-module-to-binary takes for `format`: bin, isa or fatbin.
llvm::StringRef stringifyNVVMFormat(NVVMFormat format);
inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os, NVVMFormat format) {
  return os << stringifyNVVMFormat(format);
}

struct LowerToNVVMOptions : public PassPipelineOptions<LowerToNVVMOptions> {
  AMP_GPU_KERNEL_STRATEGIES_OPTION
  BoolOption tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc(
          "f16/bf16 contractions with f32 accumulators on tensor cores "
          "(amp-tile-contractions-for-tensor-cores: mma.sync, ldmatrix, "
          "cp.async) on sm_80 and later; false leaves them to the SIMT "
          "kernel. f32 contractions stay on the SIMT kernel unless tf32"),
      llvm::cl::init(true)};
  BoolOption tf32{
      *this, "tf32",
      llvm::cl::desc(
          "With tensor-cores: f32 contractions too, on TF32 tensor cores "
          "(operands rounded to 10 mantissa bits; results are no longer "
          "those of f32 arithmetic). Off by default: f32 stays exact"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target GPU (sm_80 and later compute bf16)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (sm_90 needs +ptx80 or newer)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<NVVMFormat, CheckedEnumParser<NVVMFormat>> format{
      *this, "format", llvm::cl::desc("What the gpu.binary ops hold"),
      llvm::cl::init(NVVMFormat::Bin),
      llvm::cl::values(
          clEnumValN(NVVMFormat::Bin, "bin",
                     "cubins, through the CUDA Toolkit's ptxas"),
          clEnumValN(NVVMFormat::Isa, "isa",
                     "PTX text, compiled by the driver when loaded"),
          clEnumValN(NVVMFormat::Fatbin, "fatbin",
                     "fat binaries of cubins and PTX"))};
  PassOptions::Option<std::string> libdevice{
      *this, "libdevice",
      llvm::cl::desc("The CUDA Toolkit's libdevice.10.bc, linked into the "
                     "kernels for their math functions (default: found "
                     "under $CUDA_ROOT, $CUDA_HOME or $CUDA_PATH, next to "
                     "ptxas on $PATH, or in /usr/local/cuda)")};
};

/// The CUDA Toolkit's libdevice.10.bc: under $CUDA_ROOT, $CUDA_HOME or
/// $CUDA_PATH, beside the ptxas found on $PATH, under /usr/local/cuda or in
/// Debian's /usr/lib/nvidia-cuda-toolkit; empty when there is none.
std::string findLibdevice();

/// Checks `options`: a chip `sm_<N>` with N >= 20 and, when
/// given, a libdevice file that exists.
LogicalResult
verifyLowerToNVVMOptions(const LowerToNVVMOptions &options,
                         function_ref<LogicalResult(const Twine &)> emitError);

/// NVIDIA GPUs: the kernels above on buffers, parallel loops mapped to GPU
/// blocks and threads, kernels outlined, and the GPU dialect lowered to NVVM,
/// PTX and (with format=bin) cubins embedded in gpu.binary ops.
void buildAmpLowerToNVVMPipeline(OpPassManager &pm,
                                 const LowerToNVVMOptions &options);

/// Vulkan / SPIR-V: the kernels above on buffers, mapped to workgroups of
/// up to 64 invocations, outlined, bf16 kept as i16 and computed in f32,
/// given a SPIR-V target environment with f16 arithmetic and 16-bit storage,
/// and converted to spirv.module ops (serialise them with
/// `mlir-translate --serialize-spirv`).
void buildAmpLowerToSPIRVPipeline(OpPassManager &pm,
                                  const LowerToSPIRVOptions &options = {});

/// Vulkan, runnable: the SPIR-V pipeline above, then each kernel serialised
/// into a gpu.binary and the host lowered to the LLVM dialect, launching
/// kernels with one (pointer, size in bytes) pair per buffer argument. Run it
/// with mlir-runner or the ExecutionEngine and libamp_vulkan_runtime.so
/// (docs/Vulkan.md).
void buildAmpLowerToVulkanPipeline(OpPassManager &pm,
                                   const LowerToSPIRVOptions &options = {});

/// Registers `amp-fuse-kernels`, `amp-lower-to-llvm`, `amp-lower-to-nvvm`,
/// `amp-lower-to-spirv` and `amp-lower-to-vulkan`.
void registerAmpPipelines();

} // namespace amp
} // namespace mlir

#endif // AMP_PIPELINES_PIPELINES_H

# -*- Python -*-
# lit configuration for amp's regression tests.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "AMP"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".py"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs",
                   "compare.py", "validate_spirv.py"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.amp_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))
config.substitutions.append(
    ("%amp_plugin", os.path.join(config.amp_obj_root, "lib", "amp-plugin.so")))
config.substitutions.append(("%mlir_lib_dir", config.llvm_lib_dir))
config.substitutions.append(
    ("%amp_opt", os.path.join(config.amp_obj_root, "bin", "amp-opt")))
config.substitutions.append(("%amp_bin", os.path.join(config.amp_obj_root, "bin")))
# The C API library that python/amp loads, and the folder holding python/amp.
config.substitutions.append(
    ("%amp_capi_lib", os.path.join(config.amp_obj_root, "lib",
                                   "libAmpCAPI" + config.llvm_shlib_ext)))
config.substitutions.append(
    ("%amp_python_path", os.path.join(config.amp_src_root, "python")))
config.substitutions.append(("%amp_src_root", config.amp_src_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# amp-run's compile cache: one for the suite, in the build tree (a program
# several tests run is compiled once), never the user's; the tests of the
# cache itself set AMP_CACHE_DIR to a folder of their own.
config.environment["AMP_CACHE_DIR"] = os.path.join(config.amp_obj_root, "test",
                                                   "amp-cache")
config.environment.pop("AMP_NO_CACHE", None)

amp_tools_dir = os.path.join(config.amp_obj_root, "bin")
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tools = [
    ToolSubst("amp-opt", os.path.join(amp_tools_dir, "amp-opt"), unresolved="fatal"),
    ToolSubst("amp-run", os.path.join(amp_tools_dir, "amp-run"), unresolved="fatal"),
    ToolSubst("amp-compile", os.path.join(amp_tools_dir, "amp-compile"), unresolved="fatal"),
    ToolSubst("amp-vulkan-probe", os.path.join(amp_tools_dir, "amp-vulkan-probe"), unresolved="ignore"),
    ToolSubst("amp-capi-test", os.path.join(amp_tools_dir, "amp-capi-test"), unresolved="fatal"),
    ToolSubst("mlir-opt", os.path.join(config.llvm_tools_dir, "mlir-opt"), unresolved="fatal"),
    ToolSubst("mlir-runner", os.path.join(config.llvm_tools_dir, "mlir-runner"), unresolved="ignore"),
    ToolSubst("mlir-translate", os.path.join(config.llvm_tools_dir, "mlir-translate"), unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, [amp_tools_dir, config.llvm_tools_dir])

if os.path.exists(os.path.join(config.llvm_tools_dir, "mlir-runner")):
    config.available_features.add("mlir-runner")
if shutil.which("spirv-val"):
    config.available_features.add("spirv-val")
if shutil.which("dot"):
    config.available_features.add("graphviz")
if config.amp_has_ptxas:
    config.available_features.add("ptxas")

# The accuracy benchmark's packages (bench/setup.sh): scikit-learn for the
# digits data, ONNX for the importer. CI without them skips those tests.
import subprocess
if subprocess.run(["/usr/bin/python3", "-c", "import numpy, onnx, sklearn"],
                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
    config.available_features.add("bench-digits")

# amp-run's CUDA backend loads the driver at run time; without it, it must
# fail with a clear message.
def _loads(library):
    import ctypes
    try:
        ctypes.CDLL(library)
        return True
    except OSError:
        return False

# amp-run's Vulkan backend needs a Vulkan device (lavapipe on CPU-only
# machines); amp-vulkan-probe says whether there is one.
_probe = os.path.join(amp_tools_dir, "amp-vulkan-probe")
if "vulkan" not in config.available_features and os.path.exists(_probe):
    import subprocess
    _run = subprocess.run([_probe], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, universal_newlines=True)
    if _run.returncode == 0:
        config.available_features.add("vulkan")
        # Shuffles within subgroups of the device's size
        # (amp-lower-to-vulkan{subgroup-size=N}).
        import re
        _size = re.search(r"subgroupSize (\d+)", _run.stdout)
        if _size and "subgroupShuffle" in _run.stdout:
            config.available_features.add("vulkan-subgroup-shuffle")
            config.substitutions.append(
                ("%vulkan_subgroup_size", _size.group(1)))
# amp's Vulkan runtime, for mlir-runner --shared-libs.
config.substitutions.append(
    ("%amp_vulkan_runtime", os.path.join(config.amp_obj_root, "lib",
                                         "libamp_vulkan_runtime" + config.llvm_shlib_ext)))

if shutil.which("cc"):
    config.available_features.add("cc")

if _loads("libcuda.so.1"):
    config.available_features.add("cuda-driver")
else:
    config.available_features.add("no-cuda-driver")


def _has_cuda_device():
    """A CUDA driver that initialises and has a device: the tests that run
    kernels (cuda-gpu) need one; CI machines have none."""
    import ctypes
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
        count = ctypes.c_int(0)
        return (cuda.cuInit(0) == 0 and
                cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and
                count.value > 0)
    except (OSError, AttributeError):
        return False


if "cuda-driver" in config.available_features and _has_cuda_device():
    config.available_features.add("cuda-gpu")


def _find_libdevice():
    """The CUDA Toolkit's libdevice where amp-lower-to-nvvm looks for it
    (amp::findLibdevice)."""
    roots = [os.environ[v] for v in ("CUDA_ROOT", "CUDA_HOME", "CUDA_PATH")
             if v in os.environ]
    ptxas = shutil.which("ptxas")
    if ptxas:
        roots.append(os.path.dirname(os.path.dirname(os.path.realpath(ptxas))))
    roots.append("/usr/local/cuda")
    files = [os.path.join(r, "nvvm", "libdevice", "libdevice.10.bc") for r in roots]
    files.append("/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc")
    return next((f for f in files if os.path.isfile(f)), None)


_libdevice = _find_libdevice()
if _libdevice:
    config.available_features.add("libdevice")
    config.substitutions.append(("%libdevice", _libdevice))

# ONNX Runtime (scripts/setup-reference.sh) as the reference for imported
# ONNX models.
if shutil.which("node") and os.path.isdir(os.path.join(
        config.amp_src_root, "tools", "onnx", "ort", "node_modules",
        "onnxruntime-node")):
    config.available_features.add("onnxruntime")

# An x86 host: amp's model of x86 CPUs has no f16 arithmetic units on any
# of them (lib/Backend/CPU/CPUTarget.cpp).
import platform as _platform
if _platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("host-x86")

# A CPU with the AVX512-BF16 dot product (amp-run then uses it for bf16
# contractions).
try:
    with open("/proc/cpuinfo") as _cpuinfo:
        _flags = _cpuinfo.read().split()
    if "avx512_bf16" in _flags and "avx512vl" in _flags:
        config.available_features.add("avx512bf16")
    # AVX2 and FMA: code compiled for haswell runs here (amp-run --cpu).
    if "avx2" in _flags and "fma" in _flags:
        config.available_features.add("avx2")
except OSError:
    pass

# A host whose bf16 dot product outruns f32 fused multiply-adds: there
# `target=cpu` lets bf16 contractions compute low. The chips are those of
# hasFastBF16Dot in lib/Backend/CPU/CPUTarget.cpp; the host's chip is LLVM's
# name for it (llc --version).
try:
    _llc = subprocess.run([os.path.join(config.llvm_tools_dir, "llc"), "--version"],
                          capture_output=True, text=True).stdout
    for _line in _llc.splitlines():
        if _line.strip().startswith("Host CPU:") and \
                _line.split(":", 1)[1].strip() in ("znver4",):
            config.available_features.add("bf16-dot-pays")
except OSError:
    pass

# A sanitizer build (-DAMP_SANITIZE=address,...): processes that are not
# instrumented themselves (Python, mlir-runner) load amp's instrumented
# libraries, so the ASan runtime is preloaded everywhere. Leak checking is
# off: Python and LLVM's JIT keep memory until exit by design.
if getattr(config, "amp_sanitizer_runtime", ""):
    config.environment["LD_PRELOAD"] = config.amp_sanitizer_runtime
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=1"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    config.available_features.add("sanitized")
    config.substitutions.append(
        ("%asan_rss", "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:"
                      "quarantine_size_mb=0:thread_local_quarantine_size_kb=0"))
else:
    config.substitutions.append(("%asan_rss", ""))

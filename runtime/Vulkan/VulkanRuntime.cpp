//===- VulkanRuntime.cpp - amp's Vulkan compute runtime -------------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One Vulkan device per process, chosen once (a discrete GPU first, then
// integrated, virtual and CPU devices such as Mesa's lavapipe; the
// AMP_VULKAN_DEVICE environment variable picks a device by name). Every
// launch copies the kernel's host buffers into host-visible storage buffers,
// dispatches, waits and copies them back, so kernels work on plain host
// memory as amp's host code allocates it.
//
//===----------------------------------------------------------------------===//

#include "VulkanRuntime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>

using namespace amp::vulkan;

void amp::vulkan::fail(const std::string &message) {
  std::fprintf(stderr, "amp vulkan runtime: %s\n", message.c_str());
  std::fflush(stderr);
  std::exit(1);
}

static std::string resultString(VkResult result) {
  switch (result) {
  case VK_ERROR_OUT_OF_HOST_MEMORY:
    return "VK_ERROR_OUT_OF_HOST_MEMORY";
  case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
  case VK_ERROR_INITIALIZATION_FAILED:
    return "VK_ERROR_INITIALIZATION_FAILED";
  case VK_ERROR_DEVICE_LOST:
    return "VK_ERROR_DEVICE_LOST";
  case VK_ERROR_EXTENSION_NOT_PRESENT:
    return "VK_ERROR_EXTENSION_NOT_PRESENT";
  case VK_ERROR_FEATURE_NOT_PRESENT:
    return "VK_ERROR_FEATURE_NOT_PRESENT";
  case VK_ERROR_INCOMPATIBLE_DRIVER:
    return "VK_ERROR_INCOMPATIBLE_DRIVER";
  case VK_ERROR_INVALID_SHADER_NV:
    return "VK_ERROR_INVALID_SHADER_NV";
  default:
    return "VkResult " + std::to_string(static_cast<int>(result));
  }
}

/// Fails with `what` and the result unless `result` is VK_SUCCESS.
static void check(VkResult result, const char *what) {
  if (result != VK_SUCCESS)
    fail(std::string(what) + " failed: " + resultString(result));
}

//===----------------------------------------------------------------------===//
// SPIR-V
//===----------------------------------------------------------------------===//

namespace {
constexpr uint32_t kSPIRVMagic = 0x07230203;
constexpr uint32_t kOpEntryPoint = 15;
constexpr uint32_t kOpCapability = 17;

// Capabilities whose use depends on an optional Vulkan feature.
constexpr uint32_t kCapFloat16 = 9;
constexpr uint32_t kCapFloat64 = 10;
constexpr uint32_t kCapInt64 = 11;
constexpr uint32_t kCapInt16 = 22;
constexpr uint32_t kCapInt8 = 39;
constexpr uint32_t kCapStorageBuffer16BitAccess = 4433;
constexpr uint32_t kCapUniformAndStorageBuffer16BitAccess = 4434;
constexpr uint32_t kCapStorageBuffer8BitAccess = 4448;
} // namespace

bool amp::vulkan::parseSPIRV(const std::vector<uint32_t> &words,
                             SPIRVModuleInfo &info, std::string &error) {
  if (words.size() < 5 || words[0] != kSPIRVMagic) {
    error = "the kernel binary is not SPIR-V (no SPIR-V magic number)";
    return false;
  }
  info.version = words[1];
  for (size_t i = 5; i < words.size();) {
    uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (count == 0 || i + count > words.size()) {
      error = "the kernel binary is truncated SPIR-V";
      return false;
    }
    if (opcode == kOpCapability && count >= 2)
      info.capabilities.push_back(words[i + 1]);
    if (opcode == kOpEntryPoint && count >= 4) {
      // Execution model, function id, then a nul-terminated UTF-8 literal.
      const char *chars = reinterpret_cast<const char *>(&words[i + 3]);
      info.entryPoints.emplace_back(
          chars, strnlen(chars, (count - 3) * sizeof(uint32_t)));
    }
    i += count;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

namespace amp {
namespace vulkan {
/// The instance, device, queue and the optional features that were enabled.
class Device {
public:
  /// The process's device; fails when there is none.
  static Device &get();

  /// Creates a device, or returns null with the reason in `error`.
  static std::unique_ptr<Device> create(std::string &error);

  /// Fails unless the device can run a module declaring `info`.
  void checkSupports(const SPIRVModuleInfo &info, const std::string &kernel);

  std::string describe() const;

  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memory{};
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  std::mutex mutex;

  // Enabled optional features.
  bool shaderFloat16 = false, shaderInt8 = false, shaderInt16 = false,
       shaderInt64 = false, shaderFloat64 = false,
       storageBuffer16BitAccess = false,
       uniformAndStorageBuffer16BitAccess = false,
       storageBuffer8BitAccess = false;
  // The subgroup size, and whether compute shaders may shuffle within a
  // subgroup.
  uint32_t subgroupSize = 0;
  bool subgroupShuffle = false;
};
} // namespace vulkan
} // namespace amp

static bool hasExtension(const std::vector<VkExtensionProperties> &extensions,
                         const char *name) {
  return std::any_of(extensions.begin(), extensions.end(),
                     [&](const VkExtensionProperties &e) {
                       return std::strcmp(e.extensionName, name) == 0;
                     });
}

static const char *typeName(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    return "discrete GPU";
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    return "integrated GPU";
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return "virtual GPU";
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    return "CPU";
  default:
    return "other";
  }
}

/// Lower is preferred: discrete, integrated, virtual, CPU, other.
static int rank(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    return 0;
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    return 1;
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return 2;
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    return 3;
  default:
    return 4;
  }
}

std::string Device::describe() const {
  std::ostringstream os;
  os << properties.deviceName << " (" << typeName(properties.deviceType)
     << ", Vulkan " << VK_API_VERSION_MAJOR(properties.apiVersion) << "."
     << VK_API_VERSION_MINOR(properties.apiVersion) << ")";
  return os.str();
}

std::unique_ptr<Device> Device::create(std::string &error) {
  // The loader and some drivers warn without a runtime directory.
  if (!std::getenv("XDG_RUNTIME_DIR"))
    setenv("XDG_RUNTIME_DIR", "/tmp", /*overwrite=*/0);

  uint32_t loaderVersion = VK_API_VERSION_1_0;
  if (vkEnumerateInstanceVersion(&loaderVersion) != VK_SUCCESS ||
      loaderVersion < VK_API_VERSION_1_1) {
    error = "the Vulkan loader is older than Vulkan 1.1";
    return nullptr;
  }
  auto device = std::make_unique<Device>();
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "amp";
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instanceInfo.pApplicationInfo = &app;
  if (VkResult r = vkCreateInstance(&instanceInfo, nullptr, &device->instance);
      r != VK_SUCCESS) {
    error = "no Vulkan device (vkCreateInstance: " + resultString(r) +
            "; is a Vulkan driver such as Mesa's lavapipe installed?)";
    return nullptr;
  }

  uint32_t count = 0;
  vkEnumeratePhysicalDevices(device->instance, &count, nullptr);
  std::vector<VkPhysicalDevice> physicals(count);
  if (count)
    vkEnumeratePhysicalDevices(device->instance, &count, physicals.data());

  // The preferred device with Vulkan 1.1 and a compute queue.
  const char *wanted = std::getenv("AMP_VULKAN_DEVICE");
  int bestRank = 1 << 30;
  std::string seen;
  for (VkPhysicalDevice physical : physicals) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(physical, &props);
    seen += std::string(seen.empty() ? "" : ", ") + props.deviceName;
    if (props.apiVersion < VK_API_VERSION_1_1)
      continue;
    if (wanted && *wanted && !std::strstr(props.deviceName, wanted))
      continue;
    uint32_t numFamilies = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &numFamilies, nullptr);
    std::vector<VkQueueFamilyProperties> families(numFamilies);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &numFamilies,
                                             families.data());
    int family = -1;
    for (uint32_t i = 0; i < numFamilies && family < 0; ++i)
      if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
        family = static_cast<int>(i);
    if (family < 0 || rank(props.deviceType) >= bestRank)
      continue;
    bestRank = rank(props.deviceType);
    device->physical = physical;
    device->properties = props;
    device->queueFamily = static_cast<uint32_t>(family);
  }
  if (!device->physical) {
    if (physicals.empty())
      error = "no Vulkan device";
    else if (wanted && *wanted)
      error = std::string("no Vulkan device matching AMP_VULKAN_DEVICE='") +
              wanted +
              "' with Vulkan 1.1 and a compute queue (devices: " + seen + ")";
    else
      error = "no Vulkan device with Vulkan 1.1 and a compute queue "
              "(devices: " +
              seen + ")";
    vkDestroyInstance(device->instance, nullptr);
    return nullptr;
  }
  vkGetPhysicalDeviceMemoryProperties(device->physical, &device->memory);

  // Optional features: everything amp's kernels may use that the device has.
  uint32_t numExtensions = 0;
  vkEnumerateDeviceExtensionProperties(device->physical, nullptr,
                                       &numExtensions, nullptr);
  std::vector<VkExtensionProperties> extensions(numExtensions);
  vkEnumerateDeviceExtensionProperties(device->physical, nullptr,
                                       &numExtensions, extensions.data());
  bool core12 = device->properties.apiVersion >= VK_API_VERSION_1_2;
  std::vector<const char *> enabledExtensions;
  bool haveFloat16Int8 =
      core12 || hasExtension(extensions, "VK_KHR_shader_float16_int8");
  bool have8BitStorage =
      core12 || hasExtension(extensions, "VK_KHR_8bit_storage");
  if (!core12 && haveFloat16Int8)
    enabledExtensions.push_back("VK_KHR_shader_float16_int8");
  if (!core12 && have8BitStorage)
    enabledExtensions.push_back("VK_KHR_8bit_storage");

  VkPhysicalDevice16BitStorageFeatures storage16{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  VkPhysicalDeviceShaderFloat16Int8Features float16Int8{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
  VkPhysicalDevice8BitStorageFeatures storage8{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
  VkPhysicalDeviceFeatures2 features{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  void **next = &features.pNext;
  auto chain = [&](auto &s) {
    *next = &s;
    next = &s.pNext;
  };
  chain(storage16);
  if (haveFloat16Int8)
    chain(float16Int8);
  if (have8BitStorage)
    chain(storage8);
  vkGetPhysicalDeviceFeatures2(device->physical, &features);
  // (amp-lower-to-vulkan{subgroup-size=N} needs shuffles in compute
  // shaders and N the subgroup size.)
  VkPhysicalDeviceSubgroupProperties subgroups{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 properties2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties2.pNext = &subgroups;
  vkGetPhysicalDeviceProperties2(device->physical, &properties2);
  device->subgroupSize = subgroups.subgroupSize;
  device->subgroupShuffle =
      (subgroups.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
      (subgroups.supportedOperations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT);

  // Enable exactly the features listed here (and nothing else that the
  // query returned).
  VkPhysicalDeviceFeatures2 enabled{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  enabled.features.shaderInt16 = features.features.shaderInt16;
  enabled.features.shaderInt64 = features.features.shaderInt64;
  enabled.features.shaderFloat64 = features.features.shaderFloat64;
  VkPhysicalDevice16BitStorageFeatures enabled16{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  enabled16.storageBuffer16BitAccess = storage16.storageBuffer16BitAccess;
  enabled16.uniformAndStorageBuffer16BitAccess =
      storage16.uniformAndStorageBuffer16BitAccess;
  VkPhysicalDeviceShaderFloat16Int8Features enabledF16{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
  enabledF16.shaderFloat16 = haveFloat16Int8 && float16Int8.shaderFloat16;
  enabledF16.shaderInt8 = haveFloat16Int8 && float16Int8.shaderInt8;
  VkPhysicalDevice8BitStorageFeatures enabled8{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
  enabled8.storageBuffer8BitAccess =
      have8BitStorage && storage8.storageBuffer8BitAccess;
  enabled.pNext = &enabled16;
  void **enabledNext = &enabled16.pNext;
  if (haveFloat16Int8) {
    *enabledNext = &enabledF16;
    enabledNext = &enabledF16.pNext;
  }
  if (have8BitStorage)
    *enabledNext = &enabled8;

  // AMP_VULKAN_DISABLE=<feature>,...: act as if the device lacked these
  // optional features (to check how kernels that need them fail).
  if (const char *disable = std::getenv("AMP_VULKAN_DISABLE")) {
    std::string list = std::string(",") + disable + ",";
    auto off = [&](const char *name, VkBool32 &feature) {
      if (list.find(std::string(",") + name + ",") != std::string::npos)
        feature = VK_FALSE;
    };
    off("shaderInt16", enabled.features.shaderInt16);
    off("shaderInt64", enabled.features.shaderInt64);
    off("shaderFloat64", enabled.features.shaderFloat64);
    off("storageBuffer16BitAccess", enabled16.storageBuffer16BitAccess);
    off("uniformAndStorageBuffer16BitAccess",
        enabled16.uniformAndStorageBuffer16BitAccess);
    off("shaderFloat16", enabledF16.shaderFloat16);
    off("shaderInt8", enabledF16.shaderInt8);
    off("storageBuffer8BitAccess", enabled8.storageBuffer8BitAccess);
  }
  device->shaderInt16 = enabled.features.shaderInt16;
  device->shaderInt64 = enabled.features.shaderInt64;
  device->shaderFloat64 = enabled.features.shaderFloat64;
  device->storageBuffer16BitAccess = enabled16.storageBuffer16BitAccess;
  device->uniformAndStorageBuffer16BitAccess =
      enabled16.uniformAndStorageBuffer16BitAccess;
  device->shaderFloat16 = enabledF16.shaderFloat16;
  device->shaderInt8 = enabledF16.shaderInt8;
  device->storageBuffer8BitAccess = enabled8.storageBuffer8BitAccess;

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = device->queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  deviceInfo.pNext = &enabled;
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.enabledExtensionCount =
      static_cast<uint32_t>(enabledExtensions.size());
  deviceInfo.ppEnabledExtensionNames = enabledExtensions.data();
  if (VkResult r = vkCreateDevice(device->physical, &deviceInfo, nullptr,
                                  &device->device);
      r != VK_SUCCESS) {
    error = "cannot open Vulkan device " + device->describe() + ": " +
            resultString(r);
    vkDestroyInstance(device->instance, nullptr);
    return nullptr;
  }
  vkGetDeviceQueue(device->device, device->queueFamily, 0, &device->queue);

  VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  poolInfo.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  poolInfo.queueFamilyIndex = device->queueFamily;
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (vkCreateCommandPool(device->device, &poolInfo, nullptr,
                          &device->commandPool) != VK_SUCCESS ||
      vkCreateFence(device->device, &fenceInfo, nullptr, &device->fence) !=
          VK_SUCCESS) {
    error = "cannot create a command pool and fence on " + device->describe();
    return nullptr;
  }
  return device;
}

int amp::vulkan::subgroupShuffleSize() {
  Device &device = Device::get();
  return device.subgroupShuffle ? static_cast<int>(device.subgroupSize) : 0;
}

Device &Device::get() {
  // Never destroyed: modules are unloaded by the program's global
  // destructors, whose order relative to this object's is not fixed.
  static Device *device = [] {
    std::string error;
    std::unique_ptr<Device> created = Device::create(error);
    if (!created)
      fail(error);
    if (std::getenv("AMP_VULKAN_VERBOSE"))
      std::fprintf(stderr, "amp vulkan runtime: using %s\n",
                   created->describe().c_str());
    return created.release();
  }();
  return *device;
}

void Device::checkSupports(const SPIRVModuleInfo &info,
                           const std::string &kernel) {
  // SPIR-V versions by Vulkan version: 1.0 -> 1.0, 1.1 -> 1.3, 1.2 -> 1.5,
  // 1.3 -> 1.6.
  uint32_t major = (info.version >> 16) & 0xff,
           minor = (info.version >> 8) & 0xff;
  uint32_t vkMinor = VK_API_VERSION_MINOR(properties.apiVersion);
  uint32_t maxMinor = vkMinor >= 3 ? 6 : vkMinor == 2 ? 5 : 3;
  if (major != 1 || minor > maxMinor)
    fail("kernel '" + kernel + "' is SPIR-V " + std::to_string(major) + "." +
         std::to_string(minor) + ", newer than " + describe() + " accepts");
  for (uint32_t cap : info.capabilities) {
    const char *feature = nullptr;
    bool have = true;
    switch (cap) {
    case kCapFloat16:
      feature = "shaderFloat16", have = shaderFloat16;
      break;
    case kCapFloat64:
      feature = "shaderFloat64", have = shaderFloat64;
      break;
    case kCapInt64:
      feature = "shaderInt64", have = shaderInt64;
      break;
    case kCapInt16:
      feature = "shaderInt16", have = shaderInt16;
      break;
    case kCapInt8:
      feature = "shaderInt8", have = shaderInt8;
      break;
    case kCapStorageBuffer16BitAccess:
      feature = "storageBuffer16BitAccess", have = storageBuffer16BitAccess;
      break;
    case kCapUniformAndStorageBuffer16BitAccess:
      feature = "uniformAndStorageBuffer16BitAccess",
      have = uniformAndStorageBuffer16BitAccess;
      break;
    case kCapStorageBuffer8BitAccess:
      feature = "storageBuffer8BitAccess", have = storageBuffer8BitAccess;
      break;
    default:
      break;
    }
    if (!have)
      fail("kernel '" + kernel + "' needs the Vulkan feature " + feature +
           ", which " + describe() + " does not have");
  }
}

bool amp::vulkan::probe(std::string &description) {
  std::unique_ptr<Device> device = Device::create(description);
  if (!device)
    return false;
  description = device->describe();
  description += device->shaderFloat16 ? ", shaderFloat16" : "";
  description += device->shaderInt16 ? ", shaderInt16" : "";
  description += device->shaderInt64 ? ", shaderInt64" : "";
  description +=
      device->storageBuffer16BitAccess ? ", storageBuffer16BitAccess" : "";
  description += ", subgroupSize " + std::to_string(device->subgroupSize);
  description += device->subgroupShuffle ? ", subgroupShuffle" : "";
  vkDestroyFence(device->device, device->fence, nullptr);
  vkDestroyCommandPool(device->device, device->commandPool, nullptr);
  vkDestroyDevice(device->device, nullptr);
  vkDestroyInstance(device->instance, nullptr);
  return true;
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Module::Module(const void *data, size_t bytes) {
  if (!data || bytes % sizeof(uint32_t))
    fail("the kernel binary (" + std::to_string(bytes) +
         " bytes) is not a whole number of SPIR-V words");
  words.resize(bytes / sizeof(uint32_t));
  std::memcpy(words.data(), data, bytes);
  std::string error;
  if (!parseSPIRV(words, info, error))
    fail(error);
  // AMP_VULKAN_DUMP_SPIRV=<dir>: keep each loaded binary as
  // <dir>/module<N>.spv (for spirv-val, spirv-dis).
  if (const char *dir = std::getenv("AMP_VULKAN_DUMP_SPIRV")) {
    static int count = 0;
    std::string path =
        std::string(dir) + "/module" + std::to_string(count++) + ".spv";
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(data, 1, bytes, f) != bytes || std::fclose(f))
      fail("cannot write " + path);
  }
}

Module::~Module() {
  if (shader == VK_NULL_HANDLE)
    return;
  Device &device = Device::get();
  std::lock_guard<std::mutex> lock(device.mutex);
  for (auto &entry : pipelines) {
    vkDestroyPipeline(device.device, entry.second.pipeline, nullptr);
    vkDestroyPipelineLayout(device.device, entry.second.layout, nullptr);
    vkDestroyDescriptorSetLayout(device.device, entry.second.setLayout,
                                 nullptr);
  }
  vkDestroyShaderModule(device.device, shader, nullptr);
}

Kernel *Module::getKernel(const char *name) {
  for (const std::unique_ptr<Kernel> &kernel : kernels)
    if (kernel->name == name)
      return kernel.get();
  if (std::find(info.entryPoints.begin(), info.entryPoints.end(), name) ==
      info.entryPoints.end()) {
    std::string known;
    for (const std::string &e : info.entryPoints)
      known += (known.empty() ? "" : ", ") + e;
    fail(std::string("no kernel '") + name + "' in the SPIR-V module " +
         "(entry points: " + (known.empty() ? "none" : known) + ")");
  }
  kernels.push_back(std::make_unique<Kernel>(Kernel{this, name}));
  return kernels.back().get();
}

const Pipeline &Module::getPipeline(Device &device, const std::string &entry,
                                    size_t numBindings) {
  auto key = std::make_pair(entry, numBindings);
  auto it = pipelines.find(key);
  if (it != pipelines.end())
    return it->second;

  if (shader == VK_NULL_HANDLE) {
    device.checkSupports(info, entry);
    VkShaderModuleCreateInfo shaderInfo{
        VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    shaderInfo.codeSize = words.size() * sizeof(uint32_t);
    shaderInfo.pCode = words.data();
    check(vkCreateShaderModule(device.device, &shaderInfo, nullptr, &shader),
          "vkCreateShaderModule");
  }

  Pipeline pipeline;
  std::vector<VkDescriptorSetLayoutBinding> bindings(numBindings);
  for (size_t i = 0; i < numBindings; ++i) {
    bindings[i].binding = static_cast<uint32_t>(i);
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo setInfo{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  setInfo.bindingCount = static_cast<uint32_t>(numBindings);
  setInfo.pBindings = bindings.data();
  check(vkCreateDescriptorSetLayout(device.device, &setInfo, nullptr,
                                    &pipeline.setLayout),
        "vkCreateDescriptorSetLayout");
  VkPipelineLayoutCreateInfo layoutInfo{
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &pipeline.setLayout;
  check(vkCreatePipelineLayout(device.device, &layoutInfo, nullptr,
                               &pipeline.layout),
        "vkCreatePipelineLayout");
  VkComputePipelineCreateInfo pipelineInfo{
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipelineInfo.stage.sType =
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipelineInfo.stage.module = shader;
  pipelineInfo.stage.pName = entry.c_str();
  pipelineInfo.layout = pipeline.layout;
  if (VkResult r =
          vkCreateComputePipelines(device.device, VK_NULL_HANDLE, 1,
                                   &pipelineInfo, nullptr, &pipeline.pipeline);
      r != VK_SUCCESS)
    fail("cannot create the compute pipeline of kernel '" + entry + "' on " +
         device.describe() + ": " + resultString(r));
  return pipelines.emplace(key, pipeline).first->second;
}

namespace {
/// A host-visible storage buffer holding a copy of one host buffer.
struct DeviceBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void *mapped = nullptr;
  HostBuffer host{};
};
} // namespace

static uint32_t findMemoryType(Device &device, uint32_t typeBits,
                               VkMemoryPropertyFlags flags) {
  for (uint32_t i = 0; i < device.memory.memoryTypeCount; ++i)
    if ((typeBits & (1u << i)) &&
        (device.memory.memoryTypes[i].propertyFlags & flags) == flags)
      return i;
  fail("no host-visible, coherent memory for storage buffers on " +
       device.describe());
}

static DeviceBuffer createBuffer(Device &device, HostBuffer host) {
  DeviceBuffer result;
  result.host = host;
  // Vulkan has no empty buffers; sizes are rounded to whole words.
  VkDeviceSize size = std::max<VkDeviceSize>(4, (host.bytes + 3) & ~size_t(3));
  if (size > device.properties.limits.maxStorageBufferRange)
    fail("a kernel buffer of " + std::to_string(host.bytes) +
         " bytes exceeds maxStorageBufferRange (" +
         std::to_string(device.properties.limits.maxStorageBufferRange) +
         ") of " + device.describe());
  VkBufferCreateInfo bufferInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bufferInfo.size = size;
  bufferInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(device.device, &bufferInfo, nullptr, &result.buffer),
        "vkCreateBuffer");
  VkMemoryRequirements needs;
  vkGetBufferMemoryRequirements(device.device, result.buffer, &needs);
  VkMemoryAllocateInfo allocInfo{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocInfo.allocationSize = needs.size;
  allocInfo.memoryTypeIndex =
      findMemoryType(device, needs.memoryTypeBits,
                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                         VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  check(vkAllocateMemory(device.device, &allocInfo, nullptr, &result.memory),
        "vkAllocateMemory");
  check(vkBindBufferMemory(device.device, result.buffer, result.memory, 0),
        "vkBindBufferMemory");
  check(vkMapMemory(device.device, result.memory, 0, VK_WHOLE_SIZE, 0,
                    &result.mapped),
        "vkMapMemory");
  std::memset(result.mapped, 0, size);
  if (host.bytes)
    std::memcpy(result.mapped, host.data, host.bytes);
  return result;
}

void Module::launch(Kernel &kernel, const uint32_t grid[3],
                    const std::vector<HostBuffer> &buffers) {
  Device &device = Device::get();
  std::lock_guard<std::mutex> lock(device.mutex);
  const VkPhysicalDeviceLimits &limits = device.properties.limits;
  for (int d = 0; d < 3; ++d)
    if (grid[d] == 0 || grid[d] > limits.maxComputeWorkGroupCount[d])
      fail("kernel '" + kernel.name + "': " + std::to_string(grid[d]) +
           " workgroups in dimension " + std::to_string(d) +
           " (the device allows 1 to " +
           std::to_string(limits.maxComputeWorkGroupCount[d]) + ")");

  // One device buffer per distinct host buffer: a buffer passed twice is
  // bound twice to the same copy; partly overlapping ones cannot be copied
  // separately without losing writes.
  std::vector<size_t> bufferOf(buffers.size());
  std::vector<HostBuffer> distinct;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const HostBuffer &b = buffers[i];
    size_t found = distinct.size();
    for (size_t j = 0; j < distinct.size(); ++j) {
      const char *p = static_cast<const char *>(b.data);
      const char *q = static_cast<const char *>(distinct[j].data);
      if (p == q && b.bytes == distinct[j].bytes) {
        found = j;
        break;
      }
      if (p < q + distinct[j].bytes && q < p + b.bytes)
        fail("kernel '" + kernel.name + "': buffer arguments " +
             std::to_string(j) + " and " + std::to_string(i) +
             " overlap partly, which the runtime does not support");
    }
    if (found == distinct.size())
      distinct.push_back(b);
    bufferOf[i] = found;
  }

  const Pipeline &pipeline = getPipeline(device, kernel.name, buffers.size());

  std::vector<DeviceBuffer> deviceBuffers;
  for (const HostBuffer &b : distinct)
    deviceBuffers.push_back(createBuffer(device, b));

  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
  if (!buffers.empty()) {
    VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                  static_cast<uint32_t>(buffers.size())};
    VkDescriptorPoolCreateInfo poolInfo{
        VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.maxSets = 1;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &poolSize;
    check(vkCreateDescriptorPool(device.device, &poolInfo, nullptr, &pool),
          "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo setInfo{
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    setInfo.descriptorPool = pool;
    setInfo.descriptorSetCount = 1;
    setInfo.pSetLayouts = &pipeline.setLayout;
    check(vkAllocateDescriptorSets(device.device, &setInfo, &set),
          "vkAllocateDescriptorSets");
    std::vector<VkDescriptorBufferInfo> infos(buffers.size());
    std::vector<VkWriteDescriptorSet> writes(buffers.size());
    for (size_t i = 0; i < buffers.size(); ++i) {
      infos[i] = {deviceBuffers[bufferOf[i]].buffer, 0, VK_WHOLE_SIZE};
      writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[i].dstSet = set;
      writes[i].dstBinding = static_cast<uint32_t>(i);
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[i].pBufferInfo = &infos[i];
    }
    vkUpdateDescriptorSets(device.device, static_cast<uint32_t>(writes.size()),
                           writes.data(), 0, nullptr);
  }

  VkCommandBufferAllocateInfo cmdInfo{
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cmdInfo.commandPool = device.commandPool;
  cmdInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cmdInfo.commandBufferCount = 1;
  VkCommandBuffer cmd;
  check(vkAllocateCommandBuffers(device.device, &cmdInfo, &cmd),
        "vkAllocateCommandBuffers");
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
  if (set != VK_NULL_HANDLE)
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                            pipeline.layout, 0, 1, &set, 0, nullptr);
  vkCmdDispatch(cmd, grid[0], grid[1], grid[2]);
  // Make the shader's writes visible to the host reads below.
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr,
                       0, nullptr);
  check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");

  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  check(vkResetFences(device.device, 1, &device.fence), "vkResetFences");
  check(vkQueueSubmit(device.queue, 1, &submit, device.fence), "vkQueueSubmit");
  check(vkWaitForFences(device.device, 1, &device.fence, VK_TRUE, UINT64_MAX),
        "vkWaitForFences");

  // Only buffers the kernel changed are written back: inputs may live in
  // read-only memory (constants lowered to globals).
  for (DeviceBuffer &b : deviceBuffers) {
    if (b.host.bytes && std::memcmp(b.host.data, b.mapped, b.host.bytes))
      std::memcpy(b.host.data, b.mapped, b.host.bytes);
    vkUnmapMemory(device.device, b.memory);
    vkDestroyBuffer(device.device, b.buffer, nullptr);
    vkFreeMemory(device.device, b.memory, nullptr);
  }
  vkFreeCommandBuffers(device.device, device.commandPool, 1, &cmd);
  if (pool != VK_NULL_HANDLE)
    vkDestroyDescriptorPool(device.device, pool, nullptr);
}

//===- amp-vulkan-probe.cpp - Is there a Vulkan device for amp? -----------===//
//
// Prints the Vulkan device amp's runtime would use (name, type, API version
// and the 16-bit features it enables) and exits 0, or prints why there is
// none and exits 1. lit uses it to decide the `vulkan` feature.
//
//===----------------------------------------------------------------------===//

extern "C" int ampVulkanProbe();

int main() { return ampVulkanProbe(); }

//===- amp-vulkan-probe.cpp - Is there a Vulkan device for amp? -----------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Prints the Vulkan device amp's runtime would use (name, type, API version
// and the 16-bit features it enables) and exits 0, or prints why there is
// none and exits 1. lit uses it to decide the `vulkan` feature.
//
//===----------------------------------------------------------------------===//

extern "C" int ampVulkanProbe();

int main() { return ampVulkanProbe(); }

# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What machine a benchmark ran on, for the numbers it writes: every speed
and time amp reports names its chip."""

import os
import platform
import re
import subprocess


def cpu_name():
    """The CPU's model name (/proc/cpuinfo)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def cpu_flags():
    """The CPU's feature flags (/proc/cpuinfo: avx2, avx512f, avx512_bf16, ...)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def llvm_chip():
    """The host CPU as LLVM names it (znver3, emeraldrapids, ...)."""
    try:
        out = subprocess.run(["/usr/lib/llvm-22/bin/llc", "--version"], capture_output=True,
                             text=True).stdout
    except OSError:
        return "?"
    m = re.search(r"Host CPU: (\S+)", out)
    return m.group(1) if m else "?"


def describe():
    """'<model name> (LLVM: <chip>), N cores'."""
    return f"{cpu_name()} (LLVM: {llvm_chip()}), {os.cpu_count()} cores"

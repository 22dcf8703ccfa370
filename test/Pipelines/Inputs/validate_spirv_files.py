#!/usr/bin/env python3
"""Runs spirv-val on every .spv file of a directory.

  validate_spirv_files.py SPIRV_VAL DIR

Prints `N SPIR-V binaries valid (vulkan1.1)` and exits non-zero when there
is none or one fails. Used with the runtime's AMP_VULKAN_DUMP_SPIRV=DIR,
which keeps every binary amp's Vulkan runtime loads.
"""
import os
import subprocess
import sys


def main():
    spirv_val, directory = sys.argv[1:3]
    files = sorted(f for f in os.listdir(directory) if f.endswith(".spv"))
    if not files:
        print("no .spv file in " + directory)
        return 1
    for name in files:
        r = subprocess.run([spirv_val, "--target-env", "vulkan1.1",
                            os.path.join(directory, name)],
                           capture_output=True, text=True)
        if r.returncode:
            print("%s is not valid SPIR-V:\n%s%s" % (name, r.stdout, r.stderr))
            return 1
    print("%d SPIR-V binaries valid (vulkan1.1)" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Serialises every spirv.module of an MLIR file and validates it.

  validate_spirv.py MLIR_TRANSLATE SPIRV_VAL INPUT.mlir

Prints `N SPIR-V modules valid (vulkan1.1)` and exits non-zero when a module
fails to serialise or validate. Not a test: lit skips this file.
"""
import subprocess
import sys
import tempfile
import os


def modules(text):
    """The top-level spirv.module ops, as text."""
    out, cur = [], None
    for line in text.split("\n"):
        if line.startswith("  spirv.module"):
            cur = [line]
            continue
        if cur is not None:
            cur.append(line)
            if line == "  }":
                out.append("\n".join(cur) + "\n")
                cur = None
    return out


def main():
    translate, spirv_val, path = sys.argv[1:4]
    mods = modules(open(path).read())
    if not mods:
        print("no spirv.module found")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        for i, m in enumerate(mods):
            src = os.path.join(tmp, f"m{i}.mlir")
            spv = os.path.join(tmp, f"m{i}.spv")
            with open(src, "w") as f:
                f.write(m)
            r = subprocess.run([translate, "--no-implicit-module", "--serialize-spirv",
                                src, "-o", spv], capture_output=True, text=True)
            if r.returncode:
                print(f"module {i} does not serialise:\n{r.stderr}")
                return 1
            r = subprocess.run([spirv_val, "--target-env", "vulkan1.1", spv],
                               capture_output=True, text=True)
            if r.returncode:
                print(f"module {i} is not valid SPIR-V:\n{r.stdout}{r.stderr}")
                return 1
    print(f"{len(mods)} SPIR-V modules valid (vulkan1.1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Prints the spirv.module ops of amp-opt's output (amp-lower-to-spirv),
separated by `// -----`, for mlir-translate -split-input-file's SPIR-V
round trip.

    spirv_modules_of.py < lowered.mlir > kernels.mlir
"""
import sys


def main():
    lines = sys.stdin.read().splitlines()
    out, inside = [], False
    for line in lines:
        if line.startswith("  spirv.module "):
            inside = True
            if out:
                out.append("// -----")
        if inside:
            out.append(line)
            if line == "  }":
                inside = False
    if not out:
        print("spirv_modules_of: no spirv.module in the input", file=sys.stderr)
        return 1
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())

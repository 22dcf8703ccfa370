# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Counts the spills and reloads of vector registers that llc placed inside
loops (an assembly file on stdin, x86 or AArch64): llc marks each block of
a loop `Loop: Header=... Depth=N` and each spill slot access `Spill` or
`Reload`; a vector register is an xmm/ymm/zmm (x86) or q/v/z register
(AArch64). Prints `vector spills in loops: N (scalar: M)`."""
import re
import sys

depth = 0
vector = scalar = 0
for line in sys.stdin:
    if re.match(r"^[.\w$]+:", line):
        m = re.search(r"Depth=(\d+)", line)
        depth = int(m.group(1)) if m else 0
    if depth and re.search(r"\b(Spill|Reload)\b", line):
        code = line.split("#")[0].split("//")[0]
        if re.search(r"%[xyz]mm\d+|\b[qvz]\d+\b", code):
            vector += 1
        else:
            scalar += 1
print("vector spills in loops: %d (scalar: %d)" % (vector, scalar))

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Prints a ranges file of amp-run --calibrate one value per line (not a test).

  ranges_table.py RANGES.json

  calls=N
  op=1 result=0 math.exp calibrate.mlir:12:8 count=64 min=0.375352 max=2.64859 nonfinite=0
"""

import json
import sys


def number(v):
    return "none" if v is None else "%.6g" % v


def main(path):
    with open(path) as f:
        ranges = json.load(f)
    print("version=%d calls=%d" % (ranges["amp_ranges_version"], ranges["calls"]))
    for v in ranges["values"]:
        print("op=%d result=%d %s %s count=%d min=%s max=%s nonfinite=%d" % (
            v["op"], v["result"], v["name"], v["loc"], v["count"], number(v["min"]),
            number(v["max"]), v["nonfinite"]))


if __name__ == "__main__":
    main(sys.argv[1])

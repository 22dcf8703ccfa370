#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks the ranges calibrate.mlir's program gives against NumPy (not a test).

  calibrate_oracle.py RANGES.json DIR...

DIR/arg0.npy are the inputs of the calls the ranges were gathered over.
Prints one line per claim, "ok" or what differs.
"""

import json
import sys

import numpy as np


def main(path, folders):
    with open(path) as f:
        values = {v["name"]: v for v in json.load(f)["values"]}
    inputs = [np.load(d + "/arg0.npy").astype(np.float64) for d in folders]
    a = np.concatenate(inputs)
    strided = np.exp(np.concatenate([x[1:33:4] for x in inputs]))
    exp = np.exp(a)
    sums = [np.exp(np.load(d + "/arg0.npy").astype(np.float64)).sum() for d in folders]
    # The loop doubles exp(a) three times: 2, 4 and 8 times it.
    doubled = np.concatenate([exp * 2, exp * 4, exp * 8])
    claims = [
        ("exp min", values["math.exp"]["min"], exp.min()),
        ("exp max", values["math.exp"]["max"], exp.max()),
        ("sum min", values["linalg.reduce"]["min"], min(sums)),
        ("sum max", values["linalg.reduce"]["max"], max(sums)),
        ("loop body min", values["arith.addf"]["min"], doubled.min()),
        ("loop body max", values["arith.addf"]["max"], doubled.max()),
        ("strided min", values["tensor.extract_slice"]["min"], strided.min()),
        ("strided max", values["tensor.extract_slice"]["max"], strided.max()),
    ]
    for claim, got, expected in claims:
        # f32 arithmetic and amp's exp (within 4 ulp) against float64.
        ok = abs(got - expected) <= 1e-5 * abs(expected)
        print("%s: %s" % (claim, "ok" if ok else "got %r, NumPy says %r" % (got, expected)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])

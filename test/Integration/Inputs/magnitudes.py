#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes inputs of every magnitude for ranges-exp-chain.mlir (not a test).

Usage: magnitudes.py DIR

arg0.npy: 8x16 activations whose rows span magnitudes: row 0 up to 20
(exp(20) = 4.9e8 overflows f16 by far), row 1 up to 14, rows 2-3 within
[-1, 1], row 4 tiny (1e-6 .. 1e-4: subnormal in f16), row 5 exact zeros,
rows 6-7 mixed signs up to 8. arg1.npy: the 16x16 identity (the first
contraction passes the activations through, so exp sees them as they are).
arg2.npy: a 16x8 projection with entries in [-1/16, 1/16].
"""

import os
import sys

import numpy as np


def main():
    directory = sys.argv[1]
    os.makedirs(directory, exist_ok=True)
    rng = np.random.default_rng(12)
    x = np.empty((8, 16), dtype=np.float32)
    x[0] = np.linspace(-20, 20, 16)
    x[1] = np.linspace(-14, 14, 16)
    x[2:4] = rng.uniform(-1, 1, (2, 16))
    x[4] = rng.uniform(1e-6, 1e-4, 16) * rng.choice([-1, 1], 16)
    x[5] = 0
    x[6:8] = rng.uniform(-8, 8, (2, 16))
    w = np.eye(16, dtype=np.float32)
    w2 = rng.uniform(-1 / 16, 1 / 16, (16, 8)).astype(np.float32)
    for i, a in enumerate((x, w, w2)):
        np.save(os.path.join(directory, "arg%d.npy" % i), a.astype(np.float32))


if __name__ == "__main__":
    main()

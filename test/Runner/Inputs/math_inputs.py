#!/usr/bin/env python3
"""Writes the inputs and references of cpu-math.mlir (not a test).

  math_inputs.py DIR   tanh.npy (8192 points on [-12, 12], every 97th
                       scaled by 1e-3 for tiny arguments), exp.npy (on
                       [-104, 88]: below -87.3 the results are subnormal),
                       log.npy (log-spaced on [1e-45, 1e38], subnormals
                       included, with 100 points on [0.5, 2] around log's
                       zero), and ref_*.npy: the functions evaluated in
                       float64 and rounded to f32.
"""

import os
import sys

import numpy as np

N = 8192


def main(directory):
    os.makedirs(directory, exist_ok=True)
    tanh = np.linspace(-12, 12, N).astype(np.float32)
    tanh[::97] *= np.float32(1e-3)
    exp = np.linspace(-104, 88, N).astype(np.float32)
    log = np.logspace(-45, 38, N).astype(np.float32)
    log[4000:4100] = np.linspace(0.5, 2, 100)
    for name, values, function in (("tanh", tanh, np.tanh), ("exp", exp, np.exp),
                                   ("log", log, np.log)):
        np.save(os.path.join(directory, name + ".npy"), values)
        exact = function(values.astype(np.float64)).astype(np.float32)
        np.save(os.path.join(directory, "ref_" + name + ".npy"), exact)


if __name__ == "__main__":
    main(sys.argv[1])

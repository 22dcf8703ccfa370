#!/usr/bin/env python3
"""Scales the seeded inputs of the transformer block to a trained model's
ranges (not a test; lit runs no file under Inputs/).

Usage: transformer_inputs.py DIR

DIR holds arg0.npy ... arg11.npy written by `amp-run --save-inputs` for
@compute of test/Integration/mp-transformer.mlir, each uniform in [-1, 1):
x, gamma, beta, gamma2, beta2, wq, wk, wv, wo, w1, b1, w2. Rewrites them in
place: LayerNorm scales 1 + 0.1 g and shifts 0.1 b, weight matrices divided
by sqrt(fan_in) (so activations stay O(1) and the attention logits O(1)),
the MLP bias times 0.1; x is left as it is.
"""

import math
import os
import sys

import numpy as np


def main():
    directory = sys.argv[1]

    def update(index, function):
        path = os.path.join(directory, "arg%d.npy" % index)
        np.save(path, function(np.load(path)).astype(np.float32))

    for gamma in (1, 3):
        update(gamma, lambda g: 1 + 0.1 * g)
    for beta in (2, 4, 10):
        update(beta, lambda b: 0.1 * b)
    for weight in (5, 6, 7, 8, 9, 11):
        update(weight, lambda w: w / math.sqrt(w.shape[0]))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes and checks the .npy files of npy-dtypes.mlir (not a test).

  npy_files.py write DIR   the inputs of @twice: the same six values, exact
                           in every dtype, as f16, bf16 words ('<u2'), f32,
                           f64, i32, i64 arrays of shape (2, 3), f16 and
                           bf16 scalars (shape ()), an index scalar, the
                           bf16 array again as '<i2', and an f32 array of
                           shape (4, 3) for @dynamic.
  npy_files.py check DIR   prints the dtype, shape and values of each
                           outK.npy amp-run wrote, bf16 words decoded.
"""

import os
import sys

import numpy as np

# Exact in every dtype once the integer ones truncate 0.5 and -1.25.
VALUES = [0.5, -1.25, 3.0, 0.0, -7.0, 100.0]


def bf16_words(values):
    return (np.asarray(values, np.float32).view(np.uint32) >> 16).astype("<u2")


def write(directory):
    os.makedirs(directory, exist_ok=True)
    shaped = np.reshape(VALUES, (2, 3))
    arrays = [shaped.astype("<f2"), bf16_words(shaped), shaped.astype("<f4"),
              shaped.astype("<f8"), shaped.astype("<i4"), shaped.astype("<i8"),
              np.array(1.5, "<f2"), bf16_words(np.float32(-2.5)).reshape(()),
              np.array(41, "<i8")]
    for k, array in enumerate(arrays):
        np.save(os.path.join(directory, "arg%d.npy" % k), array)
    # bf16 words may also come as signed 16-bit integers.
    np.save(os.path.join(directory, "arg1_i2.npy"), arrays[1].astype("<i2"))
    np.save(os.path.join(directory, "dynamic.npy"),
            np.arange(12, dtype="<f4").reshape(4, 3))


def check(directory):
    k = 0
    while os.path.exists(os.path.join(directory, "out%d.npy" % k)):
        array = np.load(os.path.join(directory, "out%d.npy" % k))
        values = array
        if array.dtype == np.dtype("<u2"):
            values = (np.atleast_1d(array).astype(np.uint32) << 16).view(np.float32)
        print("out%d %s %s %s" % (k, array.dtype.str, array.shape,
                                  " ".join("%g" % v for v in values.flat)))
        k += 1


if __name__ == "__main__":
    {"write": write, "check": check}[sys.argv[1]](sys.argv[2])
